import Foundation

/// Checks a list of entity descriptions and fills in what inheritance and the graph imply.
struct ModelResolver {
    let entities: [EntityDescription]

    /// The resolved entities, in the given order and by name.
    func resolve() throws -> (ordered: [EntityDescription], byName: [String: EntityDescription]) {
        var byName: [String: EntityDescription] = [:]
        for entity in entities {
            guard !entity.name.isEmpty else { throw ModelError.emptyName(entity: entity.name) }
            guard byName[entity.name] == nil else { throw ModelError.duplicateEntity(entity.name) }
            byName[entity.name] = entity
        }
        try checkParents(byName)

        // Inheritance: properties, roots and sub-entities, parents before children.
        var resolved: [String: EntityDescription] = [:]
        func resolveEntity(_ name: String) throws -> EntityDescription {
            if let done = resolved[name] { return done }
            guard var entity = byName[name] else { throw ModelError.duplicateEntity(name) }
            var inherited: [PropertyDescription] = []
            entity.rootEntityName = name
            if let parentName = entity.superentityName {
                let parent = try resolveEntity(parentName)
                inherited = parent.properties
                entity.rootEntityName = parent.rootEntityName
            }
            var byProperty: [String: PropertyDescription] = [:]
            for property in inherited + entity.declaredProperties {
                guard !property.name.isEmpty else { throw ModelError.emptyName(entity: name) }
                guard byProperty[property.name] == nil else {
                    throw ModelError.duplicateProperty(entity: name, property: property.name)
                }
                byProperty[property.name] = property
            }
            entity.properties = inherited + entity.declaredProperties
            entity.propertiesByName = byProperty
            entity.subentityNames = entities.filter { $0.superentityName == name }.map(\.name)
            resolved[name] = entity
            return entity
        }
        for entity in entities { _ = try resolveEntity(entity.name) }

        for entity in entities { try checkProperties(of: resolved[entity.name]!, in: resolved) }
        for name in resolved.keys {
            var inverses: NameMap<RelationshipDescription> = [:]
            for relationship in resolved[name]!.relationships {
                guard let inverseName = relationship.inverseName,
                      let inverse = resolved[relationship.destinationEntityName]?.relationship(named: inverseName) else { continue }
                inverses[relationship.name] = inverse
            }
            resolved[name]!.inverseRelationships = inverses
        }

        // Version hashes, parents before children.
        var hashed: [String: Data] = [:]
        func hash(_ name: String) -> Data {
            if let done = hashed[name] { return done }
            let entity = resolved[name]!
            let parentHash = entity.superentityName.map { hash($0) }
            let value = VersionHasher.entityHash(entity, superentityHash: parentHash)
            hashed[name] = value
            return value
        }
        for name in resolved.keys { resolved[name]!.versionHash = hash(name) }
        return (entities.map { resolved[$0.name]! }, resolved)
    }

    private func checkParents(_ byName: [String: EntityDescription]) throws {
        for entity in entities {
            var seen: [String] = [entity.name]
            var current = entity.superentityName
            while let parent = current {
                guard let parentEntity = byName[parent] else {
                    throw ModelError.unknownParent(entity: seen.last ?? entity.name, parent: parent)
                }
                if let start = seen.firstIndex(of: parent) {
                    throw ModelError.cyclicInheritance(entities: Array(seen[start...]) + [parent])
                }
                seen.append(parent)
                current = parentEntity.superentityName
            }
        }
    }

    private func checkProperties(of entity: EntityDescription, in all: [String: EntityDescription]) throws {
        for property in entity.declaredProperties {
            switch property {
            case .attribute(let attribute):
                if let value = attribute.defaultValue, !value.matches(attribute.type) {
                    throw ModelError.invalidDefaultValue(entity: entity.name, attribute: attribute.name)
                }
                if let composite = attribute.composite {
                    let element = String(attribute.name.dropFirst(composite.name.count + 1))
                    let reason: String? = if attribute.type == .objectID {
                        "a composite cannot hold an ObjectID"
                    } else if attribute.type == .binaryData && attribute.allowsExternalBinaryDataStorage {
                        "a composite cannot hold externally stored binary data"
                    } else if attribute.isDerived {
                        "a composite cannot hold a derived attribute"
                    } else {
                        nil
                    }
                    if let reason {
                        throw ModelError.invalidCompositeElement(entity: entity.name, attribute: composite.name,
                                                                 element: element, reason: reason)
                    }
                }
            case .relationship(let relationship):
                guard let destination = all[relationship.destinationEntityName] else {
                    throw ModelError.unknownDestination(
                        entity: entity.name, property: relationship.name, destination: relationship.destinationEntityName)
                }
                // Core Data archives some unbounded to-manys with maxCount -1 (and hashes the -1).
                guard relationship.minCount >= 0, relationship.maxCount >= -1,
                      relationship.maxCount <= 0 || relationship.minCount <= relationship.maxCount else {
                    throw ModelError.invalidCount(entity: entity.name, relationship: relationship.name)
                }
                if let inverseName = relationship.inverseName {
                    guard let inverse = destination.relationship(named: inverseName) else {
                        throw ModelError.unknownInverse(entity: entity.name, relationship: relationship.name, inverse: inverseName)
                    }
                    let leadsBack = isKind(entity.name, of: inverse.destinationEntityName, in: all)
                        || isKind(inverse.destinationEntityName, of: entity.name, in: all)
                    guard leadsBack, inverse.inverseName == nil || inverse.inverseName == relationship.name else {
                        throw ModelError.inverseMismatch(entity: entity.name, relationship: relationship.name, inverse: inverseName)
                    }
                }
            case .fetchedProperty(let fetched):
                guard all[fetched.destinationEntityName] != nil else {
                    throw ModelError.unknownDestination(
                        entity: entity.name, property: fetched.name, destination: fetched.destinationEntityName)
                }
            }
        }
        // A composite's name (or a nested one's path) is a property name too.
        for composite in entity.compositeAttributes {
            for path in composite.compositePaths where entity.propertiesByName[path] != nil {
                throw ModelError.duplicateProperty(entity: entity.name, property: path)
            }
            if entity.compositeAttributes.filter({ $0.name == composite.name }).count > 1
                || entity.attributes.contains(where: { $0.composite != nil && $0.composite?.name == composite.name && $0.composite != composite }) {
                throw ModelError.duplicateProperty(entity: entity.name, property: composite.name)
            }
        }
        for constraint in entity.uniquenessConstraints {
            for name in constraint where entity.propertiesByName[name] == nil {
                throw ModelError.unknownConstraintProperty(entity: entity.name, property: name)
            }
        }
        for index in entity.indexes {
            for element in index.elements where entity.propertiesByName[element.property] == nil {
                throw ModelError.unknownConstraintProperty(entity: entity.name, property: element.property)
            }
        }
    }

    private func isKind(_ name: String, of ancestor: String, in all: [String: EntityDescription]) -> Bool {
        var current: String? = name
        while let each = current {
            if each == ancestor { return true }
            current = all[each]?.superentityName
        }
        return false
    }
}
