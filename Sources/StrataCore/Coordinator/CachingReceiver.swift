/// Passes a fetch's snapshots on to another receiver and keeps a copy of each for the row cache,
/// as long as there are no more of them than the cache holds: one large fetch does not flush it.
final class CachingReceiver: SnapshotReceiver {
    private let next: any SnapshotReceiver
    private let capacity: Int
    /// How many snapshots passed.
    private(set) var count = 0
    /// Copies of the snapshots that passed; nil once there were more than the cache holds.
    private(set) var kept: [ObjectSnapshot]? = []

    /// A receiver that passes snapshots on to `next`, keeping copies of up to `capacity` of them.
    init(passingTo next: any SnapshotReceiver, capacity: Int) {
        self.next = next
        self.capacity = capacity
    }

    func expect(_ count: Int) {
        // Only a hint: the fetch may come with fewer snapshots.
        kept?.reserveCapacity(min(count, capacity))
        next.expect(count)
    }

    func receive(_ snapshots: inout [ObjectSnapshot]) throws {
        count += snapshots.count
        if count > capacity {
            kept = nil
        } else {
            kept?.append(contentsOf: snapshots)
        }
        try next.receive(&snapshots)
    }
}
