/// Collects the snapshots a fetch hands on into one list, moving them out of the runs the
/// stores hand on: for the fetches whose rows the context merges with others before making
/// objects (``PersistentStoreCoordinator/fetchSnapshots(_:)``).
final class SnapshotCollector: SnapshotReceiver {
    /// The snapshots received, in order.
    private(set) var snapshots: [ObjectSnapshot] = []

    func expect(_ count: Int) {
        snapshots.reserveCapacity(snapshots.count + count)
    }

    func receive(_ run: inout [ObjectSnapshot]) {
        guard !snapshots.isEmpty else {
            // The first run (a store's whole list, often) is taken as it is.
            swap(&snapshots, &run)
            return
        }
        // Reversed in place, then taken from the end: moved, in their order.
        run.reverseInPlace()
        while let snapshot = run.popLast() { snapshots.append(snapshot) }
    }
}
