extension ManagedObjectModel {
    /// Refuses, before any store runs it, a fetch of `entityName` whose predicate compares
    /// values of kinds that never compare (``FetchRequestError/mismatchedComparison(entity:key:keyType:predicate:found:)``)
    /// or whose sort key path goes through a to-many relationship
    /// (``FetchRequestError/toManySortKey(entity:key:relationship:)``). The coordinator runs it
    /// for every fetch, count and batch request; code that hands a request to a store itself
    /// calls it first.
    ///
    /// - Throws: ``ObjectError/unknownEntity(_:)`` or one of the errors above.
    public func checkFetch(entityName: String, predicate: ObjectPredicate?, sortDescriptors: [ObjectSortDescriptor]) throws {
        guard let entity = entitiesByName[entityName] else { throw ObjectError.unknownEntity(entityName) }
        try checkFetch(entity: entity, predicate: predicate, sortDescriptors: sortDescriptors)
    }

    func checkFetch(entity: EntityDescription, predicate: ObjectPredicate?, sortDescriptors: [ObjectSortDescriptor]) throws {
        if let predicate { try PredicateTypeCheck(model: self).check(predicate, entity: entity) }
        for descriptor in sortDescriptors {
            if let relationship = toManyRelationship(in: descriptor.key, from: entity) {
                throw FetchRequestError.toManySortKey(entity: entity.name, key: descriptor.key, relationship: relationship)
            }
        }
    }

    /// The first to-many relationship a key path walks through (or ends on), unless an
    /// operator (`@count`…) follows it.
    private func toManyRelationship(in keyPath: String, from entity: EntityDescription) -> String? {
        var current = entity
        let parts = keyPath.split(separator: ".").map(String.init)
        for (index, part) in parts.enumerated() {
            guard case .relationship(let relationship)? = current.propertiesByName[part] else { return nil }
            if relationship.isToMany {
                let next = index + 1 < parts.count ? parts[index + 1] : nil
                return next?.hasPrefix("@") == true ? nil : relationship.name
            }
            guard let destination = self.entity(named: relationship.destinationEntityName) else { return nil }
            current = destination
        }
        return nil
    }
}
