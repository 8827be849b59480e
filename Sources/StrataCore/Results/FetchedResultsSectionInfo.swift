import Foundation

/// One section of a fetched results controller (Core Data's `NSFetchedResultsSectionInfo`).
///
/// It describes the section as it was when the controller's ``FetchedResultsController/sections``
/// were read, and belongs to the controller's context, as its objects do. It holds the section's
/// rows compactly and makes their IDs only when ``objectIDs`` or ``objects`` is read, so that
/// reading ``numberOfObjects`` of every section costs nothing per object.
public struct FetchedResultsSectionInfo {
    /// The section's name: the text of the section name key path's value ("" for nil, and for
    /// the one section of a controller without a section key path).
    public let name: String
    /// The title of the section in a section index: the delegate's, or the name's first letter
    /// capitalized.
    public let indexTitle: String?
    /// The section's objects by slot, and what their IDs are read from.
    private let rows: CountedTree<UInt32>
    private let ids: ResultSlots.IDs
    let context: ManagedObjectContext?

    init(name: String, indexTitle: String?, rows: CountedTree<UInt32>, ids: ResultSlots.IDs, context: ManagedObjectContext?) {
        self.name = name
        self.indexTitle = indexTitle
        self.rows = rows
        self.ids = ids
        self.context = context
    }

    /// How many objects the section holds.
    public var numberOfObjects: Int { rows.count }

    /// The IDs of the section's objects, in order.
    public var objectIDs: [ManagedObjectID] { rows.map(ids.id(at:)) }

    /// The section's objects, in order (faults for objects not loaded yet).
    public var objects: [ManagedObject] {
        guard let context else { return [] }
        return rows.compactMap { try? context.object(with: ids.id(at: $0)) }
    }
}

@available(*, unavailable, message: "A section's objects are confined to their context; pass its objectIDs instead.")
extension FetchedResultsSectionInfo: Sendable {}
