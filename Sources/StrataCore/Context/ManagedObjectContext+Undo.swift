extension ManagedObjectContext {
    /// The undo manager that records this context's changes; nil (the default) records nothing,
    /// and ``undo()`` and ``redo()`` then do nothing.
    ///
    /// With a manager, every change the context records is undoable: inserts, attribute
    /// changes, relationship changes (both sides of the inverse), deletes with what their delete
    /// rules changed. The changes made before one ``processPendingChanges()`` (which saves and
    /// fetches call) form one group: one ``undo()`` reverses them together.
    ///
    /// ```swift
    /// context.undoManager = ObjectUndoManager()
    /// try student.setValue("Ada", forKey: "name")
    /// context.processPendingChanges()     // the end of the event
    /// try context.undo()                  // name is back to what it was
    /// ```
    ///
    /// Firing faults and merging changes from other contexts record nothing; ``rollback()`` and
    /// ``reset()`` empty both stacks. Set it to nil during a large import: nothing is recorded
    /// then, and each change pays one nil check for it.
    public var undoManager: ObjectUndoManager? {
        get { objectsLink.undoRecorder?.manager }
        set {
            guard newValue !== objectsLink.undoRecorder?.manager else { return }
            objectsLink.undoRecorder = newValue.map { ContextUndoRecorder(manager: $0, context: self) }
        }
    }

    /// Reverses the newest group of changes: ends the current event
    /// (``processPendingChanges()``), asks the manager to undo, and announces what changed. Does
    /// nothing without an ``undoManager`` or with nothing to undo.
    ///
    /// Undoing a change that was saved makes it pending again for the next save: a saved
    /// insert becomes a delete, a saved delete an insert of the object with the values and
    /// relationships it had (and the object ID it had, so that IDs kept elsewhere still name it).
    ///
    /// - Throws: ``UndoError`` when the manager cannot undo now (an undo is running, or groups
    ///   opened with ``ObjectUndoManager/beginUndoGrouping()`` are open).
    public func undo() throws {
        checkQueue()
        guard let manager = undoManager else { return }
        processPendingChanges()
        try manager.undo()
        processPendingChanges()
    }

    /// Reapplies the group of changes undone last, as ``undo()`` reverses one. Does nothing
    /// without an ``undoManager`` or with nothing to redo.
    ///
    /// - Throws: ``UndoError`` when the manager cannot redo now.
    public func redo() throws {
        checkQueue()
        guard let manager = undoManager else { return }
        processPendingChanges()
        try manager.redo()
        processPendingChanges()
    }

    /// Runs `body` with recording suspended: what merges and refreshes change is not the app's
    /// change, and is not undoable.
    func withoutUndoRegistration<T>(_ body: () throws -> T) rethrows -> T {
        guard let recorder = objectsLink.undoRecorder else { return try body() }
        recorder.suspensions += 1
        defer { recorder.suspensions -= 1 }
        return try body()
    }

    /// Closes the event's undo group, at the end of an event.
    func endUndoEvent() {
        // Throws only while the app keeps groups of its own open: the event is part of those.
        try? objectsLink.undoRecorder?.manager.endEventGroup()
    }

    /// Empties the undo manager's stacks, as a rollback or a reset makes its steps meaningless.
    func removeAllUndoActions() {
        objectsLink.undoRecorder?.manager.removeAllActions()
    }

    // MARK: Existence

    /// Lists `object`, listed as deleted, as `listing` again: its delete is taken back.
    func undelete(_ object: ManagedObject, as listing: PendingChange) {
        let id = object.objectID
        changeLists.set(listing, of: object)
        pendingChanges.deletedIDs.remove(id)
        if listing == .updated { pendingChanges.updatedIDs.insert(id) }
    }

    /// Makes `object` exist or not, as an undo or a redo of its insert or delete asks, and
    /// records the opposite.
    ///
    /// An object that is to exist and was dropped from the context (an unsaved insert taken
    /// out, or a delete that was saved) comes back as an insert with `values` and its object
    /// ID; one still listed as deleted goes back to `listing`. An object that is to go is taken
    /// out when it was never saved, and listed as deleted otherwise.
    func setExistence(of object: ManagedObject, exists: Bool, values: ObjectValues?, listing: PendingChange) {
        let dropped = object.isDetached || object.contextLink !== objectsLink
        let existed = !dropped && object.pendingChange != .deleted
        let previous = object.pendingChange
        guard exists != existed else { return }
        let id = object.objectID
        if exists {
            if dropped {
                guard let values else { return }
                object.reinstate(values, link: objectsLink)
                registry[id] = object
                changeLists.set(.inserted, of: object)
                pendingChanges.insertedIDs.insert(id)
            } else {
                undelete(object, as: listing == .deleted || listing == .inserted ? .updated : listing)
            }
            objectsLink.undoRecorder?.existenceChanged(object, existed: false, values: nil, listing: .none)
            return
        }
        let values = ObjectValues(of: object)
        if previous == .inserted {
            changeLists.set(.none, of: object)
            pendingChanges.insertedIDs.remove(id)
            if registry[id] === object { registry[id] = nil }
            object.detach()
        } else {
            changeLists.set(.deleted, of: object)
            pendingChanges.updatedIDs.remove(id)
            pendingChanges.deletedIDs.insert(id)
        }
        objectsLink.undoRecorder?.existenceChanged(object, existed: true, values: values, listing: previous)
    }
}

extension ManagedObject {
    /// Sets attribute `key` back to `value`, as an undo or a redo asks, recording the opposite.
    func restoreAttribute(_ key: String, to value: AttributeValue?) throws {
        try fulfillFault()
        try checkMutable()
        let current = attributeValues[key]
        guard current != value else { return }
        contextLink?.undoRecorder?.attributeWillChange(self, key, from: current)
        keepCommittedAttributes()
        attributeValues[key] = value
        markChanged()
    }

    /// Makes a dropped object a new, unsaved object of the context of `link` again, with
    /// `values`.
    func reinstate(_ values: ObjectValues, link: ContextLink) {
        isDetached = false
        contextLink = link
        isFault = false
        committed = nil
        committedToOneIsCurrent = false
        dropRelationships()
        attributeValues = values.attributes
        toOneValues = values.toOnes
        toManyValues = values.toManys
    }
}
