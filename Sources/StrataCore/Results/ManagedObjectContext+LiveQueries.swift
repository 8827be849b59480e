import Foundation

/// One result of a live query: the sections by object ID and how they differ from the result
/// before (for the first result, from nothing).
public struct FetchedResultsUpdate: Sendable, Hashable {
    /// The current result.
    public var snapshot: ResultsSnapshot
    /// What changed since the previous result, in ``ResultsDifference``'s convention.
    public var difference: ResultsDifference
}

extension ManagedObjectContext {
    /// A live query: the current result of `request`, then a new result each time a change of
    /// this context affects it (processed changes, saves, merged saves), as GRDB's
    /// `ValueObservation` and SwiftData's queries do.
    ///
    /// ```swift
    /// for await update in try context.changes(for: request) {
    ///     render(update.snapshot)                    // object IDs, Sendable
    /// }
    /// ```
    ///
    /// The request follows the rules of a ``FetchedResultsController`` (a sort descriptor, the
    /// section key path first). Results are object IDs, so they cross to any task; the query
    /// runs on this context's queue, as the changes happen. The sequence ends when the iterating
    /// task is cancelled (the query stops at the context's next notification) or when the context
    /// goes away. Changes that leave the result as it was yield nothing.
    ///
    /// - Throws: what ``FetchedResultsController/performFetch()`` throws.
    public func changes(for request: FetchRequest<ManagedObject>, sectionNameKeyPath: String? = nil) throws -> AsyncStream<FetchedResultsUpdate> {
        checkQueue()
        let controller = FetchedResultsController<ManagedObject>(weaklyHeld: self, fetchRequest: request,
                                                                 sectionNameKeyPath: sectionNameKeyPath)
        try controller.performFetch()
        let (stream, continuation) = AsyncStream.makeStream(of: FetchedResultsUpdate.self)
        let ended = LockedValue(false)
        continuation.onTermination = { _ in ended.withLock { $0 = true } }
        let end = LiveQueryEnd(continuation)
        continuation.yield(FetchedResultsUpdate(snapshot: controller.snapshot,
                                                difference: .inserting(controller.snapshot)))
        controller.liveUpdate = { snapshot, difference in
            continuation.yield(FetchedResultsUpdate(snapshot: snapshot, difference: difference))
        }
        guard let key = controller.observerKey else { return stream }
        // The context keeps the query (and the query the context only weakly).
        resultsObservers[key] = { [weak self] name, changes in
            if ended.withLock({ $0 }) {
                self?.resultsObservers[key] = nil
                return
            }
            withExtendedLifetime(end) { controller.contextDidChange(name, changes) }
        }
        return stream
    }
}

/// Finishes a live query's sequence when the context lets go of the query.
private final class LiveQueryEnd {
    let continuation: AsyncStream<FetchedResultsUpdate>.Continuation
    init(_ continuation: AsyncStream<FetchedResultsUpdate>.Continuation) { self.continuation = continuation }
    deinit { continuation.finish() }
}

extension ResultsDifference {
    /// The difference from no sections to `snapshot`: every section and object inserted.
    static func inserting(_ snapshot: ResultsSnapshot) -> ResultsDifference {
        var difference = ResultsDifference()
        for (index, section) in snapshot.sections.enumerated() {
            difference.sectionChanges.append(ResultsSectionChange(type: .insert, name: section.name, index: index))
            for (row, id) in section.objectIDs.enumerated() {
                difference.objectChanges.append(ResultsObjectChange(type: .insert, objectID: id, indexPath: nil,
                                                                    newIndexPath: IndexPath(indexes: [index, row])))
            }
        }
        return difference
    }
}
