/// The root contexts of a coordinator that merge its saves automatically, held weakly through
/// their inboxes: after a root context's save lands, the coordinator leaves the change set in
/// every other one's ``MergeInbox``.
///
/// Telling costs one lock and a visit per following context; a coordinator with none pays the
/// lock alone.
final class SaveAnnouncer: Sendable {
    /// An inbox held weakly: a context that goes takes its inbox with it.
    private struct Entry: Sendable {
        weak var inbox: MergeInbox?
    }

    private let entries = LockedValue<[Entry]>([])

    /// Starts telling `inbox` about saves.
    func add(_ inbox: MergeInbox) {
        entries.withLock { $0.append(Entry(inbox: inbox)) }
    }

    /// Stops telling `inbox`.
    func remove(_ inbox: MergeInbox) {
        entries.withLock { $0.removeAll { $0.inbox == nil || $0.inbox === inbox } }
    }

    /// Leaves `changes` in every inbox but `sender`'s (the saving context's own, if it follows
    /// saves too).
    func announce(_ changes: ContextChanges, from sender: MergeInbox?) {
        let receivers: [MergeInbox] = entries.withLock { entries in
            guard !entries.isEmpty else { return [] }
            entries.removeAll { $0.inbox == nil }
            return entries.compactMap(\.inbox).filter { $0 !== sender }
        }
        for inbox in receivers { inbox.deliver(changes) }
    }
}
