import Foundation

/// A fetched results controller's sections by object ID: what a list that diffs shows (Core
/// Data hands `NSDiffableDataSourceSnapshot`, which Linux lacks). `Sendable`, so it crosses to
/// any task or actor.
public struct ResultsSnapshot: Sendable, Hashable {
    /// One section: its name and its objects' IDs in order.
    public struct Section: Sendable, Hashable {
        /// The section's name (its identifier in the snapshot).
        public var name: String
        /// The IDs of its objects, in order.
        public var objectIDs: [ManagedObjectID]

        /// A section.
        public init(name: String, objectIDs: [ManagedObjectID]) {
            self.name = name
            self.objectIDs = objectIDs
        }
    }

    /// The sections in order.
    public var sections: [Section]

    /// A snapshot of `sections`.
    public init(sections: [Section] = []) { self.sections = sections }

    /// Every object ID, section after section.
    public var objectIDs: [ManagedObjectID] { sections.flatMap(\.objectIDs) }
    /// The section names in order.
    public var sectionNames: [String] { sections.map(\.name) }
}

/// One object's change in a ``ResultsDifference``.
public struct ResultsObjectChange: Sendable, Hashable {
    /// What happened.
    public var type: FetchedResultsChangeType
    /// The object.
    public var objectID: ManagedObjectID
    /// Its index path before the batch (nil for an insert).
    public var indexPath: IndexPath?
    /// Its index path after the batch (nil for a delete).
    public var newIndexPath: IndexPath?
}

/// One section's change in a ``ResultsDifference``.
public struct ResultsSectionChange: Sendable, Hashable {
    /// ``FetchedResultsChangeType/insert`` or ``FetchedResultsChangeType/delete``.
    public var type: FetchedResultsChangeType
    /// The section's name.
    public var name: String
    /// Its index: before the batch for a delete, after it for an insert.
    public var index: Int
}

/// What one batch of changes did to a controller's sections, by object ID.
///
/// Index paths follow Core Data's (and a table view's batch updates') convention: deletes,
/// section deletes and the sources of moves are at index paths before the batch; inserts,
/// section inserts and the destinations of moves at index paths after it; an update gives both.
/// Applying the removals (deletes and move sources, last first), then the insertions (inserts
/// and move destinations, first first) to the sections before gives the sections after:
/// ``applied(to:)``.
public struct ResultsDifference: Sendable, Hashable {
    /// Sections inserted and deleted.
    public var sectionChanges: [ResultsSectionChange]
    /// Objects inserted, deleted, moved and updated.
    public var objectChanges: [ResultsObjectChange]

    /// A difference.
    public init(sectionChanges: [ResultsSectionChange] = [], objectChanges: [ResultsObjectChange] = []) {
        self.sectionChanges = sectionChanges
        self.objectChanges = objectChanges
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }

    /// The sections after this batch, given the sections before it.
    public func applied(to snapshot: ResultsSnapshot) -> ResultsSnapshot {
        var sections = snapshot.sections
        let removals = objectChanges.filter { $0.type == .delete || $0.type == .move }
            .compactMap(\.indexPath).sorted { ($0[0], $0[1]) > ($1[0], $1[1]) }
        for path in removals { sections[path[0]].objectIDs.remove(at: path[1]) }
        for change in sectionChanges.filter({ $0.type == .delete }).sorted(by: { $0.index > $1.index }) {
            sections.remove(at: change.index)
        }
        for change in sectionChanges.filter({ $0.type == .insert }).sorted(by: { $0.index < $1.index }) {
            sections.insert(.init(name: change.name, objectIDs: []), at: change.index)
        }
        let insertions = objectChanges.filter { $0.type == .insert || $0.type == .move }
            .compactMap { change in change.newIndexPath.map { ($0, change.objectID) } }
            .sorted { ($0.0[0], $0.0[1]) < ($1.0[0], $1.0[1]) }
        for (path, id) in insertions { sections[path[0]].objectIDs.insert(id, at: path[1]) }
        return ResultsSnapshot(sections: sections)
    }
}
