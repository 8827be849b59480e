import Dispatch

/// The rows a coordinator's stores returned, shared by every context on the coordinator: a fault
/// that another context already read fires without asking the store again.
///
/// What goes in: the snapshots of fetches that read values (when a fetch neither returns nor, by
/// its store's hint, expects more rows than the cache holds, so that one large fetch does not
/// flush it; see ``CachingReceiver``) and of faults fired from the
/// stores; a store that reads a row's version before its values takes the row from here when
/// the cache holds it at that version (``CachedRows``), and the row stays. What comes out: a
/// saved, deleted or refreshed object's row, every row a batch request may have changed, the rows
/// of a store that is removed. So a context always sees its coordinator's own saves, and
/// `refresh(_:mergeChanges:)` reads the store again; rows changed by another coordinator or
/// process are seen when an object is refreshed or fetched at the new version their change gave
/// them, and a save over such a change fails with a merge conflict, as without the cache.
///
/// The cache keeps at most ``capacity`` rows. When it is full, a new row takes the place of one
/// that nobody has read since the clock hand last passed it (the CLOCK approximation of least
/// recently used): a row is marked when it is read or fetched again, and the hand, going round
/// the rows, clears the marks it passes and gives the first unmarked row's place to the new one.
/// A fetched row that the cache holds at the same version stays as it is (every save raises a
/// row's version), so fetching the same rows again costs a lookup per row, not a copy and a
/// free. Each operation takes constant time, amortised.
///
/// Each row keeps when it was last read from its store (or found there at the version the cache
/// holds), so that a context with a ``ManagedObjectContext/stalenessInterval`` fires its faults
/// from rows younger than it and reads older ones from the store.
final class RowCache: Sendable {
    /// The most rows the cache holds; 0 turns it off.
    let capacity: Int
    private let rows = LockedValue(Rows())

    /// The cached rows, each in a place of a list the clock hand goes round.
    private struct Rows {
        /// One place of the list: a row, its version (read without touching the row), when it
        /// was last read from its store (``RowCache/now()``) and whether it was used since the
        /// hand last passed.
        struct Place {
            var snapshot: ObjectSnapshot?
            var version: Int64 = 0
            var readAt: UInt64 = 0
            var isMarked = false
        }

        private var places: [Place] = []
        /// The place of each cached row, by its ID.
        private var positions = PrimaryKeyTables<Int32>()
        /// How many rows are cached.
        private(set) var count = 0
        /// Places emptied by removals, taken before the hand frees one.
        private var emptyPlaces: [Int] = []
        /// The next place the hand looks at when the list is full.
        private var hand = 0

        /// Whether any row of `entityName` in the store `storeIdentifier` is cached.
        func holdsRows(entityName: String, storeIdentifier: String) -> Bool {
            positions.holdsValues(entityName: entityName, storeIdentifier: storeIdentifier)
        }

        /// How many places the list has room for before it grows again.
        var listCapacity: Int { places.capacity }

        /// The row of `objectID`, marked as used, if it was read from its store at `readSince` or
        /// later.
        mutating func lookUp(_ objectID: ManagedObjectID, readSince: UInt64) -> ObjectSnapshot? {
            guard let position = positions[objectID].map(Int.init), places[position].readAt >= readSince else { return nil }
            return markedRow(at: position)
        }

        /// The row `primaryKey` of `entityName` in the store `storeIdentifier` if it is at
        /// `version`, marked as used.
        mutating func lookUp(entityName: String, storeIdentifier: String, primaryKey: Int64, version: Int64) -> ObjectSnapshot? {
            guard let position = positions.value(entityName: entityName, storeIdentifier: storeIdentifier, primaryKey: primaryKey),
                  places[Int(position)].version == version else { return nil }
            return markedRow(at: Int(position))
        }

        /// The row at `position`, marked as used.
        private mutating func markedRow(at position: Int) -> ObjectSnapshot? {
            places[position].isMarked = true
            return places[position].snapshot
        }

        /// Keeps each of `snapshots`; a row cached at the same version stays, marked as used.
        ///
        /// The snapshots are read in place: a copy of each, retaining all it holds, is made only
        /// for a row the cache takes.
        mutating func keep(_ snapshots: UnsafeBufferPointer<ObjectSnapshot>, capacity: Int, readAt: UInt64) {
            guard let first = snapshots.first else { return }
            makeRoom(for: snapshots.count, like: first.objectID, capacity: capacity)
            for index in snapshots.indices {
                let place = positions[snapshots[index].objectID].map(Int.init)
                if let place, places[place].version == snapshots[index].version {
                    places[place].isMarked = true
                    places[place].readAt = readAt
                } else {
                    keep(snapshots[index], at: place, capacity: capacity, readAt: readAt)
                }
            }
        }

        /// Keeps each of `snapshots` as ``keep(_:capacity:)`` does, moving them out of the list
        /// (left empty) instead of copying them.
        mutating func keep(taking snapshots: inout [ObjectSnapshot], capacity: Int, readAt: UInt64) {
            guard let first = snapshots.first else { return }
            makeRoom(for: snapshots.count, like: first.objectID, capacity: capacity)
            // Reversed in place, then taken from the end: moved, in their order.
            snapshots.reverseInPlace()
            while let snapshot = snapshots.popLast() {
                let place = positions[snapshot.objectID].map(Int.init)
                keep(snapshot, at: place, capacity: capacity, readAt: readAt)
            }
        }

        /// Keeps `snapshot`, whose row is cached at `place` or not at all: a row cached at the
        /// same version stays, marked as used; one cached at another version is replaced; one not
        /// cached is taken.
        private mutating func keep(_ snapshot: consuming ObjectSnapshot, at place: Int?, capacity: Int, readAt: UInt64) {
            if let place {
                places[place].isMarked = true
                places[place].readAt = readAt
                if places[place].version != snapshot.version { self.place(snapshot, at: place, readAt: readAt) }
            } else {
                take(snapshot, capacity: capacity, readAt: readAt)
            }
        }

        /// Makes room once for `count` rows like `objectID`, growing by doubling: rows kept one
        /// at a time (a fault each) must not make the list and table grow by one row each time.
        private mutating func makeRoom(for count: Int, like objectID: ManagedObjectID, capacity: Int) {
            positions.reserveCapacity(adding: count, like: objectID, upTo: capacity)
            let room = min(capacity, self.count + count)
            if room > places.capacity { places.reserveCapacity(min(capacity, max(room, 2 * places.capacity))) }
        }

        /// Puts `snapshot` at `position`.
        private mutating func place(_ snapshot: consuming ObjectSnapshot, at position: Int, readAt: UInt64) {
            let version = snapshot.version
            places[position] = Place(snapshot: consume snapshot, version: version, readAt: readAt, isMarked: true)
        }

        /// Caches the row of `snapshot`, which the cache does not hold, in an empty place or one
        /// the hand frees.
        private mutating func take(_ snapshot: consuming ObjectSnapshot, capacity: Int, readAt: UInt64) {
            let position: Int
            if let empty = emptyPlaces.popLast() {
                position = empty
            } else if places.count < capacity {
                places.append(Place())
                position = places.count - 1
            } else {
                position = placeFreedByHand()
            }
            positions[snapshot.objectID] = Int32(truncatingIfNeeded: position)
            count += 1
            let version = snapshot.version
            places[position] = Place(snapshot: consume snapshot, version: version, readAt: readAt)
        }

        /// Goes round the full list, clearing marks, to the first unmarked row; forgets it and
        /// returns its place.
        private mutating func placeFreedByHand() -> Int {
            while true {
                let position = hand
                hand = hand + 1 == places.count ? 0 : hand + 1
                if places[position].isMarked {
                    places[position].isMarked = false
                } else {
                    if let evicted = places[position].snapshot {
                        positions[evicted.objectID] = nil
                        count -= 1
                    }
                    return position
                }
            }
        }

        /// Forgets the row of `objectID`.
        mutating func remove(_ objectID: ManagedObjectID) {
            guard let position = positions[objectID].map(Int.init) else { return }
            positions[objectID] = nil
            count -= 1
            places[position] = Place()
            emptyPlaces.append(position)
        }
    }

    /// A cache of at most `capacity` rows (and at most `Int32.max`, the most its tables number).
    init(capacity: Int) { self.capacity = min(max(0, capacity), Int(Int32.max)) }

    /// The time rows are stamped with: nanoseconds of a clock that only goes forward.
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The cached row of `objectID`, if it was read from its store at `readSince` (a time of
    /// ``now()``) or later.
    func snapshot(for objectID: ManagedObjectID, readSince: UInt64 = 0) -> ObjectSnapshot? {
        guard capacity > 0 else { return nil }
        return rows.withLock { rows in rows.count == 0 ? nil : rows.lookUp(objectID, readSince: readSince) }
    }

    /// The cached row `primaryKey` of `entityName` in the store `storeIdentifier` if it is at
    /// `version`.
    func snapshot(entityName: String, storeIdentifier: String, primaryKey: Int64, version: Int64) -> ObjectSnapshot? {
        guard capacity > 0 else { return nil }
        return rows.withLock { rows in
            rows.count == 0 ? nil
                : rows.lookUp(entityName: entityName, storeIdentifier: storeIdentifier, primaryKey: primaryKey, version: version)
        }
    }

    /// Whether any row of `entityName` in the store `storeIdentifier` is cached.
    func holdsRows(entityName: String, storeIdentifier: String) -> Bool {
        guard capacity > 0 else { return false }
        return rows.withLock { $0.holdsRows(entityName: entityName, storeIdentifier: storeIdentifier) }
    }

    /// Puts the cached rows of `objectIDs` read from their store at `readSince` or later into
    /// `found`, under one lock; returns the IDs it has no such row for, in order.
    func snapshots(for objectIDs: [ManagedObjectID], into found: inout [ManagedObjectID: ObjectSnapshot],
                   readSince: UInt64 = 0) -> [ManagedObjectID] {
        guard capacity > 0 else { return objectIDs }
        return rows.withLock { rows in
            guard rows.count > 0 else { return objectIDs }
            var missing: [ManagedObjectID] = []
            for id in objectIDs {
                if let cached = rows.lookUp(id, readSince: readSince) { found[id] = cached } else { missing.append(id) }
            }
            return missing
        }
    }

    /// Keeps `snapshots`, unless there are more of them than the cache holds; a row the cache
    /// holds at the same version stays as it is.
    func insert(_ snapshots: [ObjectSnapshot]) {
        guard capacity > 0, !snapshots.isEmpty, snapshots.count <= capacity else { return }
        let readAt = Self.now()
        rows.withLock { rows in
            snapshots.withUnsafeBufferPointer { rows.keep($0, capacity: capacity, readAt: readAt) }
        }
    }

    /// Keeps `snapshots` as ``insert(_:)`` does, moving them into the cache instead of copying
    /// them; the list is left empty.
    func insert(taking snapshots: inout [ObjectSnapshot]) {
        guard capacity > 0, !snapshots.isEmpty, snapshots.count <= capacity else { return }
        let readAt = Self.now()
        rows.withLock { rows in rows.keep(taking: &snapshots, capacity: capacity, readAt: readAt) }
    }

    /// Forgets the rows of `objectIDs`.
    func remove(_ objectIDs: some Sequence<ManagedObjectID>) {
        guard capacity > 0 else { return }
        rows.withLock { rows in
            guard rows.count > 0 else { return }
            for id in objectIDs { rows.remove(id) }
        }
    }

    /// Forgets every row.
    func removeAll() {
        rows.withLock { $0 = Rows() }
    }

    /// How many rows the cache holds now.
    var count: Int { rows.withLock { $0.count } }

    /// How many rows the cache's list has room for before it grows again: for tests of how it grows.
    var listCapacity: Int { rows.withLock { $0.listCapacity } }
}
