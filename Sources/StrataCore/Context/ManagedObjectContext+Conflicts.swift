import OrderedCollections

extension ManagedObjectContext {
    /// How many times a save resolves optimistic-locking conflicts and tries again before it
    /// gives up with the last ones (each try meets only saves that landed since the one before).
    static let optimisticLockingRounds = 8

    /// The objects of a child's save that its parent changed or deleted since the child read
    /// them, found before anything is pushed: the parent's current state of each changed object
    /// (which pushing loads anyway) compared with the child's last read state, property by
    /// property. A deleted object is compared only when the parent holds it loaded.
    func conflictsWithParent(_ parent: ManagedObjectContext, updated: [ManagedObject], deleted: [ManagedObject]) throws -> [MergeConflict] {
        var conflicts: [MergeConflict] = []
        func check(_ object: ManagedObject, isDelete: Bool) throws {
            guard let read = object.committedSnapshot else { return }
            let target: ManagedObject
            if isDelete {
                guard let registered = parent.registry[object.objectID], !registered.isFault else { return }
                target = registered
            } else {
                do {
                    target = try parent.existingObject(with: object.objectID)
                } catch ObjectError.objectNotFound {
                    conflicts.append(MergeConflict(objectID: object.objectID, oldVersion: read.version, newVersion: 0, objectSnapshot: read))
                    return
                }
            }
            if target.pendingChange == .deleted {
                if !isDelete {
                    conflicts.append(MergeConflict(objectID: object.objectID, oldVersion: read.version, newVersion: 0, objectSnapshot: read))
                }
                return
            }
            // An object the parent inserted and has not saved counts as version 1.
            let now = target.currentSnapshot(version: target.committed?.version ?? 1)
            guard Self.storedStateDiffers(read, now, of: object.entity) else { return }
            conflicts.append(MergeConflict(objectID: object.objectID, oldVersion: read.version, newVersion: now.version,
                                           objectSnapshot: read, cachedSnapshot: now))
        }
        for object in updated { try check(object, isDelete: false) }
        for object in deleted { try check(object, isDelete: true) }
        return conflicts
    }

    /// Whether two states of an object differ in a stored attribute or to-one.
    static func storedStateDiffers(_ first: ObjectSnapshot, _ second: ObjectSnapshot, of entity: EntityDescription) -> Bool {
        changedKeys(from: first, to: second, of: entity, toManys: false).isEmpty == false
    }

    /// The stored properties whose values differ between two states of an object: attributes
    /// and to-ones, and with `toManys` the to-manys both states know.
    static func changedKeys(from before: ObjectSnapshot, to after: ObjectSnapshot, of entity: EntityDescription, toManys: Bool) -> Set<String> {
        var keys = Set<String>()
        for attribute in entity.attributes where !attribute.isTransient && before.attributes[attribute.name] != after.attributes[attribute.name] {
            keys.insert(attribute.name)
        }
        for relationship in entity.relationships where !relationship.isTransient {
            let name = relationship.name
            if !relationship.isToMany {
                if before.toOne[name] != after.toOne[name] { keys.insert(name) }
            } else if toManys, let old = before.toMany[name], let new = after.toMany[name] {
                if relationship.isOrdered ? old != new : Set(old) != Set(new) { keys.insert(name) }
            }
        }
        return keys
    }

    /// Fills in what only the context knows of conflicts a store reported: each object's state
    /// as this context read it and, where the coordinator did not know a newer one, the
    /// coordinator's state (the one the context read).
    func describedConflicts(_ conflicts: [MergeConflict]) -> [MergeConflict] {
        conflicts.map { reported in
            var conflict = reported
            if conflict.objectSnapshot == nil { conflict.objectSnapshot = registry[conflict.objectID]?.committedSnapshot }
            if conflict.cachedSnapshot == nil { conflict.cachedSnapshot = conflict.objectSnapshot }
            return conflict
        }
    }

    /// Resolves optimistic-locking conflicts property by property, as the built-in policy
    /// `type` does (``MergePolicy/resolve(optimisticLockingConflicts:in:)``).
    func resolveByProperty(_ conflicts: [MergeConflict], as type: MergePolicyType) throws {
        for conflict in conflicts {
            guard let object = registry[conflict.objectID], !object.isInvalidated,
                  object.pendingChange == .updated || object.pendingChange == .deleted else { continue }
            guard let current = conflict.currentSnapshot else {
                forget(object)
                continue
            }
            if object.pendingChange == .deleted {
                if type == .rollback {
                    changeLists.set(.none, of: object)
                    pendingChanges.deletedIDs.remove(object.objectID)
                    object.turnIntoFault()
                    try object.load(current, in: self)
                } else {
                    object.rebase(onto: current)
                }
                continue
            }
            try object.fulfillFault()
            let read = object.committedSnapshot ?? ObjectSnapshot(objectID: object.objectID, version: conflict.oldVersion)
            let mine = Set(object.changedValues().keys)
            let theirs = Self.changedKeys(from: read, to: current, of: object.entity, toManys: true)
            let kept: Set<String> = switch type {
            case .mergeByPropertyObjectTrump: mine
            case .mergeByPropertyStoreTrump: mine.subtracting(theirs)
            case .overwrite: mine.union(theirs)
            case .rollback, .error: []
            }
            // Set through the object, so that inverses follow.
            for key in mine.union(theirs).subtracting(kept).sorted() {
                try object.setValue(try value(of: key, in: current, for: object), forKey: key)
            }
            object.rebase(onto: current)
            if type == .rollback {
                changeLists.set(.none, of: object)
                pendingChanges.updatedIDs.remove(object.objectID)
            }
        }
    }

    /// Saves each conflicting object a policy left with changes on top of the state it
    /// conflicted with; forgets those deleted meanwhile.
    func settle(_ conflicts: [MergeConflict]) {
        for conflict in conflicts {
            guard let object = registry[conflict.objectID], !object.isInvalidated,
                  object.pendingChange == .updated || object.pendingChange == .deleted else { continue }
            if let current = conflict.currentSnapshot {
                object.rebase(onto: current)
            } else {
                forget(object)
            }
        }
    }

    /// Drops an object deleted elsewhere, with its unsaved changes.
    private func forget(_ object: ManagedObject) {
        changeLists.set(.none, of: object)
        pendingChanges.updatedIDs.remove(object.objectID)
        pendingChanges.deletedIDs.remove(object.objectID)
        registry[object.objectID] = nil
        object.detach()
    }

    /// The value of `key` in `snapshot`, a state of `object`, as `setValue(_:forKey:)` takes it.
    func value(of key: String, in snapshot: ObjectSnapshot, for object: ManagedObject) throws -> Any? {
        switch try object.propertyDescription(forKey: key) {
        case .attribute(let attribute):
            return try snapshot.attributes[key].map { try $0.swiftValue(for: attribute, entity: object.entity.name) }
        case .relationship(let relationship):
            guard relationship.isToMany else { return try snapshot.toOne[key].map { try self.object(with: $0) } }
            let ids = try snapshot.toMany[key] ?? relatedObjectIDs(of: object, relationship: key)
            let objects = try ids.map { try self.object(with: $0) }
            return relationship.isOrdered ? objects as Any : Set(objects) as Any
        case .fetchedProperty:
            return nil
        }
    }
}

extension ManagedObject {
    /// Takes `snapshot` as the object's last saved state, keeping its current values: what
    /// differs from the snapshot becomes the object's unsaved change.
    func rebase(onto snapshot: ObjectSnapshot) {
        let layout = entity.attributeLayout
        let attributes = snapshot.attributes.isLaidOut(as: layout) ? snapshot.attributes : snapshot.attributes.laidOut(as: layout)
        committed = CommittedState(version: snapshot.version, savedAttributes: attributes)
        committedToOneIsCurrent = false
        let state = relationships()
        state.savedToOne = snapshot.toOne
        state.savedToMany = snapshot.toMany
    }
}
