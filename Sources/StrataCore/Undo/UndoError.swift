/// A misuse of an ``ObjectUndoManager``: unbalanced groupings or registration switches, or
/// undoing at a moment it cannot be done.
public enum UndoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ``ObjectUndoManager/endUndoGrouping()`` was called with no group open.
    case noOpenGroup
    /// An undo action was registered with no group open while
    /// ``ObjectUndoManager/groupsByEvent`` is off.
    case registrationOutsideGroup
    /// ``ObjectUndoManager/enableUndoRegistration()`` was called more often than
    /// ``ObjectUndoManager/disableUndoRegistration()``.
    case registrationNotDisabled
    /// Undo or redo was asked for while groups the caller opened are still open; `level` is the
    /// grouping level at that moment.
    case groupStillOpen(level: Int)
    /// Undo or redo was asked for from inside an undo or a redo.
    case undoInProgress
    /// ``ObjectUndoManager/undoNestedGroup()`` was called inside an open group whose newest
    /// entry is not a closed nested group.
    case noNestedGroup

    /// One line saying what went wrong.
    public var description: String {
        switch self {
        case .noOpenGroup:
            "endUndoGrouping() called with no undo group open"
        case .registrationOutsideGroup:
            "undo action registered with no group open and groupsByEvent off"
        case .registrationNotDisabled:
            "enableUndoRegistration() called more often than disableUndoRegistration()"
        case .groupStillOpen(let level):
            "undo or redo asked for with \(level) undo group(s) still open"
        case .undoInProgress:
            "undo or redo asked for while an undo or redo is running"
        case .noNestedGroup:
            "undoNestedGroup() found no closed nested group at the end of the open group"
        }
    }
}
