import OrderedCollections

extension ManagedObjectContext {
    /// The key of inserted object IDs in a change dictionary (Core Data's `NSInsertedObjectsKey`).
    public static let insertedObjectsKey = "inserted"
    /// The key of updated object IDs in a change dictionary (Core Data's `NSUpdatedObjectsKey`).
    public static let updatedObjectsKey = "updated"
    /// The key of deleted object IDs in a change dictionary (Core Data's `NSDeletedObjectsKey`).
    public static let deletedObjectsKey = "deleted"

    /// Runs a batch insert through the coordinator, straight into the store.
    ///
    /// As in Core Data, the context's registered objects and unsaved changes are not touched:
    /// fetches find the new objects, and ``mergeChanges(fromRemoteContextSave:into:)`` tells
    /// contexts about them. See `PersistentStoreCoordinator.execute(_:)`.
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        checkQueue()
        return try persistentStoreCoordinator.execute(request)
    }

    /// Runs a batch update through the coordinator, straight in the stores.
    ///
    /// Registered objects keep the values they had until they are refreshed; pass the result's
    /// ``BatchResult/changes`` to ``mergeChanges(fromRemoteContextSave:into:)`` to bring them up
    /// to date. See `PersistentStoreCoordinator.execute(_:)`.
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        checkQueue()
        return try persistentStoreCoordinator.execute(request)
    }

    /// Runs a batch delete through the coordinator, straight in the stores.
    ///
    /// Registered objects that were deleted stay registered until the deletion is merged with
    /// ``mergeChanges(fromRemoteContextSave:into:)``. See
    /// `PersistentStoreCoordinator.execute(_:)`.
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        checkQueue()
        return try persistentStoreCoordinator.execute(request)
    }

    /// Brings contexts up to date with changes made behind their backs: by a batch request, by
    /// another coordinator or by another process (Core Data's class method of the same name).
    ///
    /// `changes` holds object IDs under ``insertedObjectsKey``, ``updatedObjectsKey`` and
    /// ``deletedObjectsKey``, as ``BatchResult/changes`` gives them. In each context (parents
    /// before their children):
    ///
    /// - an **updated** object that is registered and loaded is refreshed: it reloads its stored
    ///   values (and version) on next use, its unsaved changes kept on top;
    /// - a **deleted** object that is registered is forgotten: it leaves the context's registered,
    ///   inserted, updated and deleted objects and can no longer be used
    ///   (``ObjectError/objectDeleted(_:)``); registered objects that pointed at it are refreshed
    ///   as above, so their relationships no longer hold it;
    /// - **inserted** objects need nothing: fetches and faults find them in the store.
    ///
    /// Each context then posts ``objectsDidChangeNotification`` with the IDs it merged.
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
    /// - Throws: what reapplying an object's unsaved changes after its reload throws.
    public static func mergeChanges(fromRemoteContextSave changes: [String: [ManagedObjectID]],
                                    into contexts: [ManagedObjectContext]) throws {
        let inserted = Set(changes[insertedObjectsKey] ?? [])
        let updated = Set(changes[updatedObjectsKey] ?? [])
        let deleted = Set(changes[deletedObjectsKey] ?? [])
        func depth(_ context: ManagedObjectContext) -> Int {
            var depth = 0
            var parent = context.parent
            while let next = parent { depth += 1; parent = next.parent }
            return depth
        }
        let ordered = contexts.enumerated().sorted { (depth($0.element), $0.offset) < (depth($1.element), $1.offset) }
        var merged = Set<ObjectIdentifier>()
        for (_, context) in ordered where merged.insert(ObjectIdentifier(context)).inserted {
            try context.withoutUndoRegistration { try context.mergeRemoteChanges(inserted: inserted, updated: updated, deleted: deleted) }
        }
    }

    private func mergeRemoteChanges(inserted: Set<ManagedObjectID>, updated: Set<ManagedObjectID>,
                                    deleted: Set<ManagedObjectID>) throws {
        checkQueue()
        var refreshing: OrderedSet<ManagedObject> = []
        for id in updated where !deleted.contains(id) {
            if let object = registry[id] { refreshing.append(object) }
        }
        var unlinking: [ManagedObject] = []
        if !deleted.isEmpty {
            for object in registry.objects where !deleted.contains(object.objectID) && !object.isFault && object.references(deleted) {
                if object.pendingChange == .inserted { unlinking.append(object) } else { refreshing.append(object) }
            }
        }
        // New objects keep their values: only the links to deleted objects go.
        for object in unlinking { try object.unlinkAll(deleted) }
        var refreshed: Set<ManagedObjectID> = []
        var reapply: [(ManagedObject, [String: Any?])] = []
        for object in refreshing where object.pendingChange != .inserted && object.pendingChange != .deleted && !object.isInvalidated {
            refreshed.insert(object.objectID)
            guard !object.isFault else { continue }
            let changes = object.changedValues().mapValues { $0.flatMap { Self.dropping(deleted, from: $0) } }
            if object.pendingChange == .updated { changeLists.set(.none, of: object) }
            object.turnIntoFault()
            if !changes.isEmpty { reapply.append((object, changes)) }
        }
        var invalidated: Set<ManagedObjectID> = []
        for id in deleted {
            guard let object = registry[id] else { continue }
            registry[id] = nil
            changeLists.set(.none, of: object)
            pendingChanges.insertedIDs.remove(id)
            pendingChanges.updatedIDs.remove(id)
            pendingChanges.deletedIDs.remove(id)
            object.detach()
            invalidated.insert(id)
        }
        for (object, changes) in reapply {
            try object.fulfillFault()
            for key in changes.keys.sorted() { try object.setValue(changes[key] ?? nil, forKey: key) }
        }
        let notice = ContextChanges(inserted: inserted, updated: refreshed, deleted: invalidated)
        if !notice.isEmpty { post(Self.objectsDidChangeNotification, notice) }
    }

    /// A relationship value without the objects of `deleted` (other values as they are).
    private static func dropping(_ deleted: Set<ManagedObjectID>, from value: Any) -> Any? {
        switch value {
        case let object as ManagedObject: deleted.contains(object.objectID) ? nil : object
        case let objects as Set<ManagedObject>: objects.filter { !deleted.contains($0.objectID) }
        case let objects as [ManagedObject]: objects.filter { !deleted.contains($0.objectID) }
        default: value
        }
    }
}

extension ManagedObject {
    /// Whether a loaded relationship of the object holds one of `ids`.
    fileprivate func references(_ ids: Set<ManagedObjectID>) -> Bool {
        toOneValues.values.contains { ids.contains($0.objectID) }
            || toManyValues.values.contains { $0.contains { ids.contains($0.objectID) } }
            || unresolvedToMany.values.contains { $0.contains { ids.contains($0) } }
    }

    /// Removes the objects of `ids` from every relationship of the object.
    fileprivate func unlinkAll(_ ids: Set<ManagedObjectID>) throws {
        for (key, destination) in toOneValues where ids.contains(destination.objectID) {
            try setValue(nil, forKey: key)
        }
        for (key, destinations) in toManyValues {
            for destination in destinations where ids.contains(destination.objectID) { try remove(destination, from: key) }
        }
        for (key, destinations) in unresolvedToMany {
            unresolvedToMany[key] = destinations.filter { !ids.contains($0) }
        }
    }
}
