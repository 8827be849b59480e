/// The objects a context holds, by ID: one instance per ID while the object is alive (uniquing).
///
/// The registry does not keep its objects alive, as Core Data's context does not: an object
/// stays registered while something uses it. Objects with unsaved changes are held strongly by
/// the context's `insertedObjects`, `updatedObjects` and `deletedObjects`, so they stay; an
/// unchanged object, or a fault, that nothing references any more is freed, and the next lookup
/// of its ID makes a new fault.
///
/// The references are unowned and unretained, without the cost of weak references: a registered
/// object that is freed lists itself with its context (``ManagedObjectContext/freedObjects``), and
/// the context takes those entries out (``remove(_:ifHolding:)``) before it next uses the
/// registry; a context unregisters an object before cutting it loose (`detach()` clears the
/// object's context), or empties the registry when it lets go of all its objects at once (a
/// reset, or the context going). So every entry the context reads is a live object. Each object
/// knows whether it is registered (``ManagedObject/isRegistered``, kept here), so that the freed
/// ones listed are exactly the entries of freed objects.
///
/// Objects with permanent IDs are kept in one table per entity and store, by primary key
/// (``PrimaryKeyTables``): an entry is a key and a reference, and a table is found by comparing
/// names, not hashing them. Objects with
/// temporary IDs (inserted and not yet saved) are listed as they are registered and put in a
/// table of their own only when a temporary ID is looked up or removed: a save that gives every
/// listed object its permanent ID, in the order they were listed, drops the list without
/// hashing a temporary ID.
struct ObjectRegistry {
    typealias Entry = Unmanaged<ManagedObject>

    /// Objects with permanent IDs, by primary key, a table for each entity of each store.
    private var permanent = PrimaryKeyTables<Entry>()
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

    /// The object registered for `objectID`; assigning nil unregisters it.
    subscript(objectID: ManagedObjectID) -> ManagedObject? {
        mutating get {
            guard objectID.primaryKey != nil else {
                fileTemporaryBacklog()
                return temporary[objectID]?.takeUnretainedValue()
            }
            return permanent[objectID]?.takeUnretainedValue()
        }
        set {
            if let newValue {
                newValue.isRegistered = true
                register(Entry.passUnretained(newValue), for: objectID)
            } else {
                unregister(objectID)
            }
        }
    }

    /// Unregisters the object registered for `objectID`, which is alive, if there is one.
    private mutating func unregister(_ objectID: ManagedObjectID) {
        let removed: Entry?
        if objectID.primaryKey != nil {
            removed = permanent.removeValue(for: objectID)
        } else {
            fileTemporaryBacklog()
            removed = temporary.removeValue(forKey: objectID)
        }
        removed?.takeUnretainedValue().isRegistered = false
    }

    /// The object registered for `objectID`, or the one `make` makes, registered for it: one
    /// look-up for both, what making a fault for a fetched row costs. `make` must not use the
    /// registry (it runs in the middle of registering).
    mutating func object(for objectID: ManagedObjectID, orRegister make: () throws -> ManagedObject) rethrows -> ManagedObject {
        guard objectID.primaryKey != nil else {
            if let registered = self[objectID] { return registered }
            let object = try make()
            self[objectID] = object
            return object
        }
        // The made object is held here: the table holds it unretained.
        var made: ManagedObject?
        let entry = try permanent.value(for: objectID) {
            let object = try make()
            object.isRegistered = true
            made = object
            return Entry.passUnretained(object)
        }
        return made ?? entry.takeUnretainedValue()
    }

    /// Registers the object of `entry`, marked registered, for `objectID`, without retaining it
    /// (nor reading it). Another object registered for the ID until now is no longer.
    private mutating func register(_ entry: Entry, for objectID: ManagedObjectID) {
        let replaced: Entry?
        if objectID.primaryKey != nil {
            replaced = permanent.updateValue(entry, for: objectID)
        } else {
            fileTemporaryBacklog()
            replaced = temporary.updateValue(entry, forKey: objectID)
        }
        if let replaced, replaced.toOpaque() != entry.toOpaque() { replaced.takeUnretainedValue().isRegistered = false }
    }

    /// Every registered object (strong references, so they stay alive while in use).
    var objects: [ManagedObject] { objects(inTablesOf: { _ in true }) }

    /// The objects of the entities named in `entityNames`, and every object not yet saved
    /// (held by temporary ID).
    func objects(ofEntities entityNames: Set<String>) -> [ManagedObject] {
        objects(inTablesOf: { entityNames.contains($0) })
    }

    /// The objects of the entities `includes` accepts, and every object held by temporary ID.
    private func objects(inTablesOf includes: (String) -> Bool) -> [ManagedObject] {
        var objects = permanent.values(ofEntities: includes).map { $0.takeUnretainedValue() }
        for entry in temporary.values { objects.append(entry.takeUnretainedValue()) }
        for (_, entry) in temporaryBacklog { objects.append(entry.takeUnretainedValue()) }
        return objects
    }

    /// How many objects are registered.
    var count: Int { permanent.count + temporary.count + temporaryBacklog.count }

    /// Registers a newly inserted object by its temporary ID, which no object has yet.
    mutating func register(inserted object: ManagedObject) {
        object.isRegistered = true
        temporaryBacklog.append((object.objectID, Entry.passUnretained(object)))
    }

    /// Unregisters everything, as the context ends the link its objects hold (their marks are
    /// left as they are: an object of an ended link lists itself nowhere).
    mutating func removeAll() {
        self = ObjectRegistry()
    }

    /// Unregisters `objectID` if `object` is what it is registered to (a reference compared,
    /// never read, and the object's mark left as it is): what the context asks for each freed
    /// object listed with it.
    mutating func remove(_ objectID: ManagedObjectID, ifHolding object: Entry) {
        guard objectID.primaryKey != nil else {
            fileTemporaryBacklog()
            if let index = temporary.index(forKey: objectID), temporary.values[index].toOpaque() == object.toOpaque() {
                temporary.remove(at: index)
            }
            return
        }
        permanent.remove(objectID, if: { $0.toOpaque() == object.toOpaque() })
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
        permanent.reserveCapacity(adding: count, like: objectID)
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
