/// What happened to an object or a section (Core Data's `NSFetchedResultsChangeType`).
public enum FetchedResultsChangeType: Sendable, Hashable {
    /// It entered the results: its new index path is given.
    case insert
    /// It left the results: its index path before the change is given.
    case delete
    /// It changed its place: its index paths before and after the change are given.
    case move
    /// It changed and kept its place among the others: its index paths before and after.
    case update
}
