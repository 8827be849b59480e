/// Values by primary key, for one entity in one store: the registry's unretained objects
/// (``ObjectRegistry``), the row cache's places (``RowCache``).
///
/// Open addressing with linear probing, in Robin Hood order (along a run of occupied slots the
/// entries' home slots never go down: an insertion passes no entry farther from its home than
/// itself), so a lookup stops at the first entry closer to its home than the key would be, and a
/// removal shifts entries back only up to the first one at its home. A key's home slot is first
/// the key itself (its low bits): the keys of a fetch usually come in ascending order, so
/// consecutive objects land in consecutive slots, and registering a hundred thousand objects
/// walks the table once instead of missing the cache at every object. Keys that crowd together
/// under that rule (a store file crafted so that they do, or keys that are far apart by a
/// multiple of the table's size) make long runs of probes: the first insertion that probes more
/// than ``spreadingThreshold`` slots switches the table, once and for good, to spreading keys by
/// mixing them with a seed drawn once per process (SplitMix64's finalizer: two multiplications),
/// which keeps a crafted file's keys from being chosen to collide. A dictionary hashes each
/// `Int64` key with SipHash, about a hundred instructions, for every lookup of a fetched row and
/// its to-ones.
///
/// Before all that, a table is *direct*: the entry of key `k` sits at index `k` of an array of
/// entries alone, no key beside it, half the bytes of a slot. A store numbers an entity's rows
/// from 1, so the keys of a fetch of a whole entity fill such an array: a million registered
/// objects take 8 MB of it where slots take 16 MiB. The array grows only while it stays at
/// least half full of the entries held or announced (``reserveCapacity(_:)``); the first key
/// that would leave it sparser (or a negative one) turns the table into slots, once and for good.
struct PrimaryKeyTable<Entry> {
    /// One place of the table: empty when `entry` is nil.
    private struct Slot {
        var key: Int64
        var entry: Entry?
    }

    /// While the table is direct (``isDirect``), the entry of each key at the key's index.
    private var direct: [Entry?] = []
    /// Whether entries are kept in `direct` by key, rather than in `slots`.
    private(set) var isDirect = true
    /// How many entries the last ``reserveCapacity(_:)`` announced: a direct table may grow to
    /// twice as many places.
    private var announced = 0
    /// The fewest places a direct table may grow to whatever it holds: a small table costs little
    /// however sparse.
    static var directMinimum: Int { 64 }

    private var slots: [Slot] = []
    /// `64 − log2(slots.count)`: the top bits of the product pick the slot.
    private var shift = 64
    /// How many values the table holds.
    private(set) var count = 0
    /// Whether keys are spread by mixing them with the seed, rather than placed by their low bits.
    private(set) var spreadsKeys = false
    /// The most slots an insertion probes before the table switches to spreading keys.
    static var spreadingThreshold: Int { PrimaryKeySpreading.threshold }

    /// The seed keys are mixed with.
    private let seed: UInt64

    /// An empty table with the process's seed.
    init() { seed = PrimaryKeySpreading.processSeed }

    /// An empty table with `seed`, of slots from the start: for tests that need to know where
    /// keys go.
    init(seed: UInt64) {
        self.seed = seed
        isDirect = false
    }

    /// The slot where probing for `key` starts.
    @inline(__always)
    func home(of key: Int64) -> Int {
        guard spreadsKeys else { return Int(truncatingIfNeeded: key) & (slots.count &- 1) }
        var mixed = UInt64(bitPattern: key) ^ seed
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: (mixed ^ (mixed >> 31)) >> UInt64(shift))
    }

    /// How far the entry in the occupied slot `index` is from its home.
    @inline(__always)
    private func distance(at index: Int) -> Int {
        (index &- home(of: slots[index].key)) & (slots.count &- 1)
    }

    /// The slot holding `key`, or nil.
    private func slot(of key: Int64) -> Int? {
        guard count > 0 else { return nil }
        let mask = slots.count - 1
        var index = home(of: key)
        var travelled = 0
        while let _ = slots[index].entry {
            if slots[index].key == key { return index }
            // An entry nearer its home than `key` would be: `key` would have taken its place.
            if distance(at: index) < travelled { return nil }
            index = (index + 1) & mask
            travelled += 1
        }
        return nil
    }

    /// The value for `key`; assigning nil removes it.
    subscript(key: Int64) -> Entry? {
        get {
            if isDirect { return key >= 0 && key < direct.count ? direct[Int(key)] : nil }
            return slot(of: key).flatMap { slots[$0].entry }
        }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeValue(forKey: key) }
        }
    }

    /// Keeps `entry` for `key` and returns the value it replaces, if any.
    @discardableResult
    mutating func updateValue(_ entry: Entry, forKey key: Int64) -> Entry? {
        if isDirect, key >= 0, key < direct.count, let replaced = direct[Int(key)] {
            direct[Int(key)] = entry
            return replaced
        }
        if !isDirect, let index = slot(of: key) {
            defer { slots[index].entry = entry }
            return slots[index].entry
        }
        insertNew(entry, for: key)
        return nil
    }

    /// Removes the value for `key` and returns it, if there was one.
    @discardableResult
    mutating func removeValue(forKey key: Int64) -> Entry? {
        if isDirect {
            guard key >= 0, key < direct.count, let entry = direct[Int(key)] else { return nil }
            direct[Int(key)] = nil
            count -= 1
            return entry
        }
        guard let index = slot(of: key) else { return nil }
        defer { removeSlot(at: index) }
        return slots[index].entry
    }

    /// Removes `key` if its value is one `isHeld` accepts.
    mutating func remove(_ key: Int64, if isHeld: (Entry) -> Bool) {
        if isDirect {
            guard key >= 0, key < direct.count, let entry = direct[Int(key)], isHeld(entry) else { return }
            direct[Int(key)] = nil
            count -= 1
            return
        }
        guard let index = slot(of: key), let entry = slots[index].entry, isHeld(entry) else { return }
        removeSlot(at: index)
    }

    /// Every value the table holds, read as iterated: a walk of a million entries makes no list
    /// of them.
    var entries: some Sequence<Entry> {
        let (direct, slots) = (self.direct, self.slots)
        return (0..<max(direct.count, slots.count)).lazy.compactMap { index in
            index < direct.count ? direct[index] : slots[index].entry
        }
    }

    /// Makes room for `capacity` values without growing again, when their keys are at most
    /// `capacity` (a store numbers an entity's rows from 1, so a fetch of a whole entity is
    /// such keys) or the table is at most three quarters full with them. A direct table takes
    /// `capacity` as the entries to expect: it may grow to twice as many places.
    mutating func reserveCapacity(_ capacity: Int) {
        if isDirect {
            // The keys are not known yet: room for keys up to `capacity` (a fetch of a whole
            // entity), and leave to grow to twice as many.
            announced = max(announced, capacity)
            if capacity >= direct.count { direct.reserveCapacity(capacity + 1) }
            return
        }
        // Keys placed by their low bits that are below the table's size never collide: each has
        // a home of its own, and the table need not keep a quarter of its slots free for them.
        // Keys spread by mixing do collide, and keep it.
        var size = 8
        while size <= capacity || (spreadsKeys && size * 3 < capacity * 4) { size *= 2 }
        if size > slots.count { resize(to: size) }
    }

    /// The value for `key`, or the one `make` gives, kept for it: one look-up for both.
    mutating func value(for key: Int64, orInsert make: () throws -> Entry) rethrows -> Entry {
        // One call of `make`, between the look-up and the insertion, as simple as can be: a
        // caller's closure inlined into more places keeps its captures alive (retained) in each.
        if let entry = self[key] { return entry }
        let entry = try make()
        insertNew(entry, for: key)
        return entry
    }

    /// Keeps `entry` for `key`, which the table does not hold.
    private mutating func insertNew(_ entry: Entry, for key: Int64) {
        if isDirect, makeDirectPlace(for: key) {
            direct[Int(key)] = entry
            count += 1
            return
        }
        // Grown first when the table would be more than three quarters full, unless the key
        // goes to its home slot, free, without probing: keys placed by their low bits (the usual
        // run of an entity's keys from 1) then fill the table without colliding. A key whose
        // home is taken grows such a table as any other.
        if (count + 1) * 4 > slots.count * 3, !hasFreeHome(key) { resize(to: max(8, slots.count * 2)) }
        place(Slot(key: key, entry: entry))
    }

    /// Whether `key` is placed by its low bits and its home slot is free.
    @inline(__always)
    private func hasFreeHome(_ key: Int64) -> Bool {
        !spreadsKeys && count < slots.count && slots[home(of: key)].entry == nil
    }

    /// Puts `slot`, whose key the table does not hold, in Robin Hood order: it goes past the
    /// entries at least as far from their homes as itself and takes the place of the first one
    /// nearer, which moves on in its stead.
    private mutating func place(_ slot: Slot) {
        let mask = slots.count - 1
        var moving = slot
        var index = home(of: moving.key)
        var travelled = 0
        while let _ = slots[index].entry {
            let resident = distance(at: index)
            if resident < travelled {
                swap(&moving, &slots[index])
                travelled = resident
            }
            index = (index + 1) & mask
            travelled += 1
            if travelled > Self.spreadingThreshold, !spreadsKeys {
                // Keys crowd together by their low bits: spread them all, and the one moving too.
                // Spread keys collide, so the table is again at most three quarters full.
                spreadsKeys = true
                resize(to: (count + 1) * 4 > slots.count * 3 ? slots.count * 2 : slots.count)
                return place(moving)
            }
        }
        slots[index] = moving
        count += 1
    }

    /// Empties the slot at `index`, moving the following entries of its run back by one until
    /// one is at its home (Robin Hood order: no entry after it can move nearer its own).
    private mutating func removeSlot(at index: Int) {
        let mask = slots.count - 1
        var hole = index
        var next = (index + 1) & mask
        while let _ = slots[next].entry, distance(at: next) > 0 {
            slots[hole] = slots[next]
            hole = next
            next = (next + 1) & mask
        }
        slots[hole].entry = nil
        count -= 1
    }

    /// Whether every run of occupied slots keeps its entries' homes in order (each entry at most
    /// one slot farther from its home than the one before it, the first of a run at its home):
    /// what lookups and removals rely on to stop early. For tests.
    var isInRobinHoodOrder: Bool {
        slots.indices.allSatisfy { index in
            guard slots[index].entry != nil else { return true }
            let previous = (index &- 1) & (slots.count &- 1)
            let limit = slots[previous].entry == nil ? 0 : distance(at: previous) + 1
            return distance(at: index) <= limit
        }
    }

    /// Whether `key` has a place in the direct array, made if the array may grow to it; when it
    /// may not, the table turns into slots and the answer is false.
    @inline(__always)
    private mutating func makeDirectPlace(for key: Int64) -> Bool {
        if key >= 0, key < direct.count { return true }
        let (doubled, overflow) = max(count + 1, announced).multipliedReportingOverflow(by: 2)
        let places = overflow ? Int.max : max(Self.directMinimum, doubled)
        guard key >= 0, key < places else {
            turnIntoSlots()
            return false
        }
        // Keys come mostly in ascending order, each the next index: one place appended.
        if Int(key) == direct.count {
            direct.append(nil)
        } else {
            direct.append(contentsOf: repeatElement(nil, count: Int(key) + 1 - direct.count))
        }
        return true
    }

    /// Moves the entries of the direct array into slots, for good.
    private mutating func turnIntoSlots() {
        let held = direct
        direct = []
        isDirect = false
        reserveCapacity(max(count, announced))
        count = 0
        for (key, entry) in held.enumerated() {
            if let entry { insertNew(entry, for: Int64(key)) }
        }
    }

    private mutating func resize(to size: Int) {
        let old = slots
        slots = Array(repeating: Slot(key: 0, entry: nil), count: size)
        shift = 64 - size.trailingZeroBitCount
        count = 0
        for slot in old where slot.entry != nil { place(slot) }
    }
}

/// What every ``PrimaryKeyTable`` shares, whatever it holds.
private enum PrimaryKeySpreading {
    /// The most slots an insertion probes before a table switches to spreading keys.
    static let threshold = 48

    /// The seed of this process's tables.
    static let processSeed: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }()
}
