extension ManagedObjectContext {
    /// Discards every unsaved change: inserted objects are forgotten, changed and deleted ones
    /// go back to their last saved state.
    public func rollback() {
        checkQueue()
        removeAllUndoActions()
        let inserted = changeLists.inserted
        let changed = changeLists.updated + changeLists.deleted
        changeLists.removeAll()
        storeCascades.removeAll()
        for object in inserted {
            registry[object.objectID] = nil
            object.detach()
        }
        for object in changed { object.turnIntoFault() }
        pendingChanges = ContextChanges()
    }

    /// Forgets every object; objects obtained before can no longer be used.
    public func reset() {
        checkQueue()
        removeAllUndoActions()
        letGoOfObjects()
        storeCascades.removeAll()
        renewObjectsLink()
        pendingChanges = ContextChanges()
        merging.lastMergedInserts = []
    }

    /// Brings an object up to date with its store (or parent).
    ///
    /// With `mergeChanges` false the object becomes a fault and its unsaved changes are
    /// dropped; with `true` it reloads its saved state and keeps its unsaved changes on top.
    /// Inserted objects are left alone.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        checkQueue()
        guard object.managedObjectContext === self, object.pendingChange != .inserted, !object.isFault else { return }
        let changes = mergeChanges ? object.changedValues() : [:]
        if object.pendingChange == .updated { changeLists.set(.none, of: object) }
        // A refreshed object reads its store again, not the coordinator's cached row.
        if parent == nil { persistentStoreCoordinator.rowCache.remove(CollectionOfOne(object.objectID)) }
        object.turnIntoFault()
        guard mergeChanges, !changes.isEmpty else { return }
        try object.fulfillFault()
        try withoutUndoRegistration {
            for (key, value) in changes.sorted(by: { $0.key < $1.key }) { try object.setValue(value, forKey: key) }
        }
    }

    /// Whether a fetch with ``FetchRequest/shouldRefreshRefetchedObjects`` refreshes `object`:
    /// one loaded, with no unsaved change, not deleted.
    static func isRefreshable(_ object: ManagedObject) -> Bool {
        !object.isFault && !object.isInvalidated && !object.isDeletedInStore && object.pendingChange == .none
    }

    /// Gives a loaded, unchanged object the stored state `snapshot` a fetch read
    /// (``FetchRequest/shouldRefreshRefetchedObjects``).
    func refresh(_ object: ManagedObject, with snapshot: consuming ObjectSnapshot) throws {
        guard Self.isRefreshable(object) else { return }
        object.turnIntoFault()
        try object.load(snapshot, in: self)
    }

    /// Refreshes every registered object as ``refresh(_:mergeChanges:)`` does with `true` (Core
    /// Data's `refreshAllObjects()`): unchanged objects become faults, changed ones reload their
    /// saved state with their unsaved changes kept on top, inserted and deleted ones stay as they
    /// are. Objects stay valid; the references they held to others are let go, which breaks
    /// reference cycles between them. It visits every registered object.
    ///
    /// - Throws: what reloading a changed object throws.
    public func refreshAllObjects() throws {
        checkQueue()
        merging.lastMergedInserts = []
        for object in registry.objects where !object.isFault && !object.isDeletedInStore && object.pendingChange != .deleted {
            try refresh(object, mergeChanges: true)
        }
    }
}
