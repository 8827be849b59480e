/// Passes a fetch's snapshots on to another receiver and keeps a copy of each row the store read
/// (rather than took from `cachedRows`) for the row cache, as long as the fetch is no larger than
/// the cache: one large fetch does not flush it.
///
/// A fetch is taken to be larger than the cache when the store expects more rows than the cache
/// holds (for the SQLite store, a whole table whose highest key is above the capacity), or once
/// more rows came.
final class CachingReceiver: SnapshotReceiver {
    private let next: any SnapshotReceiver
    private let capacity: Int
    private let cachedRows: CachedRows
    /// How many snapshots passed.
    private var count = 0
    /// How many rows the fetch had taken from the cache when the last snapshots passed.
    private var takenCount = 0
    /// Copies of the snapshots read that passed; nil once the fetch is larger than the cache.
    private var kept: [ObjectSnapshot]? = []

    /// A receiver that passes snapshots on to `next`, keeping copies of the rows not taken from
    /// `cachedRows`, while there are no more than `capacity` rows.
    init(passingTo next: any SnapshotReceiver, capacity: Int, cachedRows: CachedRows) {
        self.next = next
        self.capacity = capacity
        self.cachedRows = cachedRows
    }

    func expect(_ count: Int) {
        if count > capacity {
            kept = nil
        } else {
            // Room made once: growing by doubling would copy the copies at every step.
            kept?.reserveCapacity(count)
        }
        next.expect(count)
    }

    func receive(_ snapshots: inout [ObjectSnapshot]) throws {
        count += snapshots.count
        let taken = cachedRows.takenCount - takenCount
        takenCount = cachedRows.takenCount
        if count > capacity {
            kept = nil
        } else if taken < snapshots.count {
            // Rows taken from the cache are there already, marked as used.
            kept?.append(contentsOf: snapshots)
        }
        try next.receive(&snapshots)
    }

    /// The copies kept for the row cache, moved out; nil when the fetch was larger than the cache.
    func takeKept() -> [ObjectSnapshot]? {
        kept.take()
    }
}
