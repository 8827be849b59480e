import OrderedCollections

extension ManagedObject {
    /// Adds `object` to the to-many relationship `key` (at the end of an ordered one),
    /// updating the inverse.
    ///
    /// - Throws: as `setValue(_:forKey:)`.
    public func add(_ object: ManagedObject, to key: String) throws {
        let relationship = try toManyRelationship(key)
        try checkMutable()
        var current = try loadedToMany(key)
        guard !current.contains(object) else { return }
        current.append(object)
        try setValue(Array(current), forKey: relationship.name)
    }

    /// Inserts `object` at `index` of the ordered to-many relationship `key`.
    public func insert(_ object: ManagedObject, at index: Int, in key: String) throws {
        let relationship = try toManyRelationship(key)
        var current = Array(try loadedToMany(key))
        current.removeAll { $0 === object }
        current.insert(object, at: max(0, min(index, current.count)))
        try setValue(current, forKey: relationship.name)
    }

    /// Removes `object` from the to-many relationship `key`, updating the inverse.
    public func remove(_ object: ManagedObject, from key: String) throws {
        let relationship = try toManyRelationship(key)
        var current = try loadedToMany(key)
        guard current.remove(object) != nil else { return }
        try setValue(Array(current), forKey: relationship.name)
    }

    private func toManyRelationship(_ key: String) throws -> RelationshipDescription {
        guard case .relationship(let relationship) = try propertyDescription(forKey: key), relationship.isToMany else {
            throw ObjectError.wrongValueType(entity: entity.name, key: key, expected: nil, found: "not a to-many relationship")
        }
        return relationship
    }

    // MARK: Inverse maintenance

    /// The inverse of relationship `key`, if it has one.
    func inverse(of key: String) -> RelationshipDescription? {
        entity.inverseRelationships[key]
    }

    /// Sets a to-one and keeps the inverse side consistent.
    func setToOne(_ key: String, to destination: ManagedObject?) throws {
        let old = toOne(named: key)
        guard old !== destination else { return }
        let inverse = inverse(of: key)
        if let old, let inverse { try old.unlink(self, from: inverse) }
        try primitiveSetToOne(key, destination)
        if let destination, let inverse { try destination.link(self, into: inverse, reverseKey: key) }
    }

    /// Replaces the destinations of a to-many and keeps every inverse consistent.
    func replaceToMany(_ key: String, with destinations: [ManagedObject]) throws {
        let old = try loadedToMany(key)
        let new = OrderedSet(destinations)
        guard old != new else { return }
        let inverse = inverse(of: key)
        if let inverse {
            for removed in old where !new.contains(removed) { try removed.unlink(self, from: inverse) }
        }
        try primitiveSetToMany(key, new)
        if let inverse {
            for added in new where !old.contains(added) { try added.link(self, into: inverse, reverseKey: key) }
        }
    }

    /// Makes `source` a destination of this object's relationship `inverse` (whose own inverse,
    /// on `source`, is `reverseKey`).
    private func link(_ source: ManagedObject, into inverse: RelationshipDescription, reverseKey: String) throws {
        try fulfillFault()
        if inverse.isToMany {
            try modifyToMany(inverse.name, adding: source)
        } else {
            // A one-to-one or many-to-one: the previous source loses this object.
            if let previous = toOne(named: inverse.name), previous !== source {
                try previous.fulfillFault()
                if previous.entity.relationship(named: reverseKey)?.isToMany == true {
                    try previous.modifyToMany(reverseKey, removing: self)
                } else if previous.toOne(named: reverseKey) === self {
                    try previous.primitiveSetToOne(reverseKey, nil)
                }
            }
            try primitiveSetToOne(inverse.name, source)
        }
    }

    /// Removes `source` from this object's relationship `inverse`.
    func unlink(_ source: ManagedObject, from inverse: RelationshipDescription) throws {
        try fulfillFault()
        if inverse.isToMany {
            try modifyToMany(inverse.name, removing: source)
        } else if toOne(named: inverse.name) === source {
            try primitiveSetToOne(inverse.name, nil)
        }
    }

    func primitiveSetToOne(_ key: String, _ destination: ManagedObject?) throws {
        try fulfillFault()
        guard toOne(named: key) !== destination else { return }
        contextLink?.undoRecorder?.toOneWillChange(self, key, from: toOne(named: key))
        keepCommittedToOnes()
        setToOne(destination, named: key)
        markChanged()
    }

    func primitiveSetToMany(_ key: String, _ destinations: OrderedSet<ManagedObject>) throws {
        try fulfillFault()
        try loadToMany(key)
        contextLink?.undoRecorder?.toManyWillChange(self, key, to: destinations)
        toManyValues[key] = destinations
        markChanged()
    }

    /// Adds `destination` to a to-many in place, without copying the set (adding one
    /// destination at a time stays linear), and records the change if it made one.
    private func modifyToMany(_ key: String, adding destination: ManagedObject) throws {
        try loadToMany(key)
        contextLink?.undoRecorder?.toManyWillChange(self, key, destination, adding: true)
        if relationships().toManyValues.modify(key, default: [], { $0.append(destination).inserted }) { markChanged() }
    }

    /// Removes `destination` from a to-many in place, and records the change if it made one.
    private func modifyToMany(_ key: String, removing destination: ManagedObject) throws {
        try loadToMany(key)
        contextLink?.undoRecorder?.toManyWillChange(self, key, destination, adding: false)
        if relationships().toManyValues.modify(key, default: [], { $0.remove(destination) != nil }) { markChanged() }
    }

    /// Loads the destinations of a to-many (as faults) if they are not loaded yet: what
    /// ``loadedToMany(_:)`` does, without copying the set out when it is.
    func loadToMany(_ key: String) throws {
        try fulfillFault()
        // Looked up in place: the map copied out of the state would be retained and released.
        guard relationshipState?.toManyValues.index(of: key) == nil else { return }
        _ = try loadedToMany(key)
    }

    /// The destinations of a to-many, loading them (as faults) on first use.
    func loadedToMany(_ key: String) throws -> OrderedSet<ManagedObject> {
        try fulfillFault()
        if let loaded = toManyValues[key] { return loaded }
        guard let context = managedObjectContext else { throw ObjectError.objectDeleted(objectID) }
        let ids: [ManagedObjectID]
        if let known = unresolvedToMany.removeValue(forKey: key) {
            ids = known
        } else if !hasCommittedState {
            ids = []
        } else {
            ids = try context.relatedObjectIDs(of: self, relationship: key)
            relationships().savedToMany[key] = ids
        }
        let objects = try OrderedSet(ids.map { try context.object(with: $0) })
        toManyValues[key] = objects
        return objects
    }

    /// The current destinations of any relationship, as a list.
    func destinations(of relationship: RelationshipDescription) throws -> [ManagedObject] {
        try fulfillFault()
        if relationship.isToMany { return Array(try loadedToMany(relationship.name)) }
        return toOne(named: relationship.name).map { [$0] } ?? []
    }
}

extension ManagedObject {
    /// Sets the to-one `key` whose inverse is an unordered to-many without loading that to-many
    /// on the old and new destinations, when neither holds it loaded (nor known by IDs);
    /// returns false, changing nothing, when that does not apply.
    ///
    /// Only for a store that keeps such a relationship as the to-one side's foreign key alone
    /// (SQLite): there the inverse reads right once the change is saved. A migration relating a
    /// million objects to a few uses it, so that no destination loads its growing to-many
    /// again for every batch.
    package func setToOneLeavingInverseFaults(_ key: String, to destination: ManagedObject?) throws -> Bool {
        guard let relationship = entity.relationship(named: key), !relationship.isToMany,
              let inverse = inverse(of: key), inverse.isToMany, !inverse.isOrdered else { return false }
        if let destination {
            guard let context = managedObjectContext, destination.managedObjectContext === context,
                  context.persistentStoreCoordinator.managedObjectModel.entity(
                      destination.entity.name, isKindOf: relationship.destinationEntityName) else { return false }
        }
        try fulfillFault()
        try checkMutable()
        let old = toOne(named: key)
        guard old !== destination else { return true }
        for side in [old, destination].compactMap({ $0 }) {
            guard side.isFault || (side.relationshipState?.toManyValues.index(of: inverse.name) == nil
                                   && side.relationshipState?.unresolvedToMany.index(of: inverse.name) == nil) else { return false }
        }
        try primitiveSetToOne(key, destination)
        return true
    }
}
