import Foundation

/// What a fetched results controller shows its delegate: its sections and objects, whatever its
/// result class.
public protocol FetchedResultsControlling: AnyObject {
    /// The request the controller fetches.
    var fetchRequest: FetchRequest<ManagedObject> { get }
    /// The context the controller follows.
    var managedObjectContext: ManagedObjectContext { get }
    /// The sections, in order.
    var sections: [FetchedResultsSectionInfo]? { get }
    /// The sections by object ID.
    var snapshot: ResultsSnapshot { get }
}

/// Told by a ``FetchedResultsController`` how its results change (Core Data's
/// `NSFetchedResultsControllerDelegate`). Every method has an empty default.
///
/// A batch of changes comes as ``controllerWillChangeContent(_:)``, then each section change
/// and each object change, then ``controllerDidChangeContent(_:)``, then
/// ``controller(_:didChangeContentWith:difference:)`` with the new sections by ID. Index paths
/// follow the convention of ``ResultsDifference``. Changes that touch no fetched object and bring
/// none in make no call.
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// A batch of changes begins.
    func controllerWillChangeContent(_ controller: any FetchedResultsControlling)
    /// An object was inserted (`newIndexPath`), deleted (`indexPath`), moved or updated (both).
    func controller(_ controller: any FetchedResultsControlling, didChange object: ManagedObject,
                    at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?)
    /// A section was inserted (index after the batch) or deleted (index before it).
    func controller(_ controller: any FetchedResultsControlling, didChange sectionInfo: FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)
    /// A batch of changes ended.
    func controllerDidChangeContent(_ controller: any FetchedResultsControlling)
    /// The batch as a whole: the new sections by ID and the difference from the previous ones.
    func controller(_ controller: any FetchedResultsControlling, didChangeContentWith snapshot: ResultsSnapshot,
                    difference: ResultsDifference)
    /// The index title of a section; nil takes the default (the name's first letter, capitalized).
    func controller(_ controller: any FetchedResultsControlling, sectionIndexTitleForSectionName sectionName: String) -> String?
    /// Whether the controller makes the sections by ID for
    /// ``controller(_:didChangeContentWith:difference:)`` (true by default). Making them costs
    /// O(n) a batch for n fetched objects; a delegate that uses only the other calls returns
    /// false, is not sent that one, and a batch of k changes then costs O(k log n).
    var receivesSnapshots: Bool { get }
}

extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: any FetchedResultsControlling) {}
    public func controller(_ controller: any FetchedResultsControlling, didChange object: ManagedObject,
                           at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {}
    public func controller(_ controller: any FetchedResultsControlling, didChange sectionInfo: FetchedResultsSectionInfo,
                           atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {}
    public func controllerDidChangeContent(_ controller: any FetchedResultsControlling) {}
    public func controller(_ controller: any FetchedResultsControlling, didChangeContentWith snapshot: ResultsSnapshot,
                           difference: ResultsDifference) {}
    public func controller(_ controller: any FetchedResultsControlling, sectionIndexTitleForSectionName sectionName: String) -> String? { nil }
    public var receivesSnapshots: Bool { true }
}
