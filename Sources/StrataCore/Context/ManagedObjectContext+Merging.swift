import Foundation

extension ManagedObjectContext {
    // MARK: Settings

    /// How old, in seconds, a row the coordinator cached may be for a fault of this context to
    /// fire from it; an older row is read from the store again (Core Data's `stalenessInterval`).
    ///
    /// Negative (the default) takes cached rows of any age; 0 reads every fault from the store.
    /// It applies to faults only: loaded objects keep their values, and fetches read the store
    /// anyway. A child context fills its faults from its parent, so it has no use for it.
    public var stalenessInterval: TimeInterval {
        get { merging.stalenessInterval }
        set { merging.stalenessInterval = newValue }
    }

    /// What a fault whose row is gone does when it fires (Core Data's
    /// `shouldDeleteInaccessibleFaults`): with `true` (the default, as in Core Data), it becomes
    /// a deleted object (``ManagedObject/isDeleted``) whose attributes read nil and whose
    /// relationships are empty, and nothing is recorded as a change; with `false`, reading it
    /// throws ``ObjectError/objectNotFound(_:)``.
    ///
    /// ``existingObject(with:)`` throws for a missing row either way.
    public var shouldDeleteInaccessibleFaults: Bool {
        get { merging.deletesInaccessibleFaults }
        set { merging.deletesInaccessibleFaults = newValue }
    }

    // MARK: Merging saves

    /// Merges the changes of a ``didSaveNotification`` posted by another context (Core Data's
    /// method of the same name). See ``mergeChanges(fromContextDidSave:)-(ContextChanges)``.
    ///
    /// ```swift
    /// let note = … // a didSaveNotification of another context, whose changes crossed as IDs
    /// try viewContext.mergeChanges(fromContextDidSave: note)
    /// ```
    ///
    /// - Throws: ``ObjectError/missingContextChanges(notification:)`` for a notification that
    ///   carries no ``ContextChanges``.
    public func mergeChanges(fromContextDidSave notification: Notification) throws {
        guard let changes = notification.contextChanges else {
            throw ObjectError.missingContextChanges(notification: notification.name.rawValue)
        }
        mergeChanges(fromContextDidSave: changes)
    }

    /// Merges the changes another context saved, as its ``didSaveNotification`` carries them.
    ///
    /// Core Data's semantics, object by object, looking up only the IDs of the save (the cost
    /// grows with the save, not with the objects this context holds):
    ///
    /// - an **inserted** object is registered here as a fault (held until the next merge, so that
    ///   observers of the merge find it registered);
    /// - an **updated** object that is registered is refreshed: it reads its saved values on
    ///   next use, and this context's own unsaved changes stay on top, property by property;
    /// - a **deleted** object that is registered stays registered with its last values readable,
    ///   reports ``ManagedObject/isDeleted``, leaves the context's unsaved changes, and no longer
    ///   comes back from fetches (nor from ``existingObject(with:)``); registered objects whose
    ///   loaded relationships hold it are refreshed (unsaved inserts just let go of it).
    ///
    /// The context then posts ``objectsDidChangeNotification`` with the objects the merge touched
    /// here (inserted, refreshed, deleted) and ``didMergeChangesNotification`` with every ID
    /// merged; child contexts that merge automatically follow.
    public func mergeChanges(fromContextDidSave changes: ContextChanges) {
        var merged = Set<ObjectIdentifier>()
        merge(MergedChanges(changes), readingStoreAgain: true, visited: &merged)
    }

    /// Brings contexts up to date with changes made behind their backs: by a batch request, by
    /// another coordinator or by another process (Core Data's class method of the same name).
    ///
    /// `changes` holds object IDs under ``insertedObjectsKey``, ``updatedObjectsKey`` and
    /// ``deletedObjectsKey``, as ``BatchResult/changes`` gives them. Each context (parents before
    /// their children, each once) merges them as
    /// ``mergeChanges(fromContextDidSave:)-(ContextChanges)`` does, after dropping the rows of
    /// the updated and deleted objects from its coordinator's cache, so that they are read from
    /// the store again.
    ///
    /// ```swift
    /// let result = try await container.newBackgroundContext().perform { context in
    ///     var request = BatchUpdateRequest(entityName: "Mood", propertiesToUpdate: ["rating": 3])
    ///     request.resultType = .objectIDs
    ///     return try context.execute(request)
    /// }
    /// try ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [container.viewContext])
    /// ```
    ///
    /// - Throws: nothing today; kept throwing for merges that may fail in the future.
    public static func mergeChanges(fromRemoteContextSave changes: [String: [ManagedObjectID]],
                                    into contexts: [ManagedObjectContext]) throws {
        let merging = MergedChanges(inserted: changes[insertedObjectsKey] ?? [], updated: changes[updatedObjectsKey] ?? [],
                                    deleted: Set(changes[deletedObjectsKey] ?? []))
        func depth(_ context: ManagedObjectContext) -> Int {
            var depth = 0
            var parent = context.parent
            while let next = parent { depth += 1; parent = next.parent }
            return depth
        }
        let ordered = contexts.enumerated().sorted { (depth($0.element), $0.offset) < (depth($1.element), $1.offset) }
        var merged = Set<ObjectIdentifier>()
        for (_, context) in ordered where !merged.contains(ObjectIdentifier(context)) {
            context.merge(merging, readingStoreAgain: true, visited: &merged)
        }
    }

    // MARK: The merge

    /// Merges `changes` into this context, then into its following children; contexts in
    /// `visited` are skipped, and each merged one is added. With `readingStoreAgain` a root
    /// context drops the rows of updated and deleted objects from the coordinator's cache (the
    /// changes came from elsewhere, not through this coordinator's save, which drops them itself).
    ///
    /// Every step looks up the IDs of the change in the registry: none walks the registered
    /// objects.
    func merge(_ changes: MergedChanges, readingStoreAgain: Bool, visited: inout Set<ObjectIdentifier>) {
        guard visited.insert(ObjectIdentifier(self)).inserted else { return }
        checkQueue()
        // A merge is not the app's change: the undo manager records none of it.
        withoutUndoRegistration { mergeUnrecorded(changes, readingStoreAgain: readingStoreAgain, visited: &visited) }
    }

    /// ``merge(_:readingStoreAgain:visited:)`` with undo registration off.
    private func mergeUnrecorded(_ changes: MergedChanges, readingStoreAgain: Bool, visited: inout Set<ObjectIdentifier>) {
        postPendingChanges()
        let deleted = changes.deleted
        if readingStoreAgain, parent == nil {
            persistentStoreCoordinator.rowCache.remove(changes.updated)
            persistentStoreCoordinator.rowCache.remove(deleted)
        }

        // The registered objects to refresh, each once, in the order met.
        var refreshing: [ManagedObject] = []
        var listed = Set<ObjectIdentifier>()
        func refresh(_ object: ManagedObject) {
            if listed.insert(ObjectIdentifier(object)).inserted { refreshing.append(object) }
        }
        for id in changes.updated where !deleted.contains(id) {
            if let object = registry[id] { refresh(object) }
        }
        var insertedFaults: [ManagedObject] = []
        for id in changes.inserted where !deleted.contains(id) {
            if let object = registry[id] {
                refresh(object)
            } else if let fault = try? object(with: id) {
                // Only an ID of an entity the model lacks fails here: nothing to register then.
                insertedFaults.append(fault)
            }
        }

        // Deleted objects registered here, and what their loaded relationships lead to.
        var gone: [ManagedObject] = []
        for id in deleted {
            guard let object = registry[id], !object.isInvalidated else { continue }
            gone.append(object)
            guard !object.isFault else { continue }
            for (neighbour, inverse) in registeredNeighbours(of: object) where !deleted.contains(neighbour.objectID) {
                if neighbour.pendingChange == .inserted {
                    neighbour.letGo(of: object, from: inverse)
                } else {
                    refresh(neighbour)
                }
            }
        }

        // Refreshed: loaded objects become faults, their unsaved changes noted to go back on top.
        var refreshedIDs: [ManagedObjectID] = []
        var reapplying: [(ManagedObject, [String: Any?])] = []
        for object in refreshing where object.pendingChange != .inserted && object.pendingChange != .deleted
            && !object.isInvalidated && !object.isDeletedInStore {
            refreshedIDs.append(object.objectID)
            guard !object.isFault else { continue }
            var local: [String: Any?] = [:]
            if object.pendingChange == .updated {
                local = object.changedValues().mapValues { $0.flatMap { Self.dropping(deleted, from: $0) } }
                changeLists.set(.none, of: object)
            }
            object.turnIntoFault()
            if !local.isEmpty { reapplying.append((object, local)) }
        }

        // Deleted: out of the unsaved changes, values kept, reading as deleted.
        var goneIDs: [ManagedObjectID] = []
        for object in gone {
            goneIDs.append(object.objectID)
            forgetPendingChange(of: object)
            object.isDeletedInStore = true
        }

        // The unsaved changes go back on top of the saved values, property by property.
        for (object, local) in reapplying {
            do {
                try object.fulfillFault()
            } catch {
                // The row went meanwhile (a later change than this one): the object is deleted.
                object.isDeletedInStore = true
                goneIDs.append(object.objectID)
                continue
            }
            for key in local.keys.sorted() {
                // The keys are the entity's and the values the object's own; only a destination
                // cut loose since (a reset child's, say) is refused, and that link could not be
                // saved either.
                try? object.setValue(local[key] ?? nil, forKey: key)
            }
        }

        merging.lastMergedInserts = insertedFaults
        let touched = ContextChanges(insertedIDs: insertedFaults.map(\.objectID), updatedIDs: refreshedIDs, deletedIDs: goneIDs)
        if !touched.isEmpty { post(Self.objectsDidChangeNotification, touched) }
        if !changes.isEmpty {
            post(Self.didMergeChangesNotification, ContextChanges(
                insertedIDs: changes.inserted, updatedIDs: changes.updated, deletedIDs: Array(deleted)))
        }
        mergeIntoFollowers(changes, visited: &visited)
    }

    /// Takes `object` out of the unsaved changes (and of the IDs not yet announced).
    private func forgetPendingChange(of object: ManagedObject) {
        switch object.pendingChange {
        case .none: return
        case .inserted: pendingChanges.insertedIDs.remove(object.objectID)
        case .updated: pendingChanges.updatedIDs.remove(object.objectID)
        case .deleted: pendingChanges.deletedIDs.remove(object.objectID)
        }
        changeLists.set(.none, of: object)
    }

    /// The loaded, registered objects that `object`'s loaded relationships lead to and whose
    /// inverse may hold it, each with the name of that inverse: found from the object's own
    /// values, in time proportional to its relationships' sizes.
    private func registeredNeighbours(of object: ManagedObject) -> [(ManagedObject, String)] {
        var neighbours: [(ManagedObject, String)] = []
        for relationship in object.entity.relationships {
            guard let inverse = relationship.inverseName else { continue }
            func add(_ neighbour: ManagedObject) {
                if !neighbour.isFault, !neighbour.isInvalidated { neighbours.append((neighbour, inverse)) }
            }
            if !relationship.isToMany {
                if let destination = object.toOne(named: relationship.name) { add(destination) }
            } else if let destinations = object.toManyValues[relationship.name] {
                for destination in destinations { add(destination) }
            } else if let ids = object.unresolvedToMany[relationship.name] {
                for id in ids { if let destination = registry[id] { add(destination) } }
            }
        }
        return neighbours
    }

    /// A relationship value without the objects of `deleted` (other values as they are).
    private static func dropping(_ deleted: Set<ManagedObjectID>, from value: Any) -> Any? {
        guard !deleted.isEmpty else { return value }
        switch value {
        case let object as ManagedObject: return deleted.contains(object.objectID) ? nil : object
        case let objects as Set<ManagedObject>: return objects.filter { !deleted.contains($0.objectID) }
        case let objects as [ManagedObject]: return objects.filter { !deleted.contains($0.objectID) }
        default: return value
        }
    }
}

/// The IDs of one merge: inserted and updated in a list, deleted as a set (looked up for each
/// of the others).
struct MergedChanges {
    var inserted: [ManagedObjectID]
    var updated: [ManagedObjectID]
    var deleted: Set<ManagedObjectID>

    init(inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: Set<ManagedObjectID>) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    init(_ changes: ContextChanges) {
        self.init(inserted: Array(changes.inserted), updated: Array(changes.updated), deleted: changes.deleted)
    }

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

extension ManagedObject {
    /// Removes `object` from the relationship `key` of this unsaved insert, without touching
    /// `object`'s side (its row is gone) nor any saved state (an insert has none).
    fileprivate func letGo(of object: ManagedObject, from key: String) {
        if toOne(named: key) === object { setToOne(nil, named: key) }
        if toManyValues[key]?.contains(object) == true { toManyValues[key]?.remove(object) }
        if let ids = unresolvedToMany[key], ids.contains(object.objectID) {
            unresolvedToMany[key] = ids.filter { $0 != object.objectID }
        }
    }

    /// Fills this fault, whose row is gone, as a deleted object: every attribute nil, every
    /// relationship empty (``ManagedObjectContext/shouldDeleteInaccessibleFaults``).
    func loadAsDeletedInStore(in context: ManagedObjectContext) throws {
        var toMany: [String: [ManagedObjectID]] = [:]
        for name in entity.storedToManyNames { toMany[name] = [] }
        try loadValues(ObjectSnapshot(objectID: objectID, version: 0, toMany: toMany), in: context)
        isDeletedInStore = true
    }
}
