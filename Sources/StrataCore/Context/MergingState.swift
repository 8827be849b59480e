import Foundation

/// What a context keeps for merging: its settings (``ManagedObjectContext/automaticallyMergesChangesFromParent``,
/// ``ManagedObjectContext/stalenessInterval``, ``ManagedObjectContext/shouldDeleteInaccessibleFaults``),
/// the child contexts that follow it, and where the saves of sibling contexts arrive.
///
/// Used on the context's queue only, like the rest of the context.
struct MergingState {
    /// Whether the context follows its parent's saves (a child) or its siblings' saves on the
    /// coordinator (a root context).
    var automaticallyMerges = false
    /// How old a cached row may be for a fault to fire from it, in seconds; negative: any age.
    var stalenessInterval: TimeInterval = -1
    /// Whether a fault whose row is gone becomes a deleted object instead of throwing: yes by
    /// default, as in Core Data.
    var deletesInaccessibleFaults = true
    /// Where the coordinator leaves its other contexts' saves, while a root context merges them
    /// automatically.
    var inbox: MergeInbox?
    /// The child contexts that merge automatically, held weakly: each merges what this context
    /// saves, merges, or has saved into it by another child.
    var followers: [WeakContextReference] = []
    /// The faults a merge registered for inserted objects, held until the next merge: the
    /// registry does not keep objects alive, and observers of the merge's
    /// ``ManagedObjectContext/objectsDidChangeNotification`` find them registered.
    var lastMergedInserts: [ManagedObject] = []
    /// Runs work on the context's private queue (a ``BackgroundContext`` sets it); nil for a
    /// confined or main-queue context.
    var queue: (@Sendable (@escaping @Sendable () -> Void) -> Void)?

    /// The time (``RowCache/now()``) from which a cached row is young enough for a fault: 0 when
    /// any row will do.
    func cachedRowsReadSince() -> UInt64 {
        guard stalenessInterval >= 0 else { return 0 }
        let now = RowCache.now()
        let age = stalenessInterval * 1e9
        return age >= Double(now) ? 0 : now - UInt64(age)
    }
}

/// A context held weakly, by a parent for its following children.
struct WeakContextReference {
    weak var context: ManagedObjectContext?
}

/// A context held weakly by work sent to its queue: read only on that queue, where the work runs
/// (which is what makes sharing it safe).
final class ContextHandle: @unchecked Sendable {
    weak var context: ManagedObjectContext?

    init(_ context: ManagedObjectContext) { self.context = context }
}
