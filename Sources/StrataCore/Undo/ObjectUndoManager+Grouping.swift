extension ObjectUndoManager {
    /// How many groups are open: 0 between events, 1 inside an event's group, more inside
    /// nested groups. During an undo or redo it counts the groups opened by the running actions,
    /// plus one for the group that collects their registrations.
    public var groupingLevel: Int { openGroups.count }

    /// Opens a group: the actions registered until the matching ``endUndoGrouping()`` are undone
    /// together. A group opened inside another becomes part of it.
    public func beginUndoGrouping() {
        if performing == nil { post(.checkpoint) }
        openGroup()
    }

    /// Closes the innermost open group: nested, it joins its parent; top-level, it goes on the
    /// undo stack (on the redo stack while undoing). A group with no action is dropped.
    ///
    /// - Throws: ``UndoError/noOpenGroup`` when no group is open.
    public func endUndoGrouping() throws {
        let floor = performing == nil ? 0 : 1   // the group an undo or redo collects into stays
        guard openGroups.count > floor else { throw UndoError.noOpenGroup }
        closeGroup()
    }

    /// Closes the group ``groupsByEvent`` opened for the current event, if one is open: call it
    /// at the end of each event (Foundation's run loop does this; Linux has none). Does nothing
    /// when no group is open.
    ///
    /// - Throws: ``UndoError/groupStillOpen(level:)`` when groups opened with
    ///   ``beginUndoGrouping()`` are still open.
    public func endEventGroup() throws {
        guard performing == nil, !openGroups.isEmpty else { return }
        guard automaticGroupOpen, openGroups.count == 1 else {
            throw UndoError.groupStillOpen(level: openGroups.count)
        }
        closeGroup()
    }

    /// Opens a group and says so.
    func openGroup() {
        groupSerial &+= 1
        openGroups.append(UndoGroup())
        post(.didOpenGroup)
    }

    /// Closes the innermost open group, sending it to its parent or to a stack.
    func closeGroup() {
        groupSerial &+= 1
        post(.checkpoint)
        post(.willCloseGroup)
        let group = openGroups.removeLast()
        if openGroups.isEmpty {
            automaticGroupOpen = false
            if !group.isEmpty {
                if performing == .undo {
                    redoStack.append(group)
                    trim(&redoStack)
                } else {
                    undoStack.append(group)
                    trim(&undoStack)
                }
            }
        } else if !group.isEmpty {
            openGroups[openGroups.count - 1].items.append(.group(group))
        }
        post(.didCloseGroup)
    }
}
