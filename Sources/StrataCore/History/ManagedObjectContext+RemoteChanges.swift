import Foundation

/// Where remote-change notifications leave word for a context that follows them: set on the
/// monitor's queue, read on the context's. `@unchecked Sendable`: `pending` is guarded by `lock`.
final class RemoteChangeInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = false
    /// The notification-center observer, removed when the inbox goes.
    var observer: (any NSObjectProtocol)?

    /// Leaves word that a remote change arrived.
    func mark() { lock.withLock { pending = true } }

    /// Whether word was left since the last call, clearing it.
    func take() -> Bool { lock.withLock { defer { pending = false }; return pending } }

    deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }
}

/// A weak reference to a context, to reach it from the main queue (main-queue contexts only).
private final class WeakContext: @unchecked Sendable {
    weak var context: ManagedObjectContext?
    init(_ context: ManagedObjectContext) { self.context = context }
}

extension ManagedObjectContext {
    /// Merges the transactions recorded in persistent history since this context last merged
    /// from history (or since it began following remote changes; on a context that did neither,
    /// the whole history): inserted objects are found by fetches and faults, updated ones are
    /// refreshed with this context's own pending changes kept on top, deleted ones leave the
    /// context, as ``mergeChanges(fromRemoteContextSave:into:)`` does. The rows of the updated
    /// and deleted objects leave the coordinator's row cache, so a fault reads them anew.
    ///
    /// What another coordinator or process saved reaches a context this way. Costs O(k) for a
    /// history of k changes, whatever the number of objects the context holds.
    ///
    /// - Returns: the number of transactions merged.
    /// - Throws: ``PersistentHistoryError`` when no store keeps history, or what merging throws.
    @discardableResult
    public func mergeChangesFromPersistentHistory() throws -> Int {
        checkQueue()
        let start = historyState.mergedHistoryToken
        let result = try persistentStoreCoordinator.execute(.fetchHistory(after: start))
        guard let end = result.token else { return 0 }
        historyState.mergedHistoryToken = start.map { $0.merging(end) } ?? end
        var inserted: [ManagedObjectID] = [], updated: [ManagedObjectID] = [], deleted: [ManagedObjectID] = []
        for transaction in result.transactions {
            for change in transaction.changes ?? [] {
                switch change.changeType {
                case .insert: inserted.append(change.changedObjectID)
                case .update: updated.append(change.changedObjectID)
                case .delete: deleted.append(change.changedObjectID)
                }
            }
        }
        persistentStoreCoordinator.rowCache.remove(updated + deleted)
        advanceQueryGeneration()   // a pinned context moves on before its refreshed objects read again
        try Self.mergeChanges(fromRemoteContextSave: [Self.insertedObjectsKey: inserted, Self.updatedObjectsKey: updated,
                                                      Self.deletedObjectsKey: deleted], into: [self])
        return result.transactions.count
    }

    /// Starts or stops following remote changes: the hook automatic merging turns on for a root
    /// context. While on, each ``PersistentStoreCoordinator/remoteChangeNotification`` of the
    /// context's coordinator leaves word, and the context merges from history
    /// (``mergeChangesFromPersistentHistory()``) at its next fetch or save — a main-queue
    /// context also at once, on the main queue. Merging starts from the history's end as it is
    /// when following starts.
    func followRemoteChanges(_ follow: Bool) {
        guard follow != (historyState.remoteChanges != nil) else { return }
        guard follow, parent == nil else {
            historyState.remoteChanges = nil
            return
        }
        if historyState.mergedHistoryToken == nil {
            historyState.mergedHistoryToken = try? persistentStoreCoordinator.currentPersistentHistoryToken()
        }
        let inbox = RemoteChangeInbox()
        let weakContext = concurrencyType == .mainQueue ? WeakContext(self) : nil
        inbox.observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.remoteChangeNotification, object: persistentStoreCoordinator, queue: nil
        ) { [weak inbox] _ in
            inbox?.mark()
            if let weakContext {
                DispatchQueue.main.async { weakContext.context?.mergeRemoteChangesIfAny() }
            }
        }
        historyState.remoteChanges = inbox
    }

    /// Merges from history when a remote change left word (see ``followRemoteChanges(_:)``).
    /// A failed merge leaves the word, so the next use tries again.
    func mergeRemoteChangesIfAny() {
        guard let inbox = historyState.remoteChanges, inbox.take() else { return }
        do {
            try mergeChangesFromPersistentHistory()
        } catch {
            inbox.mark()
        }
    }
}
