import Foundation

/// One section of a fetched results controller (Core Data's `NSFetchedResultsSectionInfo`).
///
/// It belongs to the controller's context, as its objects do.
public struct FetchedResultsSectionInfo {
    /// The section's name: the text of the section name key path's value ("" for nil, and for
    /// the one section of a controller without a section key path).
    public let name: String
    /// The title of the section in a section index: the delegate's, or the name's first letter
    /// capitalized.
    public let indexTitle: String?
    /// The IDs of the section's objects, in order.
    public let objectIDs: [ManagedObjectID]
    let context: ManagedObjectContext?

    /// How many objects the section holds.
    public var numberOfObjects: Int { objectIDs.count }

    /// The section's objects, in order (faults for objects not loaded yet).
    public var objects: [ManagedObject] {
        guard let context else { return [] }
        return objectIDs.compactMap { try? context.object(with: $0) }
    }
}

@available(*, unavailable, message: "A section's objects are confined to their context; pass its objectIDs instead.")
extension FetchedResultsSectionInfo: Sendable {}
