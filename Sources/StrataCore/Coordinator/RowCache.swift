import Synchronization

/// The rows a coordinator's stores returned, shared by every context on the coordinator: a fault
/// that another context already read fires without asking the store again.
///
/// What goes in: the snapshots of fetches that read values (when a fetch returns no more rows
/// than the cache holds, so that one large fetch does not flush it) and of faults fired from the
/// stores. What comes out: a saved, deleted or refreshed object's row, every row a batch request
/// may have changed, the rows of a store that is removed. So a context always sees its
/// coordinator's own saves, and `refresh(_:mergeChanges:)` reads the store again; rows changed
/// by another coordinator or process are seen when an object is refreshed or fetched, and a save
/// over such a change fails with a merge conflict, as without the cache.
///
/// The cache keeps at most ``capacity`` rows, in two generations: rows go into the current one;
/// when it is half full it becomes the previous one, and the one before is dropped. A row read
/// from the previous generation moves into the current one. Each operation takes constant time.
final class RowCache: Sendable {
    /// The most rows the cache holds; 0 turns it off.
    let capacity: Int
    private let generations = Mutex(Generations())

    private struct Generations {
        var current: [ManagedObjectID: ObjectSnapshot] = [:]
        var previous: [ManagedObjectID: ObjectSnapshot] = [:]

        /// Whether no row is cached.
        var isEmpty: Bool { current.isEmpty && previous.isEmpty }

        /// The row of `objectID`; one found in the previous generation moves into the current.
        mutating func lookUp(_ objectID: ManagedObjectID, half: Int) -> ObjectSnapshot? {
            if let found = current[objectID] { return found }
            guard let found = previous.removeValue(forKey: objectID) else { return nil }
            insert(found, half: half)
            return found
        }

        mutating func insert(_ snapshot: consuming ObjectSnapshot, half: Int) {
            // Moved into the generation: a snapshot the caller gives up is not copied again.
            let objectID = snapshot.objectID
            current[objectID] = consume snapshot
            if current.count >= half {
                previous = current
                current = [:]
            }
        }
    }

    /// A cache of at most `capacity` rows.
    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// The cached row of `objectID`.
    func snapshot(for objectID: ManagedObjectID) -> ObjectSnapshot? {
        guard capacity > 0 else { return nil }
        return generations.withLock { generations in
            guard !generations.isEmpty else { return nil }
            return generations.lookUp(objectID, half: max(1, capacity / 2))
        }
    }

    /// Puts the cached rows of `objectIDs` into `found`, under one lock; returns the IDs it has
    /// no row for, in order.
    func snapshots(for objectIDs: [ManagedObjectID], into found: inout [ManagedObjectID: ObjectSnapshot]) -> [ManagedObjectID] {
        guard capacity > 0 else { return objectIDs }
        return generations.withLock { generations in
            guard !generations.isEmpty else { return objectIDs }
            var missing: [ManagedObjectID] = []
            let half = max(1, capacity / 2)
            for id in objectIDs {
                if let cached = generations.lookUp(id, half: half) { found[id] = cached } else { missing.append(id) }
            }
            return missing
        }
    }

    /// Keeps `snapshots`, unless there are more of them than the cache holds.
    func insert(_ snapshots: some Collection<ObjectSnapshot>) {
        guard capacity > 0, !snapshots.isEmpty, snapshots.count <= capacity else { return }
        let half = max(1, capacity / 2)
        generations.withLock { generations in
            for snapshot in snapshots { generations.insert(snapshot, half: half) }
        }
    }

    /// Forgets the rows of `objectIDs`.
    func remove(_ objectIDs: some Sequence<ManagedObjectID>) {
        guard capacity > 0 else { return }
        generations.withLock { generations in
            guard !generations.isEmpty else { return }
            for id in objectIDs {
                generations.current.removeValue(forKey: id)
                generations.previous.removeValue(forKey: id)
            }
        }
    }

    /// Forgets every row.
    func removeAll() {
        generations.withLock { $0 = Generations() }
    }

    /// How many rows the cache holds now.
    var count: Int { generations.withLock { $0.current.count + $0.previous.count } }
}
