extension ObjectUndoManager {
    /// Names the group being recorded ("Typing", "Delete"): the outermost open group, or when none
    /// is open the newest group on the undo stack (during an undo, the group going to the redo
    /// stack). An empty name clears it.
    public func setActionName(_ actionName: String) {
        if !openGroups.isEmpty {
            openGroups[0].actionName = actionName
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].actionName = actionName
        }
    }

    /// The name of the group ``undo()`` would reverse, empty when it has none.
    public var undoActionName: String {
        if performing == nil, let outer = openGroups.first, !outer.isEmpty {
            return outer.actionName
        }
        return undoStack.last?.actionName ?? ""
    }

    /// The name of the group ``redo()`` would reapply, empty when it has none.
    public var redoActionName: String {
        redoStack.last?.actionName ?? ""
    }

    /// "Undo" followed by ``undoActionName`` when there is one: the title of an Undo menu item.
    public var undoMenuItemTitle: String {
        undoActionName.isEmpty ? "Undo" : "Undo \(undoActionName)"
    }

    /// "Redo" followed by ``redoActionName`` when there is one: the title of a Redo menu item.
    public var redoMenuItemTitle: String {
        redoActionName.isEmpty ? "Redo" : "Redo \(redoActionName)"
    }
}
