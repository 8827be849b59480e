// The coordinator's side of the optional store capabilities (`StoreCapabilities.swift`): each
// method below uses the capability when the store declares it and otherwise does the same work
// with the core requirements. A store that wraps another store (to count or log its requests)
// forwards through these, so that it gets the wrapped store's capabilities or their fallbacks.
//
// A capability is detected with one dynamic cast per request (about 40 ns, measured on the
// two-core Linux machine the benchmarks run on): negligible beside the store request it decides.

@_spi(StoreImplementation)
extension PersistentStore {
    /// Fetches into `receiver`: as a ``StreamingFetchStore`` does, or by fetching the list (with
    /// `cachedRows` when the store is a ``RowCacheFetchStore``) and handing it on at once.
    public func fetchHandingOn(_ request: StoreFetchRequest, reusing cachedRows: CachedRows?, to receiver: any SnapshotReceiver) throws {
        if let streaming = self as? any StreamingFetchStore {
            return try streaming.fetch(request, reusing: cachedRows, into: receiver)
        }
        var snapshots: [ObjectSnapshot]
        if let cachedRows, let reusing = self as? any RowCacheFetchStore {
            snapshots = try reusing.fetch(request, reusing: cachedRows)
        } else {
            snapshots = try fetch(request)
        }
        receiver.expect(snapshots.count)
        try receiver.receive(&snapshots)
    }

    /// The IDs of the objects a request matches, in its order and range: as an
    /// ``ObjectIDFetchStore`` lists them, or taken from a fetch without property values.
    public func matchingObjectIDs(_ request: StoreFetchRequest) throws -> ObjectIDList {
        if let listing = self as? any ObjectIDFetchStore { return try listing.fetchObjectIDs(request) }
        var idsOnly = request
        idsOnly.includesPropertyValues = false
        return ObjectIDList(try fetch(idsOnly).lazy.map(\.objectID))
    }

    /// How many objects a request matches, its offset and limit applied: as an
    /// ``ObjectCountStore`` counts them, or the number of IDs an unordered, unranged fetch
    /// without property values returns.
    public func matchingCount(_ request: StoreFetchRequest) throws -> Int {
        if let counting = self as? any ObjectCountStore { return try counting.count(request) }
        var unranged = request
        unranged.fetchLimit = 0
        unranged.fetchOffset = 0
        unranged.sortDescriptors = []
        unranged.includesPropertyValues = false
        let total = try fetch(unranged).count - request.fetchOffset
        return max(0, request.fetchLimit > 0 ? min(total, request.fetchLimit) : total)
    }

    /// The groups of a dictionary fetch as a ``GroupingStore`` computes them; nil when the store
    /// is not one or leaves grouping to the context.
    public func groupsInStore(_ request: StoreGroupingRequest) throws -> StoreGroupingResult? {
        try (self as? any GroupingStore)?.groups(request)
    }

    /// The values a ``RowValuesStore`` reads for a request; nil when the store is not one or
    /// leaves reading values to the context.
    public func rowValuesInStore(_ request: StoreValuesRequest) throws -> [[AttributeValue?]]? {
        try (self as? any RowValuesStore)?.rowValues(request)
    }

    /// Hands each row a ``RowValuesStore`` reads for a request to `body` as it is read; false
    /// when the store is not one or leaves reading values to the context (drop what was handed).
    public func forEachRowValuesInStore(_ request: StoreValuesRequest, _ body: ([AttributeValue?]) throws -> Void) throws -> Bool {
        guard let store = self as? any RowValuesStore else { return false }
        return try store.forEachRowValues(request, body)
    }

    /// The snapshots of several objects (those the store does not have left out): in one go
    /// from a ``SnapshotBatchStore``, or one ``snapshot(for:)`` each.
    public func loadSnapshots(for objectIDs: [ManagedObjectID]) throws -> [ObjectSnapshot] {
        if let batch = self as? any SnapshotBatchStore { return try batch.snapshots(for: objectIDs) }
        return try objectIDs.compactMap { try snapshot(for: $0) }
    }

    /// Whether the store is a ``CascadeListingStore``.
    public var listsCascadeDestinations: Bool { self is any CascadeListingStore }

    /// The stored destinations of `relationship` of every object of `sources`, with their
    /// versions, as a ``CascadeListingStore`` lists them; nil when the store is not one or cannot
    /// list them so.
    public func cascadeDestinationsInStore(of sources: [ManagedObjectID], relationship: String) throws -> [StoreSaveRequest.DeletedObject]? {
        try (self as? any CascadeListingStore)?.destinationsWithVersions(of: sources, relationship: relationship)
    }

    /// Runs a batch request: as a ``BatchExecutingStore`` runs it, or with the core requirements
    /// (the objects a request selects are fetched, new objects get keys from
    /// ``allocatePrimaryKeys(rootEntity:count:)``, and the whole change goes to the store as one
    /// ``save(_:)``, which lands whole or not at all). The saved versions are the ones just read,
    /// so a save by someone else in between fails the request with
    /// ``StoreError/mergeConflict(_:)`` rather than losing either change.
    public func runBatch(_ request: StoreBatchRequest) throws -> StoreBatchResult {
        if let executing = self as? any BatchExecutingStore { return try executing.executeBatch(request) }
        let executor = GenericBatchExecutor(store: self)
        switch request {
        case .insert(let insert): return try executor.insert(insert)
        case .update(let update): return try executor.update(update)
        case .delete(let delete): return try executor.delete(delete)
        }
    }
}
