import OrderedCollections

/// What a fetch request returns, by its ``FetchRequest/resultType``: what
/// `ManagedObjectContext/execute(_:)` gives.
public enum FetchResult {
    /// Managed objects registered in the context, loading in batches when the request has a
    /// ``FetchRequest/fetchBatchSize``.
    case objects(FetchedResults)
    /// Object IDs.
    case objectIDs([ManagedObjectID])
    /// How many objects match (offset and limit applied).
    case count(Int)
    /// Dictionaries of the fetched properties and expressions.
    case dictionaries([FetchedDictionary])

    /// How many results there are (for ``count(_:)``, the count itself).
    public var resultCount: Int {
        switch self {
        case .objects(let objects): objects.count
        case .objectIDs(let ids): ids.count
        case .count(let count): count
        case .dictionaries(let dictionaries): dictionaries.count
        }
    }
}

@available(*, unavailable, message: "A fetch result holds managed objects, which are confined to their context.")
extension FetchResult: Sendable {}

extension ManagedObjectContext {
    /// The objects a request matches, in the request's order, registered in this context and
    /// filled with their values (unless ``FetchRequest/includesPropertyValues`` is false).
    ///
    /// With `includesPendingChanges` (the default) unsaved inserts that match are included,
    /// unsaved deletes are left out and changed objects are judged by their current values.
    /// Across several stores, order, offset and limit apply to the combined result. The result
    /// type of the request is not consulted (use `execute(_:)` for that), nor its batch size
    /// (use ``fetchBatched(_:)``).
    ///
    /// Every object is an instance of `Result`: a request for a subclass returns `[Mood]`, one
    /// made with an entity name alone `[ManagedObject]`. An object of another class (the class
    /// was not registered for the entity, or a sub-entity's class is not a subclass of
    /// `Result`) fails the fetch; it is never left out.
    ///
    /// - Throws: ``ObjectError/unknownEntity(_:)``, an error evaluating the predicate,
    ///   ``FetchRequestError`` for a bad prefetch key path,
    ///   ``FetchRequestError/resultClassMismatch(entity:expected:found:)``, or what a store throws.
    public func fetch<Result>(_ request: FetchRequest<Result>) throws -> [Result] {
        let objects = try fetchObjects(request.untyped)
        // Cast as a whole value: the runtime hands back the very same array for the same type,
        // where an array-to-array cast (`objects as? [Result]`, unspecialized) copies every element.
        if Result.self == ManagedObject.self, let same = (objects as Any) as? [Result] { return same }
        return try objects.map { try typed($0, as: Result.self) }
    }

    /// `object` as an instance of `type`.
    ///
    /// - Throws: ``FetchRequestError/resultClassMismatch(entity:expected:found:)`` when it is not one.
    func typed<T: ManagedObject>(_ object: ManagedObject, as type: T.Type) throws -> T {
        guard let typed = object as? T else {
            throw FetchRequestError.resultClassMismatch(
                entity: object.entity.name, expected: String(describing: T.self),
                found: String(describing: Swift.type(of: object)))
        }
        return typed
    }

    /// The objects a request matches, as ``fetch(_:)`` returns them before their class is checked.
    func fetchObjects(_ request: FetchRequest<ManagedObject>) throws -> [ManagedObject] {
        checkQueue()
        processPendingChanges()
        try validatePrefetching(request)
        let objects: [ManagedObject]
        if try storeAnswersWhole(request) {
            // The store's snapshots become objects as the store reads them, without rows to
            // merge; each snapshot is moved into its object, not copied.
            let maker = FetchedObjectMaker(context: self, loadingValues: request.includesPropertyValues,
                                           refreshing: request.shouldRefreshRefetchedObjects)
            defer { maker.awakeLoadedObjects() }
            try readingCoordinator.fetchSnapshots(request, into: maker)
            try maker.refreshRefetchedObjects()
            objects = maker.objects
        } else {
            let rows = try matchingRows(request)
            let refreshing = request.shouldRefreshRefetchedObjects && request.includesPropertyValues
            objects = try rows.map { row in
                if refreshing, case .snapshot(let snapshot) = row {
                    let object = try object(with: snapshot.objectID)
                    if Self.isRefreshable(object) {
                        try refresh(object, with: snapshot)
                        return object
                    }
                }
                return try registeredObject(for: row, loadingValues: request.includesPropertyValues)
            }
        }
        try prefetch(request.relationshipKeyPathsForPrefetching, for: objects)
        return objects
    }

    /// Fetches objects of a registered subclass: ``fetch(_:)`` of the request retyped as `type`.
    ///
    /// - Throws: as ``fetch(_:)``; ``FetchRequestError/resultClassMismatch(entity:expected:found:)``
    ///   for an object that is not a `T`.
    public func fetch<T: ManagedObject, Other>(_ request: FetchRequest<Other>, as type: T.Type) throws -> [T] {
        try fetch(request.retyped(as: T.self))
    }

    /// The objects a request matches as a collection that loads them in batches of
    /// ``FetchRequest/fetchBatchSize`` (Core Data's batched fetch).
    ///
    /// The fetch records the IDs of every matching object, compactly, and registers no object:
    /// touching one (by subscript or while iterating) registers the objects of its whole batch and
    /// loads their values in one store request, together with the request's prefetched
    /// relationships. The results keep the objects of the batches touched last; objects of
    /// earlier batches that nothing else uses, and that have no unsaved changes, are freed, so
    /// iterating over many objects (turning each batch back into faults with
    /// ``refresh(_:mergeChanges:)`` once read) takes memory for a batch, not for every object.
    /// With a batch size of 0 every object is loaded at once, as ``fetch(_:)`` does.
    ///
    /// - Throws: as ``fetch(_:)``.
    public func fetchBatched<Result>(_ request: FetchRequest<Result>) throws -> FetchedResults {
        let request = request.untyped
        checkQueue()
        processPendingChanges()
        try validatePrefetching(request)
        guard request.fetchBatchSize > 0, request.includesPropertyValues else {
            return FetchedResults(objects: try fetchObjects(request))
        }
        var idsOnly = request
        idsOnly.includesPropertyValues = false
        var ids = ObjectIDList()
        var pinned: [Int: ManagedObject] = [:]
        if try storeAnswersWhole(idsOnly) {
            let lists = try readingCoordinator.fetchObjectIDs(idsOnly)
            if lists.count == 1 {
                ids = lists[0]
            } else {
                for list in lists { ids.append(contentsOf: list) }
            }
        } else {
            for row in try matchingRows(idsOnly) {
                if case .object(let object) = row { pinned[ids.count] = object }
                ids.append(row.objectID)
            }
        }
        for name in ids.entityNames where model.entitiesByName[name] == nil { throw ObjectError.unknownEntity(name) }
        let loader = FetchedResults.BatchLoader(
            context: self, objectIDs: ids, pinned: pinned, batchSize: request.fetchBatchSize,
            prefetching: request.relationshipKeyPathsForPrefetching)
        return FetchedResults(loader: loader)
    }

    /// The IDs of the objects a request matches, in order; no object is registered or filled.
    ///
    /// - Throws: as ``fetch(_:)``.
    public func fetchObjectIDs<Result>(_ request: FetchRequest<Result>) throws -> [ManagedObjectID] {
        let request = request.untyped
        checkQueue()
        processPendingChanges()
        var idsOnly = request
        idsOnly.includesPropertyValues = false
        return try matchingRows(idsOnly).map(\.objectID)
    }

    /// How many objects a request matches (offset and limit applied).
    ///
    /// - Throws: as ``fetch(_:)``.
    public func count<Result>(for request: FetchRequest<Result>) throws -> Int {
        let request = request.untyped
        checkQueue()
        processPendingChanges()
        let entities = try persistentStoreCoordinator.concreteEntities(for: request)
        let pending = request.includesPendingChanges ? pendingObjects(in: entities) : []
        if pending.isEmpty, parent == nil {
            let total = try readingCoordinator.countObjects(request) - request.fetchOffset
            return max(0, request.fetchLimit > 0 ? min(total, request.fetchLimit) : total)
        }
        var idsOnly = request
        idsOnly.includesPropertyValues = false
        idsOnly.sortDescriptors = []
        return try matchingRows(idsOnly).count
    }

    /// The dictionaries a request describes (Core Data's `dictionaryResultType`): one per
    /// matching object, or one per group when the request groups or aggregates.
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Student")
    /// request.propertiesToFetch = ["age", .expression(ExpressionDescription(
    ///     name: "students", expression: .count(), resultType: .integer64))]
    /// request.propertiesToGroupBy = ["age"]
    /// request.havingPredicate = try ObjectPredicate(format: "students > 1")
    /// request.sortDescriptors = [ObjectSortDescriptor(key: "age")]
    /// let rows = try context.fetchDictionaries(request)   // [{age = 18; students = 2}, …]
    /// ```
    ///
    /// Unlike Core Data, unsaved changes count here too when `includesPendingChanges` is true
    /// (the default): aggregates include unsaved inserts and changes and leave out unsaved deletes.
    ///
    /// - Throws: ``FetchRequestError`` for a property, expression or grouping that does not fit
    ///   the entity, an error evaluating a predicate, or what a store throws.
    public func fetchDictionaries<Result>(_ request: FetchRequest<Result>) throws -> [FetchedDictionary] {
        let request = request.untyped
        checkQueue()
        processPendingChanges()
        let plan = try DictionaryFetch(request, model: model)
        if plan.aggregates || plan.distinct, let result = try storeGroups(plan, request) {
            return try plan.dictionaries(of: result)
        }
        if !plan.aggregates, !plan.distinct, let keys = plan.storeKeys, try storeAnswersWhole(request),
           let rows = try readingCoordinator.fetchRowValues(keys: keys, for: request) {
            return try plan.dictionaries(ofRowValues: rows, keys: keys)
        }
        var rowRequest = request
        rowRequest.includesPropertyValues = true  // the dictionaries are made of the rows' values
        if plan.aggregates || plan.distinct {
            // Grouping, distinct, order of groups, offset and limit happen after the rows are read.
            rowRequest.fetchOffset = 0
            rowRequest.fetchLimit = 0
            if plan.aggregates { rowRequest.sortDescriptors = [] }
        }
        let rows = try matchingRows(rowRequest)
        let reader = RowReader(context: self, includesPendingChanges: request.includesPendingChanges)
        return try plan.dictionaries(of: rows) { row, path in try reader.storedValue(row, at: path) }
    }

    /// Carries out a request and returns what its ``FetchRequest/resultType`` asks for (Core
    /// Data's `fetch` of an untyped request).
    ///
    /// - Throws: as the method of that result type.
    public func execute<Result>(_ request: FetchRequest<Result>) throws -> FetchResult {
        switch request.resultType {
        case .managedObject: .objects(try fetchBatched(request))
        case .managedObjectID: .objectIDs(try fetchObjectIDs(request))
        case .count: .count(try count(for: request))
        case .dictionary: .dictionaries(try fetchDictionaries(request))
        }
    }

    // MARK: Matching

    /// The rows a request matches, in the request's order, ranged by its offset and limit.
    ///
    /// Order, offset and limit go to the store when one store answers and no pending change can
    /// alter the result; otherwise the rows of every store and the context's pending objects are
    /// merged, sorted and ranged here.
    func matchingRows(_ request: FetchRequest<ManagedObject>) throws -> [FetchRow] {
        let entities = try persistentStoreCoordinator.concreteEntities(for: request)
        let pending = request.includesPendingChanges ? pendingObjects(in: entities) : []
        let offset = request.fetchOffset
        let limit = request.fetchLimit
        let rangedAtSource = try pending.isEmpty && sourceCount(for: request) <= 1

        var sourceRequest = request
        sourceRequest.fetchOffset = rangedAtSource ? offset : 0
        sourceRequest.fetchLimit = rangedAtSource ? limit : (pending.isEmpty && limit > 0 ? offset + limit : 0)
        if !rangedAtSource, !request.sortDescriptors.isEmpty {
            // Merging needs the values the order is read from.
            sourceRequest.includesPropertyValues = true
        }
        var rows = try sourceRows(sourceRequest)
        guard !rangedAtSource else { return rows }

        if !pending.isEmpty {
            let changed = Set(pending.map(\.objectID))
            var seen = Set<ManagedObjectID>()
            rows = rows.filter { !changed.contains($0.objectID) && seen.insert($0.objectID).inserted }
            for object in pending where object.pendingChange != .deleted && !seen.contains(object.objectID) {
                if try request.predicate?.evaluate(with: object) ?? true {
                    rows.append(.object(object))
                    seen.insert(object.objectID)
                }
            }
        }
        let reader = RowReader(context: self, includesPendingChanges: request.includesPendingChanges)
        rows = try request.sortDescriptors.sorted(rows) { row in try reader.keyValue(row) }
        let start = min(offset, rows.count)
        let end = limit > 0 ? min(start + limit, rows.count) : rows.count
        return Array(rows[start..<end])
    }

    /// How many sources a request reads: the stores it may touch, or the parent context.
    private func sourceCount(for request: FetchRequest<ManagedObject>) throws -> Int {
        parent == nil ? try persistentStoreCoordinator.storeCount(for: request) : 1
    }

    /// Hands `body` each object `request` matches, in order, as its ID (``AttributeValue/objectID(_:)``)
    /// followed by the stored values of `keys`, read by the store in one query, without making
    /// objects or snapshots (the SQLite store). Returns false, and the rows handed are to be
    /// dropped, when the store's rows are not the whole answer (see ``storeAnswersWhole(_:)``)
    /// or the store cannot read them so.
    ///
    /// - Throws: what the store or `body` throws.
    func forEachStoredRow(keys: [String], of request: FetchRequest<ManagedObject>,
                          _ body: ([AttributeValue?]) throws -> Void) throws -> Bool {
        checkQueue()
        processPendingChanges()
        guard try storeAnswersWhole(request) else { return false }
        return try readingCoordinator.forEachRowValues(keys: keys, withObjectIDs: true, for: request, body)
    }

    /// Whether one store answers a request whole, in order and range: a root context, at most
    /// one store to ask, and no pending change that could alter the result.
    private func storeAnswersWhole(_ request: FetchRequest<ManagedObject>) throws -> Bool {
        guard parent == nil else { return false }
        if request.includesPendingChanges {
            let entities = try persistentStoreCoordinator.concreteEntities(for: request)
            guard pendingObjects(in: entities).isEmpty else { return false }
        }
        return try sourceCount(for: request) <= 1
    }

    /// The groups of an aggregating or distinct dictionary fetch as the store computes them, or
    /// nil when the rows are grouped here: the store is asked only when it answers the request
    /// whole (see ``storeAnswersWhole(_:)``), as for a fetch of objects.
    private func storeGroups(_ plan: DictionaryFetch, _ request: FetchRequest<ManagedObject>) throws -> StoreGroupingResult? {
        guard try storeAnswersWhole(request) else { return nil }
        let entities = try persistentStoreCoordinator.concreteEntities(for: request)
        guard let grouping = plan.groupingRequest(entityNames: entities, predicate: request.predicate) else { return nil }
        return try readingCoordinator.fetchGroups(grouping, for: request)
    }

    /// Whether an object of one of `entities` has an unsaved change.
    func hasPendingChanges(in entities: Set<String>) -> Bool {
        !pendingObjects(in: entities).isEmpty
    }

    /// The changed objects (inserted, updated, deleted) of the given entities.
    private func pendingObjects(in entities: Set<String>) -> [ManagedObject] {
        changeLists.all.filter { entities.contains($0.entity.name) }
    }

    /// Rows from the parent context or the stores.
    private func sourceRows(_ request: FetchRequest<ManagedObject>) throws -> [FetchRow] {
        if let parent {
            var parentRequest = request
            parentRequest.includesPendingChanges = true
            parent.checkQueue()
            parent.processPendingChanges()
            return try parent.matchingRows(parentRequest).map { row in
                switch row {
                case .snapshot: row
                case .object(let parentObject): .object(try object(with: parentObject.objectID))
                }
            }
        }
        return try readingCoordinator.fetchSnapshots(request).map(FetchRow.snapshot)
    }

    /// The registered object for a row, filled from the row's snapshot when it is a fault.
    private func registeredObject(for row: FetchRow, loadingValues: Bool) throws -> ManagedObject {
        switch row {
        case .object(let object):
            return object
        case .snapshot(let snapshot):
            return try registeredObject(for: snapshot, loadingValues: loadingValues)
        }
    }

    /// The registered object for a stored snapshot, filled from it when it is a fault.
    private func registeredObject(for snapshot: consuming ObjectSnapshot, loadingValues: Bool) throws -> ManagedObject {
        let object = try object(with: snapshot.objectID)
        if loadingValues, object.isFault, !object.isInvalidated { try object.load(consume snapshot, in: self) }
        return object
    }

    // MARK: Faults in batches, prefetching

    /// Fills the faults among `objects` with one store request per store (from the parent
    /// context, one by one, in a child context).
    func fillFaults(_ objects: [ManagedObject]) throws {
        let faults = objects.filter { $0.isFault && !$0.isInvalidated && !$0.objectID.isTemporaryID }
        guard !faults.isEmpty else { return }
        guard parent == nil else {
            for fault in faults { try fault.fulfillFault() }
            return
        }
        let snapshots = try readingCoordinator.snapshots(for: faults.map(\.objectID),
                                                         readSince: merging.cachedRowsReadSince())
        for fault in faults where fault.isFault {
            if let snapshot = snapshots[fault.objectID] { try fault.load(snapshot, in: self) }
        }
    }

    /// Checks that every prefetch key path walks through relationships of the request's entity.
    private func validatePrefetching(_ request: FetchRequest<ManagedObject>) throws {
        guard !request.relationshipKeyPathsForPrefetching.isEmpty else { return }
        guard let entity = model.entitiesByName[request.entityName] else { throw ObjectError.unknownEntity(request.entityName) }
        for keyPath in request.relationshipKeyPathsForPrefetching {
            var current = entity
            for part in keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
                guard let relationship = current.relationship(named: part) else {
                    throw FetchRequestError.invalidPrefetchKeyPath(
                        entity: entity.name, keyPath: keyPath, reason: "'\(part)' is not a relationship of entity '\(current.name)'")
                }
                guard let destination = model.entitiesByName[relationship.destinationEntityName] else {
                    throw ObjectError.unknownEntity(relationship.destinationEntityName)
                }
                current = destination
            }
        }
    }

    /// Loads the destinations of each relationship key path of `objects`, level by level, with
    /// one store request per level and store.
    func prefetch(_ keyPaths: [String], for objects: [ManagedObject]) throws {
        for keyPath in keyPaths {
            var level = objects
            for part in keyPath.split(separator: ".").map(String.init) {
                var next: OrderedSet<ManagedObject> = []
                for source in level where !source.isFault && !source.isInvalidated {
                    guard let relationship = source.entity.relationship(named: part) else { continue }
                    if relationship.isToMany {
                        next.append(contentsOf: try source.loadedToMany(part))
                    } else if let destination = source.toOne(named: part) {
                        next.append(destination)
                    }
                }
                try fillFaults(next.elements)
                level = next.elements
            }
        }
    }
}
