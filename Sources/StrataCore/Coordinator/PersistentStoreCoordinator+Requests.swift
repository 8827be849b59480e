import Foundation

extension PersistentStoreCoordinator {
    /// The snapshots of the objects a request matches, from every store it may touch, store by
    /// store, each store answering for its own entities with the request's order and range; the
    /// caller merges across stores. Rows go into the row cache as
    /// ``fetchSnapshots(_:into:)`` puts them.
    func fetchSnapshots(_ request: FetchRequest<ManagedObject>) throws -> [ObjectSnapshot] {
        let collector = SnapshotCollector()
        try fetchSnapshots(request, into: collector)
        return collector.snapshots
    }

    /// Hands the snapshots of the objects a request matches to `receiver` as the stores read
    /// them, store by store, each store answering for its own entities with the request's order
    /// and range (what a request one store answers whole needs). Rows read with their values go
    /// into the row cache (see ``CachingReceiver``).
    func fetchSnapshots(_ request: FetchRequest<ManagedObject>, into receiver: any SnapshotReceiver) throws {
        for (store, storeRequest) in try storeRequests(for: request) {
            guard request.includesPropertyValues, rowCache.capacity > 0 else {
                try store.fetchHandingOn(storeRequest, reusing: nil, to: receiver)
                continue
            }
            let cachedRows = CachedRows(rowCache, storeIdentifier: store.identifier)
            let caching = CachingReceiver(passingTo: receiver, capacity: rowCache.capacity, cachedRows: cachedRows)
            try store.fetchHandingOn(storeRequest, reusing: cachedRows, to: caching)
            if var kept = caching.takeKept() { rowCache.insert(taking: &kept) }
        }
    }

    /// Fetches the IDs of matching objects from every store a request may touch, each store
    /// answering for its own entities with the request's order and range.
    func fetchObjectIDs(_ request: FetchRequest<ManagedObject>) throws -> [ObjectIDList] {
        try storeRequests(for: request).map { store, storeRequest in try store.matchingObjectIDs(storeRequest) }
    }

    /// The stores a request may touch, each with the request for its own entities.
    private func storeRequests(for request: FetchRequest<ManagedObject>) throws -> [(any PersistentStore, StoreFetchRequest)] {
        let entities = try concreteEntities(for: request)
        return storesAffected(by: request, entities: entities).map { store, held in
            (store, StoreFetchRequest(
                entityNames: held, predicate: request.predicate, sortDescriptors: request.sortDescriptors,
                fetchOffset: request.fetchOffset, fetchLimit: request.fetchLimit,
                includesPropertyValues: request.includesPropertyValues))
        }
    }

    /// The stored snapshots of several objects, one store request per store; objects no loaded
    /// store has are left out. Cached rows read from their store before `readSince` (a time of
    /// ``RowCache/now()``) are read again.
    func snapshots(for objectIDs: [ManagedObjectID], readSince: UInt64 = 0) throws -> [ManagedObjectID: ObjectSnapshot] {
        var result: [ManagedObjectID: ObjectSnapshot] = [:]
        result.reserveCapacity(objectIDs.count)
        for (storeID, ids) in Self.groupedByStore(objectIDs) {
            guard let store = persistentStore(withIdentifier: storeID) else { continue }
            let missing = rowCache.snapshots(for: ids, into: &result, readSince: readSince)
            guard !missing.isEmpty else { continue }
            let loaded = try store.loadSnapshots(for: missing)
            rowCache.insert(loaded)
            for snapshot in loaded { result[snapshot.objectID] = snapshot }
        }
        return result
    }

    /// Permanent IDs grouped by store, in the order the stores first appear. IDs of one store
    /// (the usual case) go into one group without hashing a store UUID per ID.
    private static func groupedByStore(_ objectIDs: [ManagedObjectID]) -> [(String, [ManagedObjectID])] {
        let permanent = objectIDs.filter { $0.storeIdentifier != nil }
        guard let first = permanent.first?.storeIdentifier else { return [] }
        if permanent.allSatisfy({ $0.storeIdentifier == first }) { return [(first, permanent)] }
        var byStore: [String: [ManagedObjectID]] = [:]
        var order: [String] = []
        for id in permanent {
            guard let storeID = id.storeIdentifier else { continue }
            if byStore[storeID] == nil { order.append(storeID) }
            byStore[storeID, default: []].append(id)
        }
        return order.map { ($0, byStore[$0] ?? []) }
    }

    /// Counts across every store a request may touch.
    func countObjects(_ request: FetchRequest<ManagedObject>) throws -> Int {
        let entities = try concreteEntities(for: request)
        return try storesAffected(by: request, entities: entities).reduce(0) { total, pair in
            total + (try pair.0.matchingCount(StoreFetchRequest(entityNames: pair.1, predicate: request.predicate)))
        }
    }

    /// The groups of `grouping` (the grouping half of `request`) from the one store that holds
    /// every entity it reads, or nil when several stores hold them or the store leaves grouping
    /// to the context.
    func fetchGroups(_ grouping: StoreGroupingRequest, for request: FetchRequest<ManagedObject>) throws -> StoreGroupingResult? {
        let stores = storesAffected(by: request, entities: grouping.entityNames)
        guard stores.count == 1, let (store, held) = stores.first, held == grouping.entityNames else { return nil }
        return try store.groupsInStore(grouping)
    }

    /// The values of `keys` of each object `request` matches, from the one store that holds every
    /// entity it reads, or nil when several stores hold them or the store leaves reading values to
    /// the context.
    func fetchRowValues(keys: [String], for request: FetchRequest<ManagedObject>) throws -> [[AttributeValue?]]? {
        let requests = try storeRequests(for: request)
        guard requests.count == 1, let (store, storeRequest) = requests.first,
              storeRequest.entityNames == (try concreteEntities(for: request)) else { return nil }
        return try store.rowValuesInStore(StoreValuesRequest(fetch: storeRequest, keys: keys))
    }

    /// Hands `body` each object `request` matches, in order, as its ID followed by the values of
    /// `keys`, read by the one store that holds every entity the request reads, without a
    /// snapshot per object; false when several stores hold them or the store cannot read them so
    /// (rows already handed are then to be dropped).
    func forEachRowValues(keys: [String], withObjectIDs: Bool, for request: FetchRequest<ManagedObject>,
                          _ body: ([AttributeValue?]) throws -> Void) throws -> Bool {
        let requests = try storeRequests(for: request)
        guard requests.count == 1, let (store, storeRequest) = requests.first,
              storeRequest.entityNames == (try concreteEntities(for: request)) else { return false }
        return try store.forEachRowValuesInStore(StoreValuesRequest(fetch: storeRequest, keys: keys, includesObjectIDs: withObjectIDs), body)
    }

    /// The number of stores a request may touch.
    func storeCount(for request: FetchRequest<ManagedObject>) throws -> Int {
        try storesAffected(by: request, entities: concreteEntities(for: request)).count
    }

    /// The request's entity and, when asked, every sub-entity; abstract ones left out. A
    /// predicate comparing mismatched types, or a sort key through a to-many, is refused here,
    /// before any store runs the request.
    func concreteEntities(for request: FetchRequest<ManagedObject>) throws -> Set<String> {
        guard let entity = managedObjectModel.entitiesByName[request.entityName] else {
            throw ObjectError.unknownEntity(request.entityName)
        }
        try managedObjectModel.checkFetch(entity: entity, predicate: request.predicate, sortDescriptors: request.sortDescriptors)
        let names = request.includesSubentities
            ? managedObjectModel.entityAndDescendants(of: request.entityName) : [request.entityName]
        return Set(names.filter { managedObjectModel.entitiesByName[$0]?.isAbstract == false })
    }

    private func storesAffected(by request: FetchRequest<ManagedObject>, entities: Set<String>) -> [(any PersistentStore, Set<String>)] {
        persistentStores.compactMap { store in
            if let only = request.affectedStoreIdentifiers, !only.contains(store.identifier) { return nil }
            let held = entities.filter { storeCanHold(store, entity: $0) }
            return held.isEmpty ? nil : (store, held)
        }
    }

    /// The stored snapshot of one object, or nil when no loaded store has it. A cached row read
    /// from its store before `readSince` (a time of ``RowCache/now()``) is read again.
    func snapshot(for objectID: ManagedObjectID, readSince: UInt64 = 0) throws -> ObjectSnapshot? {
        guard let store = persistentStore(of: objectID) else { return nil }
        if let cached = rowCache.snapshot(for: objectID, readSince: readSince) { return cached }
        let snapshot = try store.snapshot(for: objectID)
        if let snapshot { rowCache.insert([snapshot]) }
        return snapshot
    }

    /// The stored destinations of a to-many relationship.
    func relatedObjectIDs(of objectID: ManagedObjectID, relationship: String) throws -> [ManagedObjectID] {
        guard let store = persistentStore(of: objectID) else { throw ObjectError.objectNotFound(objectID) }
        return try store.relatedObjectIDs(of: objectID, relationship: relationship)
    }

    /// The permanent ID of each of `objectIDs`, in their order: a new one from its assigned
    /// store for a temporary ID, the ID itself for a permanent one.
    func permanentIDs(inPlaceOf objectIDs: [ManagedObjectID]) throws -> [ManagedObjectID] {
        var permanent = objectIDs
        try assignPermanentIDs(count: objectIDs.count, reading: { objectIDs[$0] }, assigning: { permanent[$0] = $1 })
        return permanent
    }

    /// Gives each of `count` IDs (the one `read` reads at each position) that is temporary a new
    /// permanent one from its assigned store, handed to `assign` with its position; permanent
    /// IDs are left alone. Every key is allocated before the first is handed out, so that a
    /// failure hands out none. No list of the IDs is made: a save of many new objects reads
    /// them from the objects and gives them back there.
    func assignPermanentIDs(count: Int, reading read: (Int) -> ManagedObjectID, assigning assign: (Int, ManagedObjectID) -> Void) throws {
        // The positions of each store and root entity, as runs of consecutive positions (objects
        // of one entity come in runs).
        var groups: [(store: any PersistentStore, root: String, runs: [Range<Int>], count: Int)] = []
        var groupIndexes: [String: Int] = [:]          // store UUID + root → group
        var groupOfEntity = NameMap<Int>()             // entity → group, to route each entity once (no hashing)
        for position in 0..<count {
            let id = read(position)
            guard id.isTemporaryID else { continue }
            let index: Int
            if let known = groupOfEntity[id.entityName] {
                index = known
            } else {
                let store = try assignedStore(forNewObjectOf: id.entityName)
                let root = managedObjectModel.entitiesByName[id.entityName]?.rootEntityName ?? id.entityName
                let key = store.identifier + "\u{0}" + root
                index = groupIndexes[key] ?? groups.count
                if index == groups.count {
                    groups.append((store, root, [], 0))
                    groupIndexes[key] = index
                }
                groupOfEntity[id.entityName] = index
            }
            if let last = groups[index].runs.last, last.upperBound == position {
                groups[index].runs[groups[index].runs.count - 1] = last.lowerBound..<(position + 1)
            } else {
                groups[index].runs.append(position..<(position + 1))
            }
            groups[index].count += 1
        }
        let keys = try groups.map { try $0.store.allocatePrimaryKeys(rootEntity: $0.root, count: $0.count) }
        for (group, groupKeys) in zip(groups, keys) {
            var scopes = RecentScopes(storeIdentifier: group.store.identifier)   // objects of one entity come in runs
            var next = groupKeys.startIndex
            for run in group.runs {
                for position in run {
                    assign(position, ManagedObjectID(scopes.scope(of: read(position).entityName), primaryKey: groupKeys[next]))
                    next += 1
                }
            }
        }
    }

    /// Sends each store its part of a save. Each store applies its part whole or not at all.
    func save(_ request: StoreSaveRequest) throws {
        // Whether the save lands or not, the rows it touches are read from the stores again
        // (inserted rows have new keys, which no cached row has).
        defer {
            rowCache.remove(request.updated.lazy.map(\.objectID))
            rowCache.remove(request.deleted.lazy.map(\.objectID))
            // A derived attribute read through a relationship can change in rows the save did
            // not touch (a book's copy of its author's name), without a new version.
            if managedObjectModel.hasDerivationsThroughRelationships { rowCache.removeAll() }
        }
        // Every object in one loaded store (the usual case): the whole request is its part, with
        // no store looked up per object and no snapshot copied into a part.
        let first = (request.inserted.first?.objectID ?? request.updated.first?.objectID ?? request.deleted.first?.objectID)?
            .storeIdentifier
        func isInFirst(_ id: ManagedObjectID) -> Bool { id.storeIdentifier == first }
        do {
            if let first, request.inserted.allSatisfy({ isInFirst($0.objectID) }), request.updated.allSatisfy({ isInFirst($0.objectID) }),
               request.deleted.allSatisfy({ isInFirst($0.objectID) }), let store = persistentStore(withIdentifier: first) {
                try store.save(request)
                return
            }
            try saveInParts(request)
        } catch StoreError.mergeConflict(let conflicts) {
            // Read before the rows go out of the cache: a conflict with a row the coordinator
            // already holds at its new version is one between the context and the coordinator.
            throw StoreError.mergeConflict(conflicts.map(placedAgainstRowCache))
        }
    }

    /// The store holding `storeIdentifier`'s objects and how many new objects each part of a
    /// save of `count` of them holds, when that store takes such a save in parts
    /// (``PartedSaveStore``); nil when the save goes whole.
    func partedSave(in storeIdentifier: String?, newObjects count: Int) -> (store: any PartedSaveStore, perPart: Int)? {
        guard let storeIdentifier, let store = persistentStore(withIdentifier: storeIdentifier) as? any PartedSaveStore,
              let perPart = store.newObjectsPerPart(ofSaving: count), perPart > 0, perPart < count else { return nil }
        return (store, perPart)
    }

    /// Sends `store` a save in the parts `nextPart` gives (``PartedSaveStore``): what
    /// ``save(_:)`` does for a save whose objects are all in that store.
    func save(inParts store: any PartedSaveStore, _ nextPart: () throws -> StoreSaveRequest?) throws {
        // The parts' updated and deleted rows, read again afterwards as ``save(_:)`` does (new
        // rows are in no cache).
        var touched: [ManagedObjectID] = []
        defer {
            rowCache.remove(touched)
            if managedObjectModel.hasDerivationsThroughRelationships { rowCache.removeAll() }
        }
        do {
            try store.save(inParts: {
                let part = try nextPart()
                if let part { touched += part.updated.lazy.map(\.objectID) + part.deleted.lazy.map(\.objectID) }
                return part
            })
        } catch StoreError.mergeConflict(let conflicts) {
            throw StoreError.mergeConflict(conflicts.map(placedAgainstRowCache))
        }
    }

    /// A conflict a store reported, told apart as Core Data does: when the row cache holds the
    /// row at the version the store has, the conflict is with the coordinator (its cached row,
    /// no persisted one); otherwise it is between the coordinator and the store.
    private func placedAgainstRowCache(_ reported: MergeConflict) -> MergeConflict {
        var conflict = reported
        guard let cached = rowCache.snapshot(for: conflict.objectID) else { return conflict }
        if !conflict.isDeletion, cached.version == conflict.newVersion {
            conflict.cachedSnapshot = cached
            conflict.persistedSnapshot = nil
        } else if cached.version == conflict.oldVersion {
            conflict.cachedSnapshot = cached
        }
        return conflict
    }

    /// Sends each store its part of a save that spans several.
    private func saveInParts(_ request: StoreSaveRequest) throws {
        var parts: [String: StoreSaveRequest] = [:]
        var order: [any PersistentStore] = []
        func part(for id: ManagedObjectID) throws -> String {
            if let storeIdentifier = id.storeIdentifier, parts[storeIdentifier] != nil { return storeIdentifier }
            guard let store = persistentStore(of: id) else { throw StoreError.missingObject(id) }
            if parts[store.identifier] == nil {
                parts[store.identifier] = StoreSaveRequest()
                order.append(store)
            }
            return store.identifier
        }
        for snapshot in request.inserted { parts[try part(for: snapshot.objectID)]!.inserted.append(snapshot) }
        for (index, snapshot) in request.updated.enumerated() {
            let storeIdentifier = try part(for: snapshot.objectID)
            parts[storeIdentifier]!.updated.append(snapshot)
            parts[storeIdentifier]!.changedProperties.append(request.changedProperties(ofUpdated: index))
        }
        for deletion in request.deleted { parts[try part(for: deletion.objectID)]!.deleted.append(deletion) }
        for store in order {
            if let storePart = parts[store.identifier], !storePart.isEmpty { try store.save(storePart) }
        }
    }
}
