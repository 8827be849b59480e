/// Values by permanent object ID: a ``PrimaryKeyTable`` for each entity of each store, used like
/// a dictionary keyed by the ID. What a context's registry keeps its objects in, and what the
/// coordinator's row cache keeps its rows' places in.
///
/// A dictionary keyed by the whole ID hashes it and compares entity names and store UUIDs for
/// every lookup; here the table is found by the ID's scope, and the value by its key alone. The
/// IDs of one entity in one store share one ``ObjectIDScope``, and lookups come in runs of one or
/// two entities (a fetched object and its to-ones' destinations): the two tables found last
/// answer a run by comparing scope references, then names' words, without copying (retaining) a
/// name. Temporary IDs have no primary key and no place here.
struct PrimaryKeyTables<Entry> {
    private var tables: [PrimaryKeyTable<Entry>] = []
    /// The index in `tables` of each store's table of each entity, by store identifier and then
    /// entity name.
    private var tableIndexes = NameMap<NameMap<Int>>()
    /// The two tables found last through `tableIndexes`, with the words of the names they were
    /// found by.
    private var recentTable: (store: NameBits, entity: NameBits, index: Int)?
    private var earlierTable: (store: NameBits, entity: NameBits, index: Int)?
    /// The names whose words ``recentTable`` and ``earlierTable`` hold, kept so that the words
    /// stay theirs (never read).
    private var recentNames: (store: String, entity: String)?
    private var earlierNames: (store: String, entity: String)?
    /// The two ID scopes whose tables were found last, compared first: the IDs of a run share
    /// one scope, found by comparing one reference.
    private var recentScope: (scope: ObjectIDScope, index: Int)?
    private var earlierScope: (scope: ObjectIDScope, index: Int)?

    /// The index of the table of `entityName` in the store `storeIdentifier` (none: a temporary
    /// ID's); with `creating`, a new empty table when there is none. The two tables found last are
    /// compared here, in the caller; the others are looked up by name.
    @inline(__always)
    private mutating func tableIndex(entityName: String, storeIdentifier: String?, creating: Bool) -> Int? {
        let entityBits = NameBits(entityName)
        let storeBits = storeIdentifier.map(NameBits.init) ?? NameBits("")
        if entityBits.isComparable {
            if let recent = recentTable, recent.entity == entityBits, recent.store == storeBits { return recent.index }
            if let earlier = earlierTable, earlier.entity == entityBits, earlier.store == storeBits { return earlier.index }
        }
        return namedTableIndex(entityName: entityName, storeIdentifier: storeIdentifier ?? "", creating: creating)
    }

    /// The index of the table of `entityName` in the store `storeIdentifier`, looked up by name
    /// and remembered as the recent one.
    private mutating func namedTableIndex(entityName: String, storeIdentifier: String, creating: Bool) -> Int? {
        if let known = tableIndexes[storeIdentifier]?[entityName] {
            remember(storeIdentifier, entityName, known)
            return known
        }
        guard creating else { return nil }
        let index = tables.count
        tables.append(PrimaryKeyTable())
        tableIndexes.modify(storeIdentifier, default: [:]) { $0[entityName] = index }
        remember(storeIdentifier, entityName, index)
        return index
    }

    /// The index of the table of the entity and store of `objectID`, a permanent ID.
    @inline(__always)
    private mutating func tableIndex(of objectID: ManagedObjectID, creating: Bool) -> Int? {
        if let recentScope, recentScope.scope === objectID.scope { return recentScope.index }
        if let earlierScope, earlierScope.scope === objectID.scope { return earlierScope.index }
        return scopeTableIndex(of: objectID, creating: creating)
    }

    /// The index of the table of `objectID`'s scope, found by its names and remembered with the
    /// scope.
    private mutating func scopeTableIndex(of objectID: ManagedObjectID, creating: Bool) -> Int? {
        let scope = objectID.scope
        guard let index = tableIndex(entityName: scope.entityName, storeIdentifier: scope.storeIdentifier, creating: creating) else {
            return nil
        }
        earlierScope = recentScope
        recentScope = (scope, index)
        return index
    }

    /// Makes a table the recent one, the recent one the earlier one.
    private mutating func remember(_ store: String, _ entity: String, _ index: Int) {
        earlierTable = recentTable
        earlierNames = recentNames
        recentTable = (NameBits(store), NameBits(entity), index)
        recentNames = (store, entity)
    }

    /// The value for `objectID`; assigning nil removes it. Nil for a temporary ID, which setting
    /// ignores.
    subscript(objectID: ManagedObjectID) -> Entry? {
        mutating get {
            guard let key = objectID.primaryKey, let index = tableIndex(of: objectID, creating: false) else { return nil }
            return tables[index][key]
        }
        set {
            guard let key = objectID.primaryKey,
                  let index = tableIndex(of: objectID, creating: newValue != nil) else { return }
            tables[index][key] = newValue
        }
    }

    /// Keeps `entry` for `objectID`, a permanent ID, and returns the value it replaces, if any.
    mutating func updateValue(_ entry: Entry, for objectID: ManagedObjectID) -> Entry? {
        guard let key = objectID.primaryKey, let index = tableIndex(of: objectID, creating: true) else { return nil }
        return tables[index].updateValue(entry, forKey: key)
    }

    /// Removes the value for `objectID`, a permanent ID, and returns it, if there was one.
    mutating func removeValue(for objectID: ManagedObjectID) -> Entry? {
        guard let key = objectID.primaryKey, let index = tableIndex(of: objectID, creating: false) else { return nil }
        return tables[index].removeValue(forKey: key)
    }

    /// The value for `objectID`, a permanent ID, or the one `make` gives, kept for it: one look-up
    /// of the table and the key for both.
    mutating func value(for objectID: ManagedObjectID, orInsert make: () throws -> Entry) rethrows -> Entry {
        guard let key = objectID.primaryKey, let index = tableIndex(of: objectID, creating: true) else { return try make() }
        return try tables[index].value(for: key, orInsert: make)
    }

    /// The value for the row `primaryKey` of `entityName` in the store `storeIdentifier`: that of
    /// the row's ID, found without making the ID.
    mutating func value(entityName: String, storeIdentifier: String, primaryKey: Int64) -> Entry? {
        guard let index = tableIndex(entityName: entityName, storeIdentifier: storeIdentifier, creating: false) else { return nil }
        return tables[index][primaryKey]
    }

    /// Removes the value for `objectID`, a permanent ID, if `isHeld` accepts it.
    mutating func remove(_ objectID: ManagedObjectID, if isHeld: (Entry) -> Bool) {
        guard let key = objectID.primaryKey, let index = tableIndex(of: objectID, creating: false) else { return }
        tables[index].remove(key, if: isHeld)
    }

    /// Whether any value is kept for an ID of `entityName` in the store `storeIdentifier`.
    func holdsValues(entityName: String, storeIdentifier: String) -> Bool {
        guard let index = tableIndexes[storeIdentifier]?[entityName] else { return false }
        return tables[index].count > 0
    }

    /// Makes room for `count` more values of the entity and store of `objectID`, up to `limit`
    /// of them in all: what a fetch of that many rows, usually of one entity, asks first. Tables
    /// grow by doubling.
    mutating func reserveCapacity(adding count: Int, like objectID: ManagedObjectID, upTo limit: Int = .max) {
        guard objectID.primaryKey != nil, let index = tableIndex(of: objectID, creating: true) else { return }
        tables[index].reserveCapacity(min(limit, tables[index].count + count))
    }

    /// How many values are kept.
    var count: Int { tables.reduce(0) { $0 + $1.count } }

    /// The values kept for the entities `includes` accepts, by entity name, that `isChosen`
    /// accepts.
    /// Whether any table of an entity `includes` accepts holds an entry, without reading one.
    func holdsValues(ofEntities includes: (String) -> Bool) -> Bool {
        for (_, indexes) in tableIndexes {
            for (entity, index) in indexes where tables[index].count > 0 && includes(entity) { return true }
        }
        return false
    }

    func values(ofEntities includes: (String) -> Bool, where isChosen: (Entry) -> Bool = { _ in true }) -> [Entry] {
        var values: [Entry] = []
        for (_, indexes) in tableIndexes {
            for (entity, index) in indexes where includes(entity) {
                for value in tables[index].entries where isChosen(value) { values.append(value) }
            }
        }
        return values
    }
}
