/// The objects a context holds, by ID: one instance per ID while the object is alive (uniquing).
///
/// The registry does not keep its objects alive, as Core Data's context does not: an object
/// stays registered while something uses it. Objects with unsaved changes are held strongly by
/// the context's `insertedObjects`, `updatedObjects` and `deletedObjects`, so they stay; an
/// unchanged object, or a fault, that nothing references any more is freed, and the next lookup
/// of its ID makes a new fault.
///
/// The references are unowned and unretained, without the cost of weak references: a registered
/// object unregisters itself when it is freed (``ManagedObject``'s `deinit` calls
/// ``remove(_:ifHolding:)`` while its context holds it), and a context unregisters an object
/// before cutting it loose (`detach()` clears the object's context), or empties the registry
/// when it lets go of all its objects at once (a reset, or the context going). So every entry
/// is a live object.
///
/// Objects with permanent IDs are kept in one table per entity and store, by primary key
/// (``PrimaryKeyTable``): an entry is a key and a reference, and a table is found by comparing
/// names, not hashing them. Objects with
/// temporary IDs (inserted and not yet saved) are listed as they are registered and put in a
/// table of their own only when a temporary ID is looked up or removed: a save that gives every
/// listed object its permanent ID, in the order they were listed, drops the list without
/// hashing a temporary ID.
struct ObjectRegistry {
    typealias Entry = Unmanaged<ManagedObject>

    private var tables: [PrimaryKeyTable<Entry>] = []
    /// The index in `tables` of each store's table of each entity, by store identifier and then
    /// entity name: IDs a store made name them with the very strings the first one did, so
    /// they are found by comparing names (a context holds objects of few entities and stores).
    private var tableIndexes = NameMap<NameMap<Int>>()
    /// The two tables found last through `tableIndexes`, with the words of the names they were
    /// found by: lookups come in runs of one or two entities (a fetched object and its to-ones'
    /// destinations), and these answer a run by comparing words. Only words are compared, so
    /// that a lookup copies (retains) no name.
    private var recentTable: (store: NameBits, entity: NameBits, index: Int)?
    private var earlierTable: (store: NameBits, entity: NameBits, index: Int)?
    /// The names whose words ``recentTable`` and ``earlierTable`` hold, kept so that the words
    /// stay theirs (never read).
    private var recentNames: (store: String, entity: String)?
    private var earlierNames: (store: String, entity: String)?
    private var temporary: [ManagedObjectID: Entry] = [:]
    /// Objects registered by temporary IDs and not yet put in `temporary`, in order.
    private var temporaryBacklog: [(id: ManagedObjectID, entry: Entry)] = []

    /// Puts the backlog of temporary IDs in their table: before any lookup or removal by one.
    private mutating func fileTemporaryBacklog() {
        guard !temporaryBacklog.isEmpty else { return }
        temporary.reserveCapacity(temporary.count + temporaryBacklog.count)
        for (id, entry) in temporaryBacklog { temporary[id] = entry }
        temporaryBacklog = []
    }

    /// The index of the table for the entity and store of `objectID`, a permanent ID; with
    /// `creating`, a new empty table when there is none.
    private mutating func tableIndex(of objectID: ManagedObjectID, creating: Bool) -> Int? {
        let entityBits = NameBits(objectID.entityName)
        let storeBits = objectID.storeIdentifier.map(NameBits.init) ?? NameBits("")
        if entityBits.isComparable {
            if let recent = recentTable, recent.entity == entityBits, recent.store == storeBits { return recent.index }
            if let earlier = earlierTable, earlier.entity == entityBits, earlier.store == storeBits { return earlier.index }
        }
        let store = objectID.storeIdentifier ?? ""
        if let known = tableIndexes[store]?[objectID.entityName] {
            remember(store, objectID.entityName, known)
            return known
        }
        guard creating else { return nil }
        let index = tables.count
        tables.append(PrimaryKeyTable())
        tableIndexes.modify(store, default: [:]) { $0[objectID.entityName] = index }
        remember(store, objectID.entityName, index)
        return index
    }

    /// Makes a table the recent one, the recent one the earlier one.
    private mutating func remember(_ store: String, _ entity: String, _ index: Int) {
        earlierTable = recentTable
        earlierNames = recentNames
        recentTable = (NameBits(store), NameBits(entity), index)
        recentNames = (store, entity)
    }

    /// The object registered for `objectID`; assigning nil unregisters it.
    subscript(objectID: ManagedObjectID) -> ManagedObject? {
        mutating get {
            guard let key = objectID.primaryKey else {
                fileTemporaryBacklog()
                return temporary[objectID]?.takeUnretainedValue()
            }
            guard let index = tableIndex(of: objectID, creating: false) else { return nil }
            return tables[index][key]?.takeUnretainedValue()
        }
        set {
            if let newValue {
                register(Entry.passUnretained(newValue), for: objectID)
            } else if let key = objectID.primaryKey {
                guard let index = tableIndex(of: objectID, creating: false) else { return }
                tables[index][key] = nil
            } else {
                fileTemporaryBacklog()
                temporary[objectID] = nil
            }
        }
    }

    /// Registers the object of `entry` for `objectID`, without retaining it (nor reading it).
    private mutating func register(_ entry: Entry, for objectID: ManagedObjectID) {
        guard let key = objectID.primaryKey else {
            fileTemporaryBacklog()
            temporary[objectID] = entry
            return
        }
        guard let index = tableIndex(of: objectID, creating: true) else { return }
        tables[index][key] = entry
    }

    /// Every registered object (strong references, so they stay alive while in use).
    var objects: [ManagedObject] { objects(inTablesOf: { _ in true }) }

    /// The objects of the entities named in `entityNames`, and every object not yet saved
    /// (held by temporary ID).
    func objects(ofEntities entityNames: Set<String>) -> [ManagedObject] {
        objects(inTablesOf: { entityNames.contains($0) })
    }

    /// The objects of the tables whose entity `includes`, and every object held by temporary ID.
    private func objects(inTablesOf includes: (String) -> Bool) -> [ManagedObject] {
        var objects: [ManagedObject] = []
        for (_, indexes) in tableIndexes {
            for (entity, index) in indexes where includes(entity) {
                for entry in tables[index].entries { objects.append(entry.takeUnretainedValue()) }
            }
        }
        for entry in temporary.values { objects.append(entry.takeUnretainedValue()) }
        for (_, entry) in temporaryBacklog { objects.append(entry.takeUnretainedValue()) }
        return objects
    }

    /// How many objects are registered.
    var count: Int { tables.reduce(temporary.count + temporaryBacklog.count) { $0 + $1.count } }

    /// Registers a newly inserted object by its temporary ID, which no object has yet.
    mutating func register(inserted object: ManagedObject) {
        temporaryBacklog.append((object.objectID, Entry.passUnretained(object)))
    }

    /// Unregisters everything.
    mutating func removeAll() {
        self = ObjectRegistry()
    }

    /// Unregisters `objectID` if `object` is what it is registered to: what a freed object asks.
    mutating func remove(_ objectID: ManagedObjectID, ifHolding object: Entry) {
        guard let key = objectID.primaryKey else {
            fileTemporaryBacklog()
            if let index = temporary.index(forKey: objectID), temporary.values[index].toOpaque() == object.toOpaque() {
                temporary.remove(at: index)
            }
            return
        }
        guard let table = tableIndex(of: objectID, creating: false) else { return }
        tables[table].remove(key, ifHolding: object)
    }

    /// Whether `objects`, registered by `previousIDs`, are exactly the listed inserts, in order:
    /// compared by reference, without reading the objects themselves.
    private func isBacklog(of objects: [ManagedObject], from previousIDs: [ManagedObjectID]) -> Bool {
        for index in objects.indices {
            let listed = temporaryBacklog[index]
            guard listed.entry.toOpaque() == Entry.passUnretained(objects[index]).toOpaque(),
                  listed.id == previousIDs[index] else { return false }
        }
        return true
    }

    /// Makes room for `count` more objects in the table of the entity and store of `objectID`:
    /// what a fetch of that many rows, usually of one entity, asks before registering them.
    mutating func reserveCapacity(_ count: Int, like objectID: ManagedObjectID) {
        guard objectID.primaryKey != nil, let index = tableIndex(of: objectID, creating: true) else { return }
        tables[index].reserveCapacity(tables[index].count + count)
    }

    /// Registers `objects`, registered until now by `previousIDs`, by `newIDs` (the IDs they
    /// carry now), without reading the objects: a save's inserted objects are many, and their
    /// memory has long left the cache.
    mutating func rekey(_ objects: [ManagedObject], from previousIDs: [ManagedObjectID], to newIDs: [ManagedObjectID]) {
        precondition(previousIDs.count == objects.count && newIDs.count == objects.count, "one previous and one new ID per object")
        if temporary.isEmpty, temporaryBacklog.count == objects.count, !newIDs.contains(where: \.isTemporaryID),
           isBacklog(of: objects, from: previousIDs) {
            // Exactly the listed inserts, in order, now permanent: nothing temporary is left.
            temporaryBacklog = []
            for index in objects.indices { register(Entry.passUnretained(objects[index]), for: newIDs[index]) }
            return
        }
        // Otherwise entry by entry, each previous entry removed only if it is still the object's.
        for index in objects.indices where previousIDs[index] != newIDs[index] {
            remove(previousIDs[index], ifHolding: Entry.passUnretained(objects[index]))
            register(Entry.passUnretained(objects[index]), for: newIDs[index])
        }
    }
}
