import Foundation
import StrataCore

extension MappingModel {
    /// The mapping model with what Xcode's file leaves out worked out from the two models it
    /// connects, and checked against them: what Xcode's mapping compiler does before Core Data
    /// can use a mapping model.
    ///
    /// - Every entity mapping gets the version hashes of its source and destination entities.
    /// - A mapping type of ``EntityMappingType/undefined`` (what Xcode saves) becomes
    ///   ``EntityMappingType/add`` without a source entity, ``EntityMappingType/remove``
    ///   without a destination entity, ``EntityMappingType/copy`` when the two entities hash the
    ///   same and ``EntityMappingType/transform`` otherwise, as in Core Data's inferred mapping
    ///   models. A type the file states is kept.
    /// - An attribute mapping without an expression, where the source entity has an attribute
    ///   of the same name, gets `$source.<name>` (Xcode writes no expression for a mapping its
    ///   editor filled in that way).
    /// - A relationship mapping without an expression that generates one gets
    ///   `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", M, K)`:
    ///   `K` is its key path, or `$source.<name>` when the source entity has that relationship;
    ///   `M` its mapping name, or the first entity mapping from the source relationship's
    ///   destination entity to the destination relationship's destination entity (or, failing
    ///   that, the first one to the destination relationship's destination entity).
    ///
    /// - Throws: ``MappingModelError/mismatch(file:entityMapping:reason:)`` when an entity
    ///   mapping names an entity its model does not hold, a property mapping a property the
    ///   destination entity does not have, an expression reads a property of `$source` that the
    ///   source entity does not have, or refers to an entity mapping the model does not hold.
    public func resolved(source: ManagedObjectModel, destination: ManagedObjectModel) throws(MappingModelError) -> MappingModel {
        let resolver = MappingResolver(mapping: self, source: source, destination: destination)
        var result = self
        result.entityMappings = []
        for entityMapping in entityMappings {
            result.entityMappings.append(try resolver.resolve(entityMapping))
        }
        return result
    }
}

/// Resolves one entity mapping at a time against the two models.
private struct MappingResolver {
    let mapping: MappingModel
    let source: ManagedObjectModel
    let destination: ManagedObjectModel

    func resolve(_ original: EntityMapping) throws(MappingModelError) -> EntityMapping {
        var entityMapping = original
        let fail = { (reason: String) in MappingModelError.mismatch(file: mapping.file, entityMapping: original.name, reason: reason) }

        var sourceEntity: EntityDescription?
        if let name = original.sourceEntityName {
            guard let entity = source.entity(named: name) else { throw fail("the source model has no entity '\(name)'") }
            sourceEntity = entity
        }
        var destinationEntity: EntityDescription?
        if let name = original.destinationEntityName {
            guard let entity = destination.entity(named: name) else { throw fail("the destination model has no entity '\(name)'") }
            destinationEntity = entity
        }
        entityMapping.sourceEntityVersionHash = original.sourceEntityName.flatMap { source.entityVersionHashesByName[$0] }
        entityMapping.destinationEntityVersionHash = original.destinationEntityName.flatMap { destination.entityVersionHashesByName[$0] }

        if original.mappingType == .undefined {
            entityMapping.mappingType = switch (entityMapping.sourceEntityVersionHash, entityMapping.destinationEntityVersionHash) {
            case (nil, _): .add
            case (_, nil): .remove
            case let (from?, to?): from == to ? .copy : .transform
            }
        }

        if let expression = original.sourceExpression {
            try check(expression, sourceEntity: sourceEntity, fail: fail)
        }

        for (index, attributeMapping) in original.attributeMappings.enumerated() {
            guard let destinationEntity, destinationEntity.attribute(named: attributeMapping.name) != nil else {
                throw fail("the destination entity \(original.destinationEntityName ?? "(none)") has no attribute '\(attributeMapping.name)'")
            }
            if attributeMapping.valueExpression == nil, sourceEntity?.attribute(named: attributeMapping.name) != nil {
                entityMapping.attributeMappings[index].valueExpression = .keyPath(.variable("source"), attributeMapping.name)
            }
            if let expression = entityMapping.attributeMappings[index].valueExpression {
                try check(expression, sourceEntity: sourceEntity, fail: fail)
            }
        }

        for (index, relationshipMapping) in original.relationshipMappings.enumerated() {
            guard let destinationEntity, let relationship = destinationEntity.relationship(named: relationshipMapping.name) else {
                throw fail("the destination entity \(original.destinationEntityName ?? "(none)") has no relationship '\(relationshipMapping.name)'")
            }
            if let name = relationshipMapping.sourceMappingName, mapping.entityMapping(named: name) == nil {
                throw fail("relationship \(relationshipMapping.name): no entity mapping is named '\(name)'")
            }
            if relationshipMapping.valueExpression == nil, relationshipMapping.generatesValueExpression {
                entityMapping.relationshipMappings[index].valueExpression = try generated(
                    relationshipMapping, destinationRelationship: relationship, sourceEntity: sourceEntity, fail: fail)
            }
            if let expression = entityMapping.relationshipMappings[index].valueExpression {
                try check(expression, sourceEntity: sourceEntity, fail: fail)
            }
        }
        return entityMapping
    }

    /// The expression Xcode generates for a relationship mapping, or `nil` when it has nothing
    /// to generate one from.
    private func generated(_ relationshipMapping: PropertyMapping, destinationRelationship: RelationshipDescription,
                           sourceEntity: EntityDescription?,
                           fail: (String) -> MappingModelError) throws(MappingModelError) -> MappingExpression? {
        var sourceInstances: MappingExpression?
        var sourceRelationship: RelationshipDescription?
        if let keyPath = relationshipMapping.sourceKeyPath {
            guard let parsed = MappingExpression.parseKeyPath(keyPath) else {
                throw fail("relationship \(relationshipMapping.name): the key path '\(keyPath)' does not parse")
            }
            sourceInstances = parsed
        } else if let relationship = sourceEntity?.relationship(named: relationshipMapping.name) {
            sourceInstances = .keyPath(.variable("source"), relationshipMapping.name)
            sourceRelationship = relationship
        }
        guard let sourceInstances else { return nil }
        let name = relationshipMapping.sourceMappingName ?? entityMappingName(
            to: destinationRelationship.destinationEntityName, from: sourceRelationship?.destinationEntityName)
        guard let name else { return nil }
        return MappingExpression.DestinationInstances(entityMappingName: name, sourceInstances: sourceInstances).expression
    }

    /// The first entity mapping from `sourceEntity` to `destinationEntity`, or failing that the
    /// first one to `destinationEntity`.
    private func entityMappingName(to destinationEntity: String, from sourceEntity: String?) -> String? {
        let candidates = mapping.entityMappings.filter { $0.destinationEntityName == destinationEntity }
        return (candidates.first { $0.sourceEntityName == sourceEntity && sourceEntity != nil } ?? candidates.first)?.name
    }

    /// Checks what an expression refers to: the first property of every `$source.` key path,
    /// and the entity mapping of every `destinationInstancesForEntityMappingNamed:` call.
    private func check(_ expression: MappingExpression, sourceEntity: EntityDescription?,
                       fail: (String) -> MappingModelError) throws(MappingModelError) {
        switch expression {
        case let .keyPath(base, path):
            if base == .variable("source"), let first = path.split(separator: ".").first, !first.hasPrefix("@") {
                guard let sourceEntity else { throw fail("\(expression.format) reads $source, but the mapping has no source entity") }
                guard sourceEntity.propertiesByName[String(first)] != nil else {
                    throw fail("\(expression.format): the source entity \(sourceEntity.name) has no property '\(first)'")
                }
            }
            try check(base, sourceEntity: sourceEntity, fail: fail)
        case let .function(receiver, _, arguments):
            if let reference = expression.destinationInstances, mapping.entityMapping(named: reference.entityMappingName) == nil {
                throw fail("\(expression.format): no entity mapping is named '\(reference.entityMappingName)'")
            }
            try check(receiver, sourceEntity: sourceEntity, fail: fail)
            for argument in arguments { try check(argument, sourceEntity: sourceEntity, fail: fail) }
        case let .builtInFunction(_, arguments):
            for argument in arguments { try check(argument, sourceEntity: sourceEntity, fail: fail) }
        case let .fetch(request, context, _):
            try check(request, sourceEntity: sourceEntity, fail: fail)
            try check(context, sourceEntity: sourceEntity, fail: fail)
        case .constant, .variable, .evaluatedObject, .unsupported:
            break
        }
    }
}
