import OrderedCollections

extension ManagedObjectContext {
    /// Fills in what only the context knows of constraint conflicts a store reported: a conflict
    /// between two objects of the save becomes one within the save (reported once, however many
    /// of its objects the store named), and a conflict with a stored row carries the row.
    func describedConflicts(_ conflicts: [ConstraintConflict]) -> [ConstraintConflict] {
        var seen = Set<Set<ManagedObjectID>>()
        var described: [ConstraintConflict] = []
        // The objects' places in the save, made on the first conflict within it.
        var places: [ObjectIdentifier: Int]?
        func place(of id: ManagedObjectID) -> Int {
            if places == nil {
                places = Dictionary(changeLists.all.enumerated().map { (ObjectIdentifier($1), $0) }, uniquingKeysWith: { first, _ in first })
            }
            return registry[id].flatMap { places?[ObjectIdentifier($0)] } ?? .max
        }
        for reported in conflicts {
            var conflict = reported
            if let holderID = conflict.databaseObjectID, let holder = registry[holderID],
               holder.pendingChange == .inserted || holder.pendingChange == .updated {
                conflict.conflictingObjectIDs = [holderID, conflict.objectID].sorted { place(of: $0) < place(of: $1) }
                conflict.databaseObjectID = nil
                guard seen.insert(Set(conflict.conflictingObjectIDs)).inserted else { continue }
            } else if let rowID = conflict.databaseObjectID {
                // The row as stored now, not as the coordinator may have cached it.
                persistentStoreCoordinator.rowCache.remove(CollectionOfOne(rowID))
                conflict.databaseSnapshot = try? persistentStoreCoordinator.snapshot(for: rowID)
            }
            conflict.conflictingSnapshots = conflict.conflictingObjectIDs.map { registry[$0]?.committedSnapshot }
            if let object = registry[conflict.objectID] {
                for property in conflict.properties {
                    if let value = object.attributeValues[property] {
                        conflict.constraintValues[property] = value
                    } else if let destination = object.toOne(named: property) {
                        conflict.constraintValues[property] = .objectID(destination.objectID)
                    }
                }
            }
            described.append(conflict)
        }
        return described
    }

    /// Merges the objects of each constraint conflict into one, as the built-in policy `type`
    /// does (``MergePolicy/resolve(constraintConflicts:in:)``).
    ///
    /// A changed (not new) object is merged like a new one: into the stored row it meets (which
    /// keeps its ID, the changed object's row being deleted), or into the first saved object of
    /// a conflict within the save. Under ``MergePolicyType/rollback`` its changes are discarded
    /// instead, which takes it out of the conflict.
    ///
    /// - Throws: ``StoreError/constraintConflict(_:)`` for a conflict between objects of
    ///   different entities.
    func mergeObjects(of conflicts: [ConstraintConflict], as type: MergePolicyType) throws {
        for conflict in conflicts {
            let objects = conflict.conflictingObjectIDs.compactMap { registry[$0] }
                .filter { !$0.isInvalidated && $0.pendingChange != .deleted }
            if let rowID = conflict.databaseObjectID {
                guard let mine = objects.first else { continue }
                guard mine.entity.name == rowID.entityName else { throw StoreError.constraintConflict([conflict]) }
                if mine.pendingChange == .inserted {
                    if let held = registry[rowID], !held.isInvalidated {
                        try fold(mine, into: held, as: type)
                    } else {
                        try turn(mine, into: rowID, stored: conflict.databaseSnapshot, as: type)
                    }
                } else if type == .rollback {
                    try refresh(mine, mergeChanges: false)
                } else {
                    try fold(mine, into: try object(with: rowID), as: type)
                }
            } else {
                guard objects.count > 1 else { continue }
                let survivor = objects.first { $0.pendingChange != .inserted } ?? objects[0]
                for other in objects where other !== survivor {
                    guard other.entity.name == survivor.entity.name else { throw StoreError.constraintConflict([conflict]) }
                    if other.pendingChange != .inserted, type == .rollback {
                        try refresh(other, mergeChanges: false)
                    } else {
                        try fold(other, into: survivor, as: type)
                    }
                }
            }
        }
    }

    /// Which of two values the merged object keeps under `type`: the incoming object's, or the
    /// one already held (the stored row's, or the first new object's).
    private static func keepsIncoming(_ incoming: Any?, over held: Any?, as type: MergePolicyType) -> Bool {
        switch type {
        case .mergeByPropertyObjectTrump: incoming != nil
        case .overwrite: true
        case .mergeByPropertyStoreTrump: held == nil && incoming != nil
        case .rollback, .error: false
        }
    }

    /// Merges `incoming` into `survivor`, an object of this context, then forgets it (a new
    /// object) or deletes it (a saved one): values by `type`, to-manys joined (their destinations
    /// follow through the inverses).
    private func fold(_ incoming: ManagedObject, into survivor: ManagedObject, as type: MergePolicyType) throws {
        try survivor.fulfillFault()
        for attribute in incoming.entity.attributes where !attribute.isTransient {
            let value = try incoming.value(forKey: attribute.name)
            if Self.keepsIncoming(value, over: try survivor.value(forKey: attribute.name), as: type) {
                try survivor.setValue(value, forKey: attribute.name)
            }
        }
        for relationship in incoming.entity.relationships where !relationship.isTransient {
            let name = relationship.name
            if relationship.isToMany {
                let joined = try survivor.loadedToMany(name).union(try incoming.loadedToMany(name))
                try incoming.setValue([ManagedObject](), forKey: name)
                try survivor.setValue(Array(joined), forKey: name)
            } else {
                let destination = try incoming.value(forKey: name) as? ManagedObject
                try incoming.setValue(nil, forKey: name)
                if Self.keepsIncoming(destination, over: try survivor.value(forKey: name), as: type) {
                    try survivor.setValue(destination, forKey: name)
                }
            }
        }
        // Emptied of its relationships, it has no delete rule left to apply: it is only forgotten.
        try delete(incoming)
    }

    /// Makes the new object `object` the stored row `rowID`: it takes the row's ID and stored
    /// state as its last saved state, and keeps as its changes the values `type` picks; its
    /// to-manys hold the row's destinations and its own.
    private func turn(_ object: ManagedObject, into rowID: ManagedObjectID, stored: ObjectSnapshot?, as type: MergePolicyType) throws {
        guard let stored = try stored ?? persistentStoreCoordinator.snapshot(for: rowID) else {
            throw ObjectError.objectNotFound(rowID)
        }
        var attributes: [(String, Any?)] = []
        for attribute in object.entity.attributes where !attribute.isTransient {
            let incoming = try object.value(forKey: attribute.name)
            let held = try stored.attributes[attribute.name].map { try $0.swiftValue(for: attribute, entity: object.entity.name) }
            attributes.append((attribute.name, Self.keepsIncoming(incoming, over: held, as: type) ? incoming : held))
        }
        var toOnes: [(String, ManagedObject?)] = []
        var toManys: [(String, OrderedSet<ManagedObject>)] = []
        for relationship in object.entity.relationships where !relationship.isTransient {
            let name = relationship.name
            if relationship.isToMany {
                let storedIDs = try stored.toMany[name] ?? persistentStoreCoordinator.relatedObjectIDs(of: rowID, relationship: name)
                var joined = OrderedSet(try storedIDs.map { try self.object(with: $0) })
                joined.append(contentsOf: try object.loadedToMany(name))
                toManys.append((name, joined))
            } else {
                let incoming = try object.value(forKey: name) as? ManagedObject
                let held = try stored.toOne[name].map { try self.object(with: $0) }
                toOnes.append((name, Self.keepsIncoming(incoming, over: held, as: type) ? incoming : held))
            }
        }

        let temporaryID = object.objectID
        object.objectID = rowID
        registry.rekey([object], from: [temporaryID], to: [rowID])
        changeLists.set(.updated, of: object)
        pendingChanges.insertedIDs.remove(temporaryID)
        pendingChanges.updatedIDs.insert(rowID)
        object.rebase(onto: stored)

        for (name, value) in attributes { try object.setValue(value, forKey: name) }
        for (name, destination) in toOnes { try object.setValue(destination, forKey: name) }
        // The row's destinations already point at it and the object's own at the object: no
        // inverse changes.
        for (name, destinations) in toManys {
            object.unresolvedToMany.removeValue(forKey: name)
            object.relationships().toManyValues[name] = destinations
        }
    }
}
