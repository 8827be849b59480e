import Synchronization

/// Where the saves of other contexts on its coordinator arrive for a root context that merges
/// them automatically (``ManagedObjectContext/automaticallyMergesChangesFromParent``).
///
/// A saving context leaves its change set here from its own queue; the receiving context takes
/// them on its queue: woken there by `wake` (a ``BackgroundContext``'s queue, the main queue), or,
/// for a confined context, the next time it fetches, saves or processes its pending changes.
/// Nothing but object IDs crosses.
final class MergeInbox: Sendable {
    private let arrived = LockedValue<[ContextChanges]>([])
    // Atomic: read before every use of the context that may merge, without taking the lock.
    private let holdsArrivals = Atomic<Bool>(false)
    /// Sends the receiving context's merge to its queue; nil for a confined context.
    private let wake: (@Sendable () -> Void)?

    init(wake: (@Sendable () -> Void)?) { self.wake = wake }

    /// Whether changes arrived that the context has not taken.
    var hasArrivals: Bool { holdsArrivals.load(ordering: .acquiring) }

    /// Leaves `changes` for the context and wakes it.
    func deliver(_ changes: ContextChanges) {
        arrived.withLock { list in
            list.append(changes)
            holdsArrivals.store(true, ordering: .releasing)
        }
        wake?()
    }

    /// The changes that arrived, in order; the inbox is empty afterwards.
    func takeAll() -> [ContextChanges] {
        arrived.withLock { list in
            let taken = list
            list = []
            holdsArrivals.store(false, ordering: .releasing)
            return taken
        }
    }
}
