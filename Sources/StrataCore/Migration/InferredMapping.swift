import Foundation

/// The mapping Core Data's lightweight migration infers from two model versions: which source
/// entity and property fills each destination one (by name, or by renaming identifier), and the
/// list of changes.
///
/// ```swift
/// let mapping = try InferredMapping(source: version1, destination: version2)
/// mapping.changes.map(\.description)   // ["Student: property 'height' added"]
/// ```
///
/// What it infers: added and removed entities, attributes and relationships; renames through a
/// renaming identifier (the destination names the source's name, or both share one identifier);
/// optional to required when the attribute has a default value; required to optional; the
/// numeric widenings (Integer 16 → 32 → 64, any integer → Decimal or Double, Float → Double);
/// to-one to to-many; ordered to unordered and back; a new parent entity, or an entity moved out
/// of its hierarchy. What it refuses, with ``MigrationError/cannotInfer(_:reason:)``: another
/// type change, a to-many made to-one, a new required attribute without a default, one source
/// entity split in two, and two hierarchies merged into one (their primary keys would clash).
public struct InferredMapping: Sendable {
    /// The model the store was written with.
    public let source: ManagedObjectModel
    /// The model it is migrated to.
    public let destination: ManagedObjectModel
    /// Destination entity → the source entity its objects come from (absent: a new entity).
    public let entitySources: [String: String]
    /// Destination entity → (destination stored property → the source property it is filled
    /// from); a property absent here is new.
    public let propertySources: [String: [String: String]]
    /// Every change, destination entities in name order.
    public let changes: [MigrationChange]

    /// Infers the mapping from `source` to `destination`.
    ///
    /// - Throws: ``MigrationError/cannotInfer(_:reason:)`` naming the first change that cannot be
    ///   inferred.
    public init(source: ManagedObjectModel, destination: ManagedObjectModel) throws(MigrationError) {
        let analysis = Analysis(source: source, destination: destination)
        if let (change, reason) = analysis.problems.first { throw .cannotInfer(change, reason: reason) }
        self.source = source
        self.destination = destination
        self.entitySources = analysis.entitySources
        self.propertySources = analysis.propertySources
        self.changes = analysis.changes
    }

    /// The changes from `source` to `destination`, including those an inferred migration cannot
    /// make: what an error about an incompatible store names.
    public static func changes(from source: ManagedObjectModel, to destination: ManagedObjectModel) -> [MigrationChange] {
        let analysis = Analysis(source: source, destination: destination)
        return analysis.changes
    }

    /// The destination entity the objects of source entity `name` go to (nil: dropped).
    public func destinationEntity(forSource name: String) -> String? {
        destinationBySource[name]
    }

    /// Source entity → destination entity.
    private var destinationBySource: [String: String] {
        Dictionary(entitySources.map { ($1, $0) }) { first, _ in first }
    }

    /// Whether the two models have the same version hashes: nothing to migrate.
    public var isIdentity: Bool {
        source.entityVersionHashesByName == destination.entityVersionHashesByName
    }

    // MARK: - Conversions

    /// Whether a value of type `from` becomes one of type `to` without loss, as an inferred
    /// migration converts it.
    public static func widens(_ from: AttributeType, to: AttributeType) -> Bool {
        if from == to { return true }
        let integers: [AttributeType] = [.integer16, .integer32, .integer64]
        if let a = integers.firstIndex(of: from), let b = integers.firstIndex(of: to) { return a <= b }
        if integers.contains(from) { return to == .decimal || to == .double }
        return from == .float && to == .double
    }

    /// `value` of type `from` as a value of type `to` (for a widening, see ``widens(_:to:)``).
    public static func convert(_ value: AttributeValue, from: AttributeType, to: AttributeType) -> AttributeValue {
        guard from != to else { return value }
        switch (value, to) {
        case (.integer(let number), .double): return .double(Double(number))
        case (.integer(let number), .decimal): return .decimal(Decimal(number))
        case (.float(let number), .double): return .double(Double(number))
        default: return value
        }
    }
}

extension InferredMapping {
    /// The comparison of two models: the mapping, the changes and what cannot be inferred.
    struct Analysis {
        var entitySources: [String: String] = [:]
        var propertySources: [String: [String: String]] = [:]
        var changes: [MigrationChange] = []
        var problems: [(MigrationChange, String)] = []

        init(source: ManagedObjectModel, destination: ManagedObjectModel) {
            let sourceByIdentifier = Dictionary(source.entities.map { ($0.renamingIdentifier ?? $0.name, $0.name) }) { first, _ in first }
            for entity in destination.entities.sorted(by: { $0.name < $1.name }) {
                let key = entity.renamingIdentifier ?? entity.name
                guard let sourceName = source.entity(named: key).map(\.name) ?? sourceByIdentifier[key],
                      let sourceEntity = source.entity(named: sourceName) else {
                    changes.append(MigrationChange(entity: entity.name, kind: .addedEntity))
                    continue
                }
                if let taken = entitySources.first(where: { $0.value == sourceName }) {
                    problems.append((MigrationChange(entity: entity.name, kind: .renamedEntity(from: sourceName)),
                                     "entity '\(sourceName)' would fill both '\(taken.key)' and '\(entity.name)'"))
                    continue
                }
                entitySources[entity.name] = sourceName
                if sourceName != entity.name {
                    changes.append(MigrationChange(entity: entity.name, kind: .renamedEntity(from: sourceName)))
                }
                compareProperties(of: entity, with: sourceEntity, source: source, destination: destination)
            }
            let mapped = Set(entitySources.values)
            for entity in source.entities.sorted(by: { $0.name < $1.name }) where !mapped.contains(entity.name) {
                changes.append(MigrationChange(entity: entity.name, kind: .removedEntity))
            }
            compareHierarchies(source: source, destination: destination)
        }

        /// The properties of a destination entity against its source entity's.
        mutating func compareProperties(of entity: EntityDescription, with sourceEntity: EntityDescription,
                                        source: ManagedObjectModel, destination: ManagedObjectModel) {
            let before = changes.count
            let sourceStored = sourceEntity.properties.filter { !$0.isTransient && $0.fetchedProperty == nil }
            let sourceByIdentifier = Dictionary(sourceStored.map { ($0.renamingIdentifier ?? $0.name, $0.name) }) { first, _ in first }
            var used: Set<String> = []
            var sources: [String: String] = [:]
            let declared = Set(entity.declaredProperties.map(\.name))
            for property in entity.properties where !property.isTransient && property.fetchedProperty == nil {
                // Inherited properties are reported once, on the entity that declares them.
                let reports = declared.contains(property.name)
                let key = property.renamingIdentifier ?? property.name
                guard let sourceName = sourceStored.first(where: { $0.name == key })?.name ?? sourceByIdentifier[key],
                      let sourceProperty = sourceEntity.propertiesByName[sourceName] else {
                    if reports { added(property, in: entity) }
                    continue
                }
                used.insert(sourceName)
                sources[property.name] = sourceName
                guard reports else { continue }
                if sourceName != property.name {
                    changes.append(MigrationChange(entity: entity.name, kind: .renamedProperty(from: sourceName, to: property.name)))
                }
                switch (property, sourceProperty) {
                case (.attribute(let attribute), .attribute(let old)):
                    compare(attribute, with: old, in: entity)
                case (.relationship(let relationship), .relationship(let old)):
                    compare(relationship, with: old, in: entity, source: source, destination: destination)
                default:
                    problems.append((MigrationChange(entity: entity.name, kind: .renamedProperty(from: sourceName, to: property.name)),
                                     "an attribute and a relationship cannot fill each other"))
                }
            }
            let sourceDeclared = Set(sourceEntity.declaredProperties.map(\.name))
            for property in sourceStored where !used.contains(property.name) && sourceDeclared.contains(property.name) {
                changes.append(MigrationChange(entity: entity.name, kind: .removedProperty(property.name)))
            }
            propertySources[entity.name] = sources
            let oldParent = sourceEntity.superentityName
            let newParentSource = entity.superentityName.flatMap { entitySourcesByName(destination: destination, name: $0, source: source) }
            if oldParent != newParentSource {
                changes.append(MigrationChange(entity: entity.name, kind: .changedParent(from: oldParent, to: entity.superentityName)))
            }
            if changes.count == before, !problems.contains(where: { $0.0.entity == entity.name }),
               source.entityVersionHashesByName[sourceEntity.name] != destination.entityVersionHashesByName[entity.name],
               sourceEntity.name == entity.name {
                changes.append(MigrationChange(entity: entity.name, kind: .changedHashOnly))
            }
        }

        /// The source entity a destination entity is filled from, found as ``init`` finds it.
        func entitySourcesByName(destination: ManagedObjectModel, name: String, source: ManagedObjectModel) -> String? {
            guard let entity = destination.entity(named: name) else { return nil }
            let key = entity.renamingIdentifier ?? entity.name
            return source.entity(named: key)?.name ?? source.entities.first { ($0.renamingIdentifier ?? $0.name) == key }?.name
        }

        mutating func added(_ property: PropertyDescription, in entity: EntityDescription) {
            let change = MigrationChange(entity: entity.name, kind: .addedProperty(property.name))
            changes.append(change)
            if let attribute = property.attribute, !attribute.isOptional, attribute.defaultValue == nil, !attribute.isDerived {
                problems.append((change, "a new required attribute needs a default value for the objects the store holds"))
            }
        }

        mutating func compare(_ attribute: AttributeDescription, with old: AttributeDescription, in entity: EntityDescription) {
            if attribute.type != old.type {
                let change = MigrationChange(entity: entity.name, kind: .changedType(attribute.name, from: old.type, to: attribute.type))
                changes.append(change)
                if !InferredMapping.widens(old.type, to: attribute.type) {
                    problems.append((change, "only the numeric widenings are inferred"))
                }
            }
            if old.isOptional, !attribute.isOptional {
                let change = MigrationChange(entity: entity.name, kind: .becameRequired(attribute.name))
                changes.append(change)
                if attribute.defaultValue == nil, !attribute.isDerived {
                    problems.append((change, "a required attribute needs a default value for the objects that have none"))
                }
            } else if !old.isOptional, attribute.isOptional {
                changes.append(MigrationChange(entity: entity.name, kind: .becameOptional(attribute.name)))
            }
        }

        mutating func compare(_ relationship: RelationshipDescription, with old: RelationshipDescription, in entity: EntityDescription,
                              source: ManagedObjectModel, destination: ManagedObjectModel) {
            if !old.isToMany, relationship.isToMany {
                changes.append(MigrationChange(entity: entity.name, kind: .becameToMany(relationship.name)))
            } else if old.isToMany, !relationship.isToMany {
                let change = MigrationChange(entity: entity.name, kind: .becameToOne(relationship.name))
                changes.append(change)
                problems.append((change, "a to-many relationship made to-one would drop destinations"))
            } else if old.isToMany, old.isOrdered != relationship.isOrdered {
                changes.append(MigrationChange(entity: entity.name, kind: .changedOrdering(relationship.name, ordered: relationship.isOrdered)))
            }
            if old.isOptional != relationship.isOptional {
                changes.append(MigrationChange(entity: entity.name, kind: relationship.isOptional ? .becameOptional(relationship.name)
                                               : .becameRequired(relationship.name)))
            }
            let mappedDestination = entitySourcesByName(destination: destination, name: relationship.destinationEntityName, source: source)
            if mappedDestination != old.destinationEntityName {
                let change = MigrationChange(entity: entity.name, kind: .changedDestination(
                    relationship.name, from: old.destinationEntityName, to: relationship.destinationEntityName))
                changes.append(change)
                // The old destinations must all be objects of the new destination entity.
                let oldDestinationTarget = source.entityAndDescendants(of: old.destinationEntityName).compactMap { name in
                    destination.entities.first { entitySourcesByName(destination: destination, name: $0.name, source: source) == name }?.name
                }
                if oldDestinationTarget.isEmpty
                    || !oldDestinationTarget.allSatisfy({ destination.entity($0, isKindOf: relationship.destinationEntityName) }) {
                    problems.append((change, "the old destinations are not objects of the new destination entity"))
                }
            }
        }

        /// Refuses two source hierarchies merged into one destination hierarchy.
        mutating func compareHierarchies(source: ManagedObjectModel, destination: ManagedObjectModel) {
            var sourceRoots: [String: Set<String>] = [:]
            for (name, sourceName) in entitySources {
                guard let root = destination.entity(named: name)?.rootEntityName,
                      let sourceRoot = source.entity(named: sourceName)?.rootEntityName else { continue }
                sourceRoots[root, default: []].insert(sourceRoot)
            }
            for (root, roots) in sourceRoots.sorted(by: { $0.key < $1.key }) where roots.count > 1 {
                problems.append((MigrationChange(entity: root, kind: .changedParent(from: nil, to: root)),
                                 "it would merge the hierarchies of \(roots.sorted().map { "'\($0)'" }.joined(separator: " and ")), whose primary keys may clash"))
            }
        }
    }
}
