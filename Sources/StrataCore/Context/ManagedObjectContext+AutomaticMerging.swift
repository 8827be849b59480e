import Dispatch

extension ManagedObjectContext {
    /// Whether the context merges, by itself, the changes saved to its parent or, for a root
    /// context, to its coordinator (Core Data's property of the same name).
    ///
    /// - A **child context** merges, right away and on its queue (its parent's), what its parent
    ///   saves, what its parent merges, and what another child saves into its parent.
    /// - A **root context** merges what the other contexts on its coordinator save. The saving
    ///   context leaves its change set with the coordinator; the receiving context merges it on
    ///   its own queue: a ``BackgroundContext``'s context on its private queue, a main-queue
    ///   context (the `viewContext`) on the main queue, each as soon as that queue runs it. A
    ///   confined context is never touched from another thread: it merges the saves that
    ///   arrived the next time it fetches, counts, saves or calls ``processPendingChanges()``.
    ///
    /// Each merge is ``mergeChanges(fromContextDidSave:)-(ContextChanges)``'s, and costs what
    /// the save holds, not what the context holds. Turning it off merges what already arrived.
    ///
    /// A root context on stores opened with ``StoreOption/remoteChangeNotificationPost`` and
    /// ``StoreOption/persistentHistoryTracking`` also follows the saves of other coordinators
    /// and processes: after each ``PersistentStoreCoordinator/remoteChangeNotification`` it
    /// merges them from persistent history at its next fetch or save (a main-queue context at
    /// once, on the main queue); see ``mergeChangesFromPersistentHistory()``.
    public var automaticallyMergesChangesFromParent: Bool {
        get { merging.automaticallyMerges }
        set {
            checkQueue()
            followRemoteChanges(newValue)
            guard newValue != merging.automaticallyMerges else { return }
            merging.automaticallyMerges = newValue
            if let parent {
                parent.merging.followers.removeAll { $0.context == nil || $0.context === self }
                if newValue { parent.merging.followers.append(WeakContextReference(context: self)) }
            } else if newValue {
                let inbox = MergeInbox(wake: wakeOnQueue())
                merging.inbox = inbox
                persistentStoreCoordinator.saveAnnouncer.add(inbox)
            } else if let inbox = merging.inbox {
                persistentStoreCoordinator.saveAnnouncer.remove(inbox)
                mergeArrivedSaves()
                merging.inbox = nil
            }
        }
    }

    /// What sends this context's merge of arrived saves to its queue: the main queue for a
    /// main-queue context, the private queue of a ``BackgroundContext``; nil for a confined
    /// context, which merges them when next used.
    private func wakeOnQueue() -> (@Sendable () -> Void)? {
        let handle = ContextHandle(self)
        switch concurrencyType {
        case .mainQueue:
            return { DispatchQueue.main.async { handle.context?.mergeArrivedSaves() } }
        case .privateQueue:
            guard let run = merging.queue else { return nil }
            return { run { handle.context?.mergeArrivedSaves() } }
        case .confined:
            return nil
        }
    }

    /// Merges the saves of other contexts that arrived in this root context's inbox.
    @inline(__always)
    func mergeArrivedSaves() {
        guard let inbox = merging.inbox, inbox.hasArrivals else { return }
        for changes in inbox.takeAll() {
            var merged = Set<ObjectIdentifier>()
            // The saves came through this coordinator, which dropped their cached rows.
            merge(MergedChanges(changes), readingStoreAgain: false, visited: &merged)
        }
    }

    /// Tells the contexts that follow this one about a save that just landed: its own following
    /// children, the other following children of its parent (whose state the save changed), or,
    /// for a root context, the coordinator's other following root contexts.
    func announceSave(_ saved: ContextChanges) {
        let hasFollowers = !merging.followers.isEmpty || parent.map { !$0.merging.followers.isEmpty } ?? false
        if hasFollowers {
            let changes = MergedChanges(saved)
            var merged: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
            mergeIntoFollowers(changes, visited: &merged)
            parent?.mergeIntoFollowers(changes, visited: &merged)
        }
        if parent == nil { persistentStoreCoordinator.saveAnnouncer.announce(saved, from: merging.inbox) }
    }

    /// Merges `changes` into the child contexts that follow this one (not in `visited`).
    func mergeIntoFollowers(_ changes: MergedChanges, visited: inout Set<ObjectIdentifier>) {
        guard !merging.followers.isEmpty else { return }
        merging.followers.removeAll { $0.context == nil }
        for follower in merging.followers.compactMap(\.context) {
            follower.merge(changes, readingStoreAgain: false, visited: &visited)
        }
    }
}
