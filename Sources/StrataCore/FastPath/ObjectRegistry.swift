/// The objects a context holds, by ID: one instance per ID while the object is alive (uniquing).
///
/// # The rules of the registry
///
/// These are the only rules that make the registry's unretained references safe; every other
/// part of the context and of ``ManagedObject`` relies on them, and nothing else touches an entry.
///
/// - **What it holds.** Each entry is an unretained reference (`Unmanaged<ManagedObject>`): the
///   registry does not keep its objects alive, as Core Data's context does not. Objects with
///   unsaved changes are held strongly by the context's change lists (``ChangeLists``), so they
///   stay; an unchanged object, or a fault, that nothing else references is freed, and the next
///   lookup of its ID makes a new fault. A weak reference would do the same at the cost of a side
///   table per object and an atomic load per lookup, on every fetched row.
/// - **The invariant.** Every entry the context reads refers to a live object. Entries are made
///   and taken out only here; ``ManagedObject/isRegistered`` is set and cleared only here, and is
///   true exactly while the object has an entry.
/// - **Who may touch it, and where.** Only the owning context, on the context's queue (its
///   ``ManagedObjectContext/ConcurrencyType``), through ``ManagedObjectContext/registry``. Objects
///   and contexts are not `Sendable`, so the compiler keeps every use of either on that queue.
///   While the context lives, an object's last release is a use of the object: it happens on the
///   context's queue too.
/// - **When an object is freed.** Its `deinit` does not touch the registry (it may run in the
///   middle of a registry operation, when a change list or a fetch drops the last reference).
///   If the object is registered, its link to the context has not ended and the context still
///   exists, it appends its ID and reference to the context's ``ManagedObjectContext/freedObjects``
///   (``ManagedObject/listAsFreed()``), holding the context strongly while it does. The context
///   takes each listed entry out (``remove(freed:)``) before its next use of the registry, if the
///   entry still holds that very reference, compared and never read. So the entry of a freed
///   object is never read, and an entry another object took for the ID meanwhile stays.
/// - **When an object is cut loose.** The context unregisters an object before cutting it loose
///   (`detach()` clears the object's context): a detached object has no entry.
/// - **When the context is reset or goes.** It first ends the link all its objects share
///   (``ContextLink/end()``), so that an object freed from then on lists itself nowhere, then
///   empties the registry at once (``removeAll()``) without reading its entries. A context's last
///   reference may go on any thread: the link's end is atomic, and an object reaches its context
///   only through the link's weak reference, which is nil once the context's `deinit` has begun.
///
/// # Tables
///
/// Objects with permanent IDs are kept in one table per entity and store, by primary key
/// (``PrimaryKeyTables``): an entry is a key and a reference, and a table is found by comparing
/// names, not hashing them. Objects with temporary IDs (inserted and not yet saved) are listed as
/// they are registered and put in a table of their own only when a temporary ID is looked up or
/// removed: a save that gives every listed object its permanent ID, in the order they were
/// listed, drops the list without hashing a temporary ID.
struct ObjectRegistry {
    // Unmanaged: unretained, without a weak reference's side table per object and atomic loads.
    typealias Entry = Unmanaged<ManagedObject>

    /// A registered object that was freed, as it listed itself with its context: its ID and the
    /// reference it was registered by, to compare with and never read.
    struct FreedObject {
        let objectID: ManagedObjectID
        let entry: Entry
    }

    /// Objects with permanent IDs, by primary key, a table for each entity of each store.
    private var permanent = PrimaryKeyTables<Entry>()
    private var temporary: [ManagedObjectID: Entry] = [:]
    /// Objects registered by temporary IDs this process made and not yet put in `temporary`, in
    /// order: each ID's number beside the object, the IDs' scopes in ``backlogScopes``. Half the
    /// bytes of the IDs themselves, for a list as long as a large save's inserts.
    private var temporaryBacklog: [(number: UInt64, entry: Entry)] = []
    /// The scopes of the IDs in `temporaryBacklog`: each from its position in the backlog up to
    /// the next one's (inserts come in runs of one entity).
    private var backlogScopes: [(start: Int, scope: ObjectIDScope)] = []

    /// The IDs of the backlog, in order, with their entries.
    private func forEachInBacklog(_ body: (_ index: Int, _ id: ManagedObjectID, _ entry: Entry) throws -> Bool) rethrows -> Bool {
        for run in backlogScopes.indices {
            let end = run + 1 < backlogScopes.count ? backlogScopes[run + 1].start : temporaryBacklog.count
            let scope = backlogScopes[run].scope
            for index in backlogScopes[run].start..<end {
                let listed = temporaryBacklog[index]
                guard try body(index, ManagedObjectID(scope: scope, key: .temporary(listed.number)), listed.entry) else { return false }
            }
        }
        return true
    }

    /// Puts the backlog of temporary IDs in their table: before any lookup or removal by one.
    @inline(__always)
    private mutating func fileTemporaryBacklog() {
        if !temporaryBacklog.isEmpty { fileNonEmptyTemporaryBacklog() }
    }

    /// ``fileTemporaryBacklog()``'s work, kept out of line: the look-ups that check for a backlog
    /// are on every fetched row's path, filing one is rare.
    @inline(never)
    private mutating func fileNonEmptyTemporaryBacklog() {
        temporary.reserveCapacity(temporary.count + temporaryBacklog.count)
        // The walk below reads `self`, so its closure cannot write `self.temporary`: the table is
        // moved out for the walk (left empty, not copied, so it stays uniquely held and is filled
        // in place) and moved back after.
        var filed = temporary
        temporary = [:]
        _ = forEachInBacklog { _, id, entry in
            filed[id] = entry
            return true
        }
        temporary = filed
        temporaryBacklog = []
        backlogScopes = []
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

    /// The objects of the entities named in `entityNames` that `isChosen` accepts, and every
    /// object not yet saved (held by temporary ID). `isChosen` is asked without retaining the
    /// object, so that skipping most of many objects costs a read of each.
    func objects(ofEntities entityNames: Set<String>, where isChosen: (ManagedObject) -> Bool = { _ in true }) -> [ManagedObject] {
        objects(inTablesOf: { entityNames.contains($0) }, where: isChosen)
    }

    /// The objects of the entities `includes` accepts that `isChosen` accepts, and every object
    /// held by temporary ID.
    private func objects(inTablesOf includes: (String) -> Bool,
                         where isChosen: (ManagedObject) -> Bool = { _ in true }) -> [ManagedObject] {
        var objects = permanent.values(ofEntities: includes, where: { entry in
            entry._withUnsafeGuaranteedRef { isChosen($0) }
        }).map { $0.takeUnretainedValue() }
        for entry in temporary.values { objects.append(entry.takeUnretainedValue()) }
        for listed in temporaryBacklog { objects.append(listed.entry.takeUnretainedValue()) }
        return objects
    }

    /// Whether an object of the entities named in `entityNames` may be registered: true when a
    /// table of one of them holds an entry (a freed object's entry not yet taken out too), or when
    /// any object is held by temporary ID (of whatever entity). Reads no object.
    func mayHoldObjects(ofEntities entityNames: Set<String>) -> Bool {
        !temporary.isEmpty || !temporaryBacklog.isEmpty || permanent.holdsValues(ofEntities: { entityNames.contains($0) })
    }

    /// How many objects are registered.
    var count: Int { permanent.count + temporary.count + temporaryBacklog.count }

    /// Registers a newly inserted object by its temporary ID, which no object has yet.
    mutating func register(inserted object: ManagedObject) {
        let id = object.objectID
        guard case .temporary(let number) = id.key else {
            self[id] = object
            return
        }
        object.isRegistered = true
        if backlogScopes.last?.scope !== id.scope { backlogScopes.append((temporaryBacklog.count, id.scope)) }
        temporaryBacklog.append((number, Entry.passUnretained(object)))
    }

    /// Unregisters everything, as the context ends the link its objects hold (their marks are
    /// left as they are: an object of an ended link lists itself nowhere).
    mutating func removeAll() {
        self = ObjectRegistry()
    }

    /// Takes the entries of the objects in `freed` out, each only if it is still the one
    /// registered for its ID: what the context does with the objects freed since the registry was
    /// last used.
    mutating func remove(freed: [FreedObject]) {
        for object in freed { remove(object.objectID, ifHolding: object.entry) }
    }

    /// Unregisters `objectID` if `object` is what it is registered to (a reference compared,
    /// never read, and the object's mark left as it is).
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
        forEachInBacklog { index, id, entry in
            entry.toOpaque() == Entry.passUnretained(objects[index]).toOpaque() && id == previousIDs[index]
        }
    }

    /// Whether the list of new objects is exactly `objects`, in order, and no other object is
    /// registered by a temporary ID: then the list tells each one's temporary ID while they carry
    /// others (``temporaryIDs(of:)``), and the caller need not keep them. Compared by reference,
    /// without reading the objects.
    func listsExactly(_ objects: [ManagedObject]) -> Bool {
        temporary.isEmpty && temporaryBacklog.count == objects.count
            && forEachInBacklog { index, _, entry in entry.toOpaque() == Entry.passUnretained(objects[index]).toOpaque() }
    }

    /// The temporary IDs `objects` are registered by, in order, read from the list of new objects
    /// (which ``listsExactly(_:)`` must tell is theirs), whatever IDs the objects carry by now.
    func temporaryIDs(of objects: [ManagedObject]) -> [ManagedObjectID] {
        precondition(listsExactly(objects), "the list of new objects is not these objects")
        var ids: [ManagedObjectID] = []
        ids.reserveCapacity(objects.count)
        _ = forEachInBacklog { _, id, _ in
            ids.append(id)
            return true
        }
        return ids
    }

    /// Makes room for `count` more objects in the table of the entity and store of `objectID`:
    /// what a fetch of that many rows, usually of one entity, asks before registering them.
    mutating func reserveCapacity(_ count: Int, like objectID: ManagedObjectID) {
        permanent.reserveCapacity(adding: count, like: objectID)
    }

    /// Registers `objects`, exactly the list of new objects (``listsExactly(_:)``), by `newIDs`
    /// (the IDs they carry now): ``rekey(_:from:to:)`` with their temporary IDs read from the
    /// list, which goes when they are all permanent, without a list of them made first.
    mutating func rekeyListed(_ objects: [ManagedObject], to newIDs: [ManagedObjectID]) {
        precondition(listsExactly(objects) && newIDs.count == objects.count, "the list of new objects is not these objects")
        guard !newIDs.contains(where: \.isTemporaryID) else {
            rekey(objects, from: temporaryIDs(of: objects), to: newIDs)
            return
        }
        temporaryBacklog = []
        backlogScopes = []
        for index in objects.indices { register(Entry.passUnretained(objects[index]), for: newIDs[index]) }
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
            backlogScopes = []
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

extension ManagedObject {
    /// What a registered object does as it is freed (from its `deinit`): lists itself with its
    /// context for the context to take out of its registry, unless the context has ended or gone
    /// (the rules are at the top of this file). The context is held while the object lists
    /// itself: loaded through the link's weak reference, it stays alive for the append.
    @inline(__always)
    final func listAsFreed() {
        guard isRegistered, let contextLink, !contextLink.isEnded, let context = contextLink.context else { return }
        context.freedObjects.append(ObjectRegistry.FreedObject(objectID: objectID, entry: .passUnretained(self)))
    }
}
