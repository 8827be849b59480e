import Foundation
import OrderedCollections

extension ManagedObjectContext {
    /// Saves every change: into the parent context for a child, into the stores for a root
    /// context.
    ///
    /// The changes are validated first; every failure of every object is reported together in
    /// one ``ValidationError``. A save lands whole or not at all: when it fails, the stores are
    /// unchanged and the context keeps its changes.
    ///
    /// Objects changed or deleted elsewhere since this context read them, and objects that would
    /// break a uniqueness constraint, are conflicts: the context's ``mergePolicy`` resolves them
    /// (or fails the save, as the default ``MergePolicy/error`` does), and the save then lands
    /// whole.
    ///
    /// - Throws: ``ValidationError``, ``StoreError/mergeConflict(_:)`` when another save changed
    ///   the same objects since they were read, ``StoreError/constraintConflict(_:)`` when a
    ///   uniqueness constraint would break (both under the error policy), or what a store throws.
    public func save() throws {
        try save(validatingChanges: true)
    }

    /// ``save()``, with the validation of the changes skipped when `validatingChanges` is false:
    /// what a migration uses to write destination objects in batches before their relationships
    /// exist, validating them in a later pass.
    package func save(validatingChanges: Bool) throws {
        checkQueue()
        // The destinations of cascades left to the store are listed before the pending changes
        // are processed, which would make them objects.
        if parent == nil { try resolveStoreCascades(makingObjects: false) }
        storeCascades.isSaving = true
        processPendingChanges()
        storeCascades.isSaving = false
        guard hasChanges else { return }
        // Each pass below visits every saved object, whose memory a large save has long left the
        // cache: the passes that only call methods the base class leaves empty are skipped, and
        // what one pass reads is kept for the next instead of read again.
        post(Self.willSaveNotification, ContextChanges(
            insertedIDs: changeLists.inserted.map(\.objectID), updatedIDs: changeLists.updated.map(\.objectID),
            deletedIDs: changeLists.deleted.map(\.objectID) + storeCascades.unregistered.map(\.objectID)))
        if changeLists.holdsSubclassObjects { callWillSave() }
        // What the save writes is what the hooks left.
        var inserted = changeLists.inserted
        var updated = changeLists.updated
        var deleted = changeLists.deleted
        guard !changeLists.isEmpty else { return }
        if validatingChanges, changeLists.holdsSubclassObjects || changeLists.holdsObjectsWithRules {
            try validateChanges(inserted: inserted, updated: updated, deleted: deleted)
        }
        let callsDidSave = changeLists.holdsSubclassObjects

        // The new committed states of `inserted` and `updated`, in their order; the IDs the
        // inserted objects were registered by before the save (nil: the registry's list of new
        // objects, ``ObjectRegistry/temporaryIDs(of:)``).
        var committed = SavedStates()
        var previousInsertedIDs: [ManagedObjectID]?
        var rounds = 0
        // A conflict costs nothing until it happens: the stores find it with the versions they
        // read anyway, and the context's merge policy resolves it before the save tries again.
        while true {
            // The registry's list of new objects tells their temporary IDs when it lists exactly
            // them (a save's usual case): they are not listed again, and held while the stores write.
            let listed = registry.listsExactly(inserted) ? nil : inserted.map(\.objectID)
            do {
                if let parent {
                    committed = try push(into: parent, inserted: inserted, updated: updated, deleted: deleted)
                } else {
                    committed = try saveToStores(inserted: inserted, previousIDs: listed, updated: updated, deleted: deleted)
                }
                previousInsertedIDs = listed
                break
            } catch StoreError.mergeConflict(let reported) {
                rounds += 1
                let conflicts = describedConflicts(reported)
                guard rounds <= Self.optimisticLockingRounds else { throw StoreError.mergeConflict(conflicts) }
                try mergePolicy.resolve(mergeConflicts: conflicts, constraintConflicts: [], in: self)
                settle(conflicts)
                // The store's cascades are listed again: a destination moved or changed meanwhile.
                try resolveStoreCascades(makingObjects: false)
            } catch StoreError.constraintConflict(let reported) where parent == nil {
                rounds += 1
                let conflicts = describedConflicts(reported)
                // Stores report every conflict of a try; resolving one may still make another
                // (a merged object meeting a third row): as many tries as there are new objects.
                guard rounds <= Self.optimisticLockingRounds + inserted.count else { throw StoreError.constraintConflict(conflicts) }
                try mergePolicy.resolve(mergeConflicts: [], constraintConflicts: conflicts, in: self)
            }
            (inserted, updated, deleted) = (changeLists.inserted, changeLists.updated, changeLists.deleted)
        }

        // The save landed: each saved object, visited once, keeps its new committed state and has
        // no pending change any more; then inserted objects are registered by their saved IDs.
        var updatedIDs: [ManagedObjectID] = []
        updatedIDs.reserveCapacity(updated.count)
        // Moved out of the lists one by one, last first, rather than copied.
        while let snapshot = committed.updated.popLast() {
            let object = updated[committed.updated.count]
            updatedIDs.append(object.objectID)
            object.commitSaved(snapshot)
        }
        updatedIDs.reverse()
        if var states = committed.inserted {
            while let snapshot = states.popLast() { inserted[states.count].commitSaved(snapshot) }
        } else {
            // Sent in parts: each new object's saved state is its current one, made again, one
            // object at a time, as the part it went in was made.
            for object in inserted {
                object.commitSaved(object.currentSnapshot(version: 1, leavingOutHeldToManys: true) ?? object.currentSnapshot(version: 1))
            }
        }
        // The inserted objects carry their saved IDs (those their snapshots were sent with; their
        // own ones when the save went into a parent), read once the snapshots are gone.
        committed = SavedStates()
        let savedInsertedIDs = inserted.map(\.objectID)
        if let previousInsertedIDs {
            registry.rekey(inserted, from: previousInsertedIDs, to: savedInsertedIDs)
        } else {
            registry.rekeyListed(inserted, to: savedInsertedIDs)
        }
        let deletedIDs = deleted.map(\.objectID) + storeCascades.unregistered.map(\.objectID)
        storeCascades.removeAll()
        for object in deleted {
            registry[object.objectID] = nil
            object.detach()
        }
        changeLists.forgetAll()
        pendingChanges = ContextChanges()
        if parent == nil {
            advanceQueryGeneration()
            refaultDerivedObjects(saved: inserted, updated)
        }
        if callsDidSave {
            for list in [inserted, updated, deleted] {
                for object in list { object.didSave() }
            }
        }
        let saved = ContextChanges(insertedIDs: savedInsertedIDs, updatedIDs: updatedIDs, deletedIDs: deletedIDs)
        post(Self.didSaveNotification, saved)
        announceSave(saved)
    }

    /// Calls `willSave()` once on every object the save will write, objects that the hooks
    /// (or the will-save observers) insert, change or delete included; an object a hook took out
    /// of the save (an unsaved insert it deleted) is not called.
    private func callWillSave() {
        var version = changeLists.version
        let first = changeLists.all
        for object in first where object.pendingChange != .none { object.willSave() }
        guard changeLists.version != version else { return }
        // A hook changed the lists: call the objects not called yet, until nothing changes.
        var called = Set(first.map(ObjectIdentifier.init))
        while changeLists.version != version {
            version = changeLists.version
            for object in changeLists.all where called.insert(ObjectIdentifier(object)).inserted { object.willSave() }
        }
    }

    /// Replaces the temporary IDs of `objects` with permanent ones from their stores now,
    /// before they are saved (root contexts only; objects keep their inserted state).
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        // Each object once, however often it is listed.
        let temporary = Array(OrderedSet(objects.filter { $0.objectID.isTemporaryID && $0.managedObjectContext === self }))
        let previousIDs = temporary.map { $0.objectID }
        let permanentIDs = try persistentStoreCoordinator.permanentIDs(inPlaceOf: previousIDs)
        for (object, id) in zip(temporary, permanentIDs) { object.objectID = id }
        registry.rekey(temporary, from: previousIDs, to: permanentIDs)
    }

    private func validateChanges(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) throws {
        var failures: [ValidationFailure] = []
        func collect(_ object: ManagedObject, _ check: () throws -> Void) throws {
            do {
                try check()
            } catch let error as ValidationError {
                failures += error.failures
            } catch let error as ObjectError {
                failures.append(ValidationFailure(objectID: object.objectID, entityName: object.entity.name,
                                                  key: nil, reason: .custom(error.description)))
            }
        }
        for object in inserted { try collect(object) { try object.validateForInsert() } }
        for object in updated { try collect(object) { try object.validateForUpdate() } }
        for object in deleted { try collect(object) { try object.validateForDelete() } }
        if !failures.isEmpty { throw ValidationError(failures: failures) }
    }

    /// Writes the changes through the coordinator; returns the new committed states of
    /// `inserted` (whose IDs are the permanent ones) and of `updated`.
    ///
    /// Inserted objects carry their permanent IDs from here on (their snapshots and their
    /// destinations' read them without a lookup), still registered by their previous IDs
    /// (`previousIDs`, or nil when the registry's list of new objects holds them), which the
    /// caller replaces once the save landed. When the save fails they take their previous IDs
    /// back, and nothing in the context has changed.
    private func saveToStores(
        inserted: [ManagedObject], previousIDs listed: [ManagedObjectID]?, updated: [ManagedObject], deleted: [ManagedObject]
    ) throws -> SavedStates {
        // The temporary IDs are read from the objects (or `listed`) and the permanent ones given
        // back to them: no list of either is made.
        try persistentStoreCoordinator.assignPermanentIDs(count: inserted.count, reading: { listed?[$0] ?? inserted[$0].objectID },
                                                          assigning: { inserted[$0].objectID = $1 })
        do {
            do {
                return try sendToStores(inserted: inserted, updated: updated, deleted: deleted, inParts: true)
            } catch PartedSave.Fallback.wholeSaveNeeded {
                // A new object's to-many must be written from its side: the save goes whole.
                return try sendToStores(inserted: inserted, updated: updated, deleted: deleted, inParts: false)
            }
        } catch {
            let previousIDs = listed ?? registry.temporaryIDs(of: inserted)
            let permanentIDs = inserted.map(\.objectID)
            for (object, id) in zip(inserted, previousIDs) { object.objectID = id }
            guard case StoreError.constraintConflict(let conflicts) = error else { throw error }
            // The save failed, so inserted objects keep their temporary IDs: name them by those.
            let previous = Dictionary(zip(permanentIDs, previousIDs), uniquingKeysWith: { first, _ in first })
            throw StoreError.constraintConflict(conflicts.map { conflict in
                var renamed = conflict
                renamed.objectID = previous[conflict.objectID] ?? conflict.objectID
                renamed.databaseObjectID = conflict.databaseObjectID.map { previous[$0] ?? $0 }
                renamed.conflictingObjectIDs = conflict.conflictingObjectIDs.map { previous[$0] ?? $0 }
                return renamed
            })
        }
    }

    /// The snapshots of a save, once inserted objects carry their permanent IDs, sent through
    /// the coordinator; returns the new committed states of `inserted` (nil when they went in
    /// parts: ``sendInParts(_:to:lastPart:)``) and of `updated`.
    private func sendToStores(
        inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], inParts: Bool
    ) throws -> SavedStates {
        var request = StoreSaveRequest()
        request.transactionInfo = historyTransactionInfo
        request.updated.reserveCapacity(updated.count)
        request.changedProperties.reserveCapacity(updated.count)
        var updatedStates: [ObjectSnapshot] = []
        updatedStates.reserveCapacity(updated.count)
        for object in updated {
            let read = object.committed?.version ?? 1
            let snapshot = object.currentSnapshot(version: read)
            request.changedProperties.append(object.changedStoredProperties(in: snapshot))
            var after = snapshot
            after.version = read &+ 1   // as the store counts: wrapping, since a file may hold Int64.max
            // The saved to-manys the snapshot does not carry stay; with none saved, they are the snapshot's.
            if let saved = object.relationshipState?.savedToMany, !saved.isEmpty {
                after.toMany = saved.merging(snapshot.toMany) { _, new in new }
            }
            request.updated.append(snapshot)
            updatedStates.append(after)
        }
        request.deleted.reserveCapacity(deleted.count + storeCascades.unregistered.count)
        for object in deleted {
            request.deleted.append(.init(objectID: object.objectID, version: object.committed?.version ?? 1))
        }
        request.deleted += storeCascades.unregistered
        if inParts, let store = partedSaveStore(inserted: inserted, updated: updated, deleted: request.deleted) {
            try sendInParts(inserted, to: store, lastPart: request)
            return SavedStates(inserted: nil, updated: updatedStates)
        }
        request.inserted.reserveCapacity(inserted.count)
        for object in inserted { request.inserted.append(object.currentSnapshot(version: 1)) }
        try persistentStoreCoordinator.save(request)
        // The inserted objects' committed states are the snapshots sent: moved out of the request,
        // not copied into another list.
        var committed: [ObjectSnapshot] = []
        swap(&committed, &request.inserted)
        assert(committed.count == inserted.count && updatedStates.count == updated.count)
        return SavedStates(inserted: committed, updated: updatedStates)
    }

    /// Pushes the changes into the parent context; returns the new committed states of
    /// `inserted` and of `updated`.
    private func push(
        into parent: ManagedObjectContext,
        inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]
    ) throws -> SavedStates {
        // Nothing is pushed while the parent changed an object since this context read it.
        let conflicts = try conflictsWithParent(parent, updated: updated, deleted: deleted)
        if !conflicts.isEmpty { throw StoreError.mergeConflict(conflicts) }
        var committed = SavedStates()
        for object in inserted {
            if let target = parent.registry[object.objectID] {
                // A delete this context saved into the parent and has undone since: the parent's
                // object stays, and takes the values below.
                if target.pendingChange == .deleted { parent.undelete(target, as: .updated) }
                continue
            }
            let copy = persistentStoreCoordinator.objectClass(forEntity: object.entity.name)
                .init(entity: object.entity, objectID: object.objectID)
            copy.managedObjectContext = parent
            copy.isFault = false
            if copy.objectID.isTemporaryID {
                parent.track(inserted: copy)
            } else {
                // A saved object deleted and brought back (an undone delete): it keeps its ID.
                parent.registry[copy.objectID] = copy
                parent.changeLists.set(.inserted, of: copy)
                parent.pendingChanges.insertedIDs.insert(copy.objectID)
            }
        }
        /// Hands `object`'s current state to its parent's object; returns that state.
        func pushValues(of object: ManagedObject) throws -> ObjectSnapshot {
            let target = try parent.existingObject(with: object.objectID)
            let snapshot = object.currentSnapshot(version: object.committed?.version ?? 0)
            try target.apply(snapshot, transientFrom: object)
            parent.markUpdated(target)
            return snapshot
        }
        var insertedStates: [ObjectSnapshot] = []
        for object in inserted { insertedStates.append(try pushValues(of: object)) }
        committed.inserted = insertedStates
        for object in updated { committed.updated.append(try pushValues(of: object)) }
        for object in deleted {
            let target = try parent.object(with: object.objectID)
            if target.pendingChange == .inserted {
                parent.changeLists.set(.none, of: target)
                parent.registry[target.objectID] = nil
                target.detach()
            } else if target.pendingChange != .deleted {
                parent.changeLists.set(.deleted, of: target)
                parent.pendingChanges.deletedIDs.insert(target.objectID)
            }
        }
        return committed
    }
}

extension ManagedObject {
    /// Takes `snapshot`, the state a save just wrote, as the object's saved state, and leaves
    /// it with no pending change. The saved to-ones are the object's destinations, as the
    /// snapshot was made from them; the saved values are its current ones when the snapshot
    /// holds the very storage of them (no transient values left out), kept once rather than
    /// written down apart.
    func commitSaved(_ snapshot: consuming ObjectSnapshot) {
        let attributesAreCurrent = snapshot.attributes.sharesStorage(with: attributeValues)
        commit(snapshot, attributesAreCurrent: attributesAreCurrent)
        pendingChange = .none
    }

    /// Takes over the values of a snapshot (and the transient values of `source`) without
    /// touching inverses: the snapshot already holds both sides of every changed relationship.
    func apply(_ snapshot: ObjectSnapshot, transientFrom source: ManagedObject) throws {
        guard let context = managedObjectContext else { throw ObjectError.objectDeleted(objectID) }
        try fulfillFault()
        keepCommittedAttributes()
        attributeValues = snapshot.attributes.laidOut(as: entity.attributeLayout)
        for attribute in entity.attributes where attribute.isTransient {
            attributeValues[attribute.name] = source.attributeValues[attribute.name]
        }
        keepCommittedToOnes()
        toOneValues = try Self.toOneDestinations(of: snapshot.toOne, in: context)
        for (key, ids) in snapshot.toMany {
            try loadToMany(key)
            toManyValues[key] = try .init(ids.map { try context.object(with: $0) })
        }
    }
}
