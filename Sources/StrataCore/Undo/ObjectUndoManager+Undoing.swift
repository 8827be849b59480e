extension ObjectUndoManager {
    /// Reverses the newest group: closes the event's group first (with ``groupsByEvent`` on and
    /// only that group open), then runs the group's actions newest first. What they register goes
    /// to the redo stack as one group with the same action name. Does nothing when there is
    /// nothing to undo.
    ///
    /// Tells observers ``UndoEvent/willUndo`` before and ``UndoEvent/didUndo`` after.
    ///
    /// - Throws: ``UndoError/undoInProgress`` from inside an undo or redo;
    ///   ``UndoError/groupStillOpen(level:)`` when a group is open that this may not close.
    public func undo() throws {
        guard performing == nil else { throw UndoError.undoInProgress }
        if groupsByEvent, openGroups.count == 1 { closeGroup() }
        guard openGroups.isEmpty else { throw UndoError.groupStillOpen(level: openGroups.count) }
        try undoNestedGroup()
    }

    /// Reverses the newest group without closing any open group: with no group open, the newest
    /// group on the undo stack; inside an open group, the nested group closed last in it.
    ///
    /// - Throws: ``UndoError/undoInProgress`` from inside an undo or redo;
    ///   ``UndoError/noNestedGroup`` inside an open group whose newest entry is not a nested group.
    public func undoNestedGroup() throws {
        guard performing == nil else { throw UndoError.undoInProgress }
        if openGroups.isEmpty {
            guard let group = undoStack.popLast() else { return }
            perform(group, as: .undo)
            return
        }
        let innermost = openGroups.count - 1
        guard case .group(let group)? = openGroups[innermost].items.last else {
            throw UndoError.noNestedGroup
        }
        openGroups[innermost].items.removeLast()
        perform(group, as: .undo)
    }

    /// Reapplies the group undone last; what its actions register goes to the undo stack. Does
    /// nothing when there is nothing to redo.
    ///
    /// Tells observers ``UndoEvent/willRedo`` before and ``UndoEvent/didRedo`` after.
    ///
    /// - Throws: ``UndoError/undoInProgress`` from inside an undo or redo;
    ///   ``UndoError/groupStillOpen(level:)`` when a group is open that this may not close.
    public func redo() throws {
        guard performing == nil else { throw UndoError.undoInProgress }
        if groupsByEvent, openGroups.count == 1 { closeGroup() }
        guard openGroups.isEmpty else { throw UndoError.groupStillOpen(level: openGroups.count) }
        guard let group = redoStack.popLast() else { return }
        perform(group, as: .redo)
    }

    /// Runs `group`'s actions with ``performing`` set, collecting what they register into one
    /// group for the other stack; the groups open before are put back after.
    func perform(_ group: UndoGroup, as kind: Performing) {
        groupSerial &+= 1
        defer { groupSerial &+= 1 }
        suspendedGroups = openGroups
        suspendedAutomatic = automaticGroupOpen
        openGroups = [UndoGroup(actionName: group.actionName)]
        automaticGroupOpen = false
        performing = kind
        post(kind == .undo ? .willUndo : .willRedo)
        group.perform()
        while openGroups.count > 1 {   // groups the actions left open join the collected one
            let nested = openGroups.removeLast()
            if !nested.isEmpty { openGroups[openGroups.count - 1].items.append(.group(nested)) }
        }
        let collected = openGroups.popLast() ?? UndoGroup()
        if !collected.isEmpty {
            if kind == .undo {
                redoStack.append(collected)
                trim(&redoStack)
            } else {
                undoStack.append(collected)
                trim(&undoStack)
            }
        }
        openGroups = suspendedGroups
        automaticGroupOpen = suspendedAutomatic
        suspendedGroups = []
        suspendedAutomatic = false
        performing = nil
        post(kind == .undo ? .didUndo : .didRedo)
    }
}
