import Foundation

/// The objects of a controller's results, each in a slot: its ID (an index into a short table of
/// entity and store pairs, and a primary key) and its sort key values (one typed column per sort
/// descriptor, ``ResultKeyColumn``). About 12 bytes an object plus its keys' sizes, where an ID
/// and an array of values would take over a hundred.
///
/// An object's slot is found from its ID without a table by ID: the slots filled by the fetch are
/// listed once in primary key order and searched by halves (O(log n)); objects that join later
/// are looked up in a dictionary, which grows with the changes, not the results. A slot the fetch
/// filled is never given to another object (that would break the list's order): it stays vacant
/// until its object comes back. Slots of objects that joined later are used again.
struct ResultSlots {
    /// The ID of each slot: what a section's rows are read with.
    struct IDs {
        /// The entity and store pairs of the IDs.
        fileprivate var scopes: [ObjectIDScope] = []
        /// The pair of each slot, by index into ``scopes``; empty while every slot has pair 0.
        fileprivate var scopeOfSlot: [UInt32] = []
        /// The primary key of each slot (0 for a temporary ID).
        fileprivate var primaryKeys: [Int64] = []
        /// The temporary IDs, by slot.
        fileprivate var temporaryIDs: [UInt32: ManagedObjectID] = [:]

        /// The ID of the object in `slot`.
        func id(at slot: UInt32) -> ManagedObjectID {
            if !temporaryIDs.isEmpty, let temporary = temporaryIDs[slot] { return temporary }
            return ManagedObjectID(scopes[scopeIndex(slot)], primaryKey: primaryKeys[Int(slot)])
        }

        fileprivate func scopeIndex(_ slot: UInt32) -> Int {
            scopeOfSlot.isEmpty ? 0 : Int(scopeOfSlot[Int(slot)])
        }
    }

    let order: ResultOrder
    /// The IDs, kept apart from the keys: a section's description holds them (and its rows)
    /// to read its IDs when asked, and they change only when an object takes a new slot.
    private(set) var ids = IDs()
    /// One column per sort descriptor.
    private var columns: [ResultKeyColumn]
    /// The permanent slots filled before ``index()``, by scope then primary key.
    private var indexed: [UInt32] = []
    /// Slots filled after ``index()``, and temporary ones, by ID.
    private var later: [ManagedObjectID: UInt32] = [:]
    /// Indexed slots whose object left the results.
    private var vacant: Set<UInt32> = []
    /// Slots of ``later`` objects that left, to use again.
    private var free: [UInt32] = []

    init(order: ResultOrder) {
        self.order = order
        self.columns = Array(repeating: ResultKeyColumn(), count: order.descriptors.count)
    }

    /// How many slots there are (filled, vacant or free).
    var capacity: Int { ids.primaryKeys.count }

    /// Reserves room for `count` objects.
    mutating func reserveCapacity(_ count: Int) {
        ids.primaryKeys.reserveCapacity(count)
        for index in columns.indices { columns[index].reserveCapacity(count) }
    }

    // MARK: IDs

    /// The ID of the object in `slot`.
    func id(at slot: UInt32) -> ManagedObjectID { ids.id(at: slot) }

    /// The index of the scope of `id`, added when new.
    private mutating func scopeIndex(adding id: ManagedObjectID) -> UInt32 {
        if let found = scopeIndex(of: id) { return found }
        ids.scopes.append(id.scope)
        return UInt32(ids.scopes.count - 1)
    }

    private func scopeIndex(of id: ManagedObjectID) -> UInt32? {
        for (index, scope) in ids.scopes.enumerated() where scope === id.scope || scope.names(id.entityName, id.storeIdentifier) {
            return UInt32(index)
        }
        return nil
    }

    /// Writes `id` into `slot`.
    private mutating func setID(_ id: ManagedObjectID, at slot: UInt32) {
        let scope = scopeIndex(adding: id)
        if scope != 0, ids.scopeOfSlot.isEmpty { ids.scopeOfSlot = Array(repeating: 0, count: ids.primaryKeys.count) }
        if !ids.scopeOfSlot.isEmpty { ids.scopeOfSlot[Int(slot)] = scope }
        ids.primaryKeys[Int(slot)] = id.primaryKey ?? 0
        if id.isTemporaryID { ids.temporaryIDs[slot] = id } else if !ids.temporaryIDs.isEmpty { ids.temporaryIDs[slot] = nil }
    }

    // MARK: Keys

    /// The sort key values of `slot`.
    func key(at slot: UInt32) -> [PredicateValue] {
        columns.map { $0.value(at: Int(slot)) }
    }

    /// The value of the first sort key of `slot`.
    func firstValue(at slot: UInt32) -> PredicateValue {
        columns[0].value(at: Int(slot))
    }

    /// The order of two slots: by their keys, then by their IDs.
    func compare(_ lhs: UInt32, _ rhs: UInt32) -> ComparisonResult {
        if lhs == rhs { return .orderedSame }
        for (index, descriptor) in order.descriptors.enumerated() {
            let result = descriptor.compareValues(columns[index].value(at: Int(lhs)), columns[index].value(at: Int(rhs)))
            if result != .orderedSame { return result }
        }
        return ResultOrder.compareIDs(id(at: lhs), id(at: rhs))
    }

    // MARK: Filling and emptying

    /// Fills a new slot at the end (while the results are built, before ``index()``).
    mutating func append(_ id: ManagedObjectID, key: [PredicateValue]) {
        ids.primaryKeys.append(0)
        if !ids.scopeOfSlot.isEmpty { ids.scopeOfSlot.append(0) }
        setID(id, at: UInt32(ids.primaryKeys.count - 1))
        for (index, value) in key.enumerated() { columns[index].append(value) }
    }

    /// Lists the slots filled so far by ID, so that ``slot(of:)`` finds them.
    mutating func index() {
        var permanent: [UInt32] = []
        permanent.reserveCapacity(ids.primaryKeys.count - ids.temporaryIDs.count)
        for slot in 0..<UInt32(ids.primaryKeys.count) {
            if let temporary = ids.temporaryIDs[slot] { later[temporary] = slot } else { permanent.append(slot) }
        }
        permanent.sort { indexOrder($0) < indexOrder($1) }
        indexed = permanent
    }

    private func indexOrder(_ slot: UInt32) -> (Int, Int64) {
        (ids.scopeIndex(slot), ids.primaryKeys[Int(slot)])
    }

    /// The slot of `id` among the indexed ones, vacant or not.
    private func indexedSlot(of id: ManagedObjectID) -> UInt32? {
        guard let primaryKey = id.primaryKey, let scope = scopeIndex(of: id) else { return nil }
        let target = (Int(scope), primaryKey)
        var low = 0, high = indexed.count
        while low < high {
            let mid = (low + high) / 2
            if indexOrder(indexed[mid]) < target { low = mid + 1 } else { high = mid }
        }
        guard low < indexed.count, indexOrder(indexed[low]) == target else { return nil }
        return indexed[low]
    }

    /// The slot of the object `id`, if it is in the results.
    func slot(of id: ManagedObjectID) -> UInt32? {
        if let slot = later[id] { return slot }
        guard let slot = indexedSlot(of: id), !vacant.contains(slot) else { return nil }
        return slot
    }

    /// Puts `id` with `key` in a slot (its own old one if it had one) and returns it.
    mutating func add(_ id: ManagedObjectID, key: [PredicateValue]) -> UInt32 {
        let slot: UInt32
        if let existing = later[id] {
            slot = existing
        } else if let existing = indexedSlot(of: id) {
            slot = existing
            vacant.remove(existing)
        } else {
            if let reused = free.popLast() {
                slot = reused
            } else {
                slot = UInt32(ids.primaryKeys.count)
                ids.primaryKeys.append(0)
                if !ids.scopeOfSlot.isEmpty { ids.scopeOfSlot.append(0) }
                for index in columns.indices { columns[index].append(.null) }
            }
            setID(id, at: slot)
            later[id] = slot
        }
        for (index, value) in key.enumerated() { columns[index].set(value, at: Int(slot)) }
        return slot
    }

    /// Empties the slot of `id`.
    mutating func remove(_ id: ManagedObjectID, from slot: UInt32) {
        for index in columns.indices { columns[index].set(.null, at: Int(slot)) }
        if later.removeValue(forKey: id) != nil {
            ids.temporaryIDs[slot] = nil
            free.append(slot)
        } else {
            vacant.insert(slot)
        }
    }
}
