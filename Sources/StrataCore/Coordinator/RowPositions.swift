/// Where the row cache keeps each row: the place of a row by its object ID, in one table by
/// primary key for each entity of each store (``PrimaryKeyTable``), used like a dictionary.
///
/// A dictionary keyed by the whole ID hashes the key with SipHash and compares entity names and
/// store UUIDs for every lookup, in buckets four times the size of these slots; here the table is
/// found by comparing names with the last one used (a fetch's rows are of one entity), and the
/// row by its key alone.
struct RowPositions {
    /// The places of one entity's rows in one store.
    private struct Table {
        let storeIdentifier: String
        let entityName: String
        var places: PrimaryKeyTable<Int32>

        func holds(_ objectID: ManagedObjectID) -> Bool {
            entityName == objectID.entityName && storeIdentifier == objectID.storeIdentifier
        }

        func holds(entityName: String, storeIdentifier: String) -> Bool {
            self.entityName == entityName && self.storeIdentifier == storeIdentifier
        }
    }

    private var tables: [Table] = []
    /// The table found last.
    private var lastTable = 0
    /// How many rows have a place.
    private(set) var count = 0

    /// The index in `tables` of the table of `objectID`'s entity and store; with `creating`, a
    /// new empty one when there is none. Nil for a temporary ID, which no row has.
    private mutating func tableIndex(of objectID: ManagedObjectID, creating: Bool) -> Int? {
        if lastTable < tables.count, tables[lastTable].holds(objectID) { return lastTable }
        if let index = tables.firstIndex(where: { $0.holds(objectID) }) {
            lastTable = index
            return index
        }
        guard creating, let store = objectID.storeIdentifier else { return nil }
        tables.append(Table(storeIdentifier: store, entityName: objectID.entityName, places: PrimaryKeyTable()))
        lastTable = tables.count - 1
        return lastTable
    }

    /// The place of the row of `objectID`; assigning nil forgets it.
    subscript(objectID: ManagedObjectID) -> Int? {
        mutating get {
            guard let key = objectID.primaryKey, let table = tableIndex(of: objectID, creating: false) else { return nil }
            return tables[table].places[key].map(Int.init)
        }
        set {
            guard let key = objectID.primaryKey, let table = tableIndex(of: objectID, creating: newValue != nil) else { return }
            let before = tables[table].places.count
            tables[table].places[key] = newValue.map { Int32(truncatingIfNeeded: $0) }
            count += tables[table].places.count - before
        }
    }

    /// The place of the row `primaryKey` of `entityName` in the store `storeIdentifier`: the
    /// place of that row's ID, found without making the ID.
    mutating func position(entityName: String, storeIdentifier: String, primaryKey: Int64) -> Int? {
        let table: Int
        if lastTable < tables.count, tables[lastTable].holds(entityName: entityName, storeIdentifier: storeIdentifier) {
            table = lastTable
        } else if let index = tables.firstIndex(where: { $0.holds(entityName: entityName, storeIdentifier: storeIdentifier) }) {
            table = index
            lastTable = index
        } else {
            return nil
        }
        return tables[table].places[primaryKey].map(Int.init)
    }

    /// Whether any row of `entityName` in the store `storeIdentifier` has a place.
    func holdsRows(entityName: String, storeIdentifier: String) -> Bool {
        tables.contains { $0.places.count > 0 && $0.holds(entityName: entityName, storeIdentifier: storeIdentifier) }
    }

    /// Forgets the row of `objectID`; returns the place it had.
    @discardableResult
    mutating func removeValue(forKey objectID: ManagedObjectID) -> Int? {
        guard let place = self[objectID] else { return nil }
        self[objectID] = nil
        return place
    }

    /// Makes room for `count` more rows of the entity and store of `objectID`, up to `limit` rows
    /// of them in all. The table grows by doubling.
    mutating func reserveCapacity(adding count: Int, like objectID: ManagedObjectID, upTo limit: Int) {
        guard objectID.primaryKey != nil, let table = tableIndex(of: objectID, creating: true) else { return }
        tables[table].places.reserveCapacity(min(limit, tables[table].places.count + count))
    }
}
