// What a store may do beyond ``PersistentStore``'s requirements. Each capability is a protocol
// the coordinator detects (`store as? any StreamingFetchStore`) at the request that uses it;
// without it, the coordinator does the same work with the core requirements (see
// `PersistentStore+Capabilities.swift` and `docs/store-implementation.md`).

/// A store that hands a fetch's snapshots to a receiver as it reads them, in runs, instead of
/// returning one list: a context makes objects while their rows are still in the processor's
/// cache. The SQLite store.
///
/// Without it the coordinator fetches the whole list (with ``RowCacheFetchStore`` when the store
/// has it and the coordinator keeps rows) and hands it on at once.
@_spi(StoreImplementation)
public protocol StreamingFetchStore: PersistentStore {
    /// Fetches as ``PersistentStore/fetch(_:)`` does, handing the snapshots to `receiver`, in
    /// order; where `cachedRows` holds a row at the version read, the store may hand on that row
    /// instead of decoding its own.
    func fetch(_ request: StoreFetchRequest, reusing cachedRows: CachedRows?, into receiver: any SnapshotReceiver) throws
}

/// A store that can take a row from the coordinator's row cache instead of decoding the row it
/// read, when the cached row is at the version it read. The SQLite store.
///
/// Without it the coordinator asks ``PersistentStore/fetch(_:)``, and the rows read replace the
/// cached ones.
@_spi(StoreImplementation)
public protocol RowCacheFetchStore: PersistentStore {
    /// Fetches as ``PersistentStore/fetch(_:)`` does, and may return a row of `cachedRows` where
    /// it reads a row at the version cached, instead of the row it read.
    func fetch(_ request: StoreFetchRequest, reusing cachedRows: CachedRows) throws -> [ObjectSnapshot]
}

/// A store that lists the IDs of the objects a fetch matches without making their snapshots.
/// The SQLite store.
///
/// Without it the coordinator asks ``PersistentStore/fetch(_:)`` with
/// ``StoreFetchRequest/includesPropertyValues`` false and keeps the snapshots' IDs.
@_spi(StoreImplementation)
public protocol ObjectIDFetchStore: PersistentStore {
    /// The IDs of the objects a request matches, ordered and ranged as it asks.
    func fetchObjectIDs(_ request: StoreFetchRequest) throws -> ObjectIDList
}

/// A store that counts the objects a fetch matches without reading them. The SQLite store.
///
/// Without it the coordinator fetches the matching objects' IDs (no order, no range) and
/// applies the request's offset and limit to their number.
@_spi(StoreImplementation)
public protocol ObjectCountStore: PersistentStore {
    /// How many objects a request matches, its offset and limit applied.
    func count(_ request: StoreFetchRequest) throws -> Int
}

/// A store that computes a dictionary fetch's groups and aggregates where its rows are. The
/// SQLite store.
///
/// Without it (or when it returns nil) the context fetches the rows and groups them in memory.
@_spi(StoreImplementation)
public protocol GroupingStore: PersistentStore {
    /// The groups and aggregates of a dictionary fetch; nil when the store cannot compute exactly
    /// what grouping its rows in memory gives.
    func groups(_ request: StoreGroupingRequest) throws -> StoreGroupingResult?
}

/// A store that reads some properties of each object a fetch matches without making the
/// objects' snapshots. The SQLite store.
///
/// Without it (or when it returns nil) the context reads the matching objects' snapshots.
@_spi(StoreImplementation)
public protocol RowValuesStore: PersistentStore {
    /// For each object a fetch matches, in order and range, the stored value of each key (an
    /// attribute's value, a to-one's destination ID; nil: none); nil when the store cannot read
    /// them so.
    func rowValues(_ request: StoreValuesRequest) throws -> [[AttributeValue?]]?

    /// Hands each row ``rowValues(_:)`` reads to `body` as it is read, in one list `body` must
    /// not keep, instead of making them all first; returns false when the store cannot read them
    /// so, in which case the rows already handed are to be dropped.
    func forEachRowValues(_ request: StoreValuesRequest, _ body: ([AttributeValue?]) throws -> Void) throws -> Bool
}

extension RowValuesStore {
    /// Hands the rows of ``rowValues(_:)`` one by one, once they are all read.
    public func forEachRowValues(_ request: StoreValuesRequest, _ body: ([AttributeValue?]) throws -> Void) throws -> Bool {
        guard let rows = try rowValues(request) else { return false }
        for row in rows { try body(row) }
        return true
    }
}

/// A store that reads many objects' snapshots in one go (a batch of faults, prefetched
/// destinations). The SQLite store.
///
/// Without it the coordinator asks ``PersistentStore/snapshot(for:)`` for each object.
@_spi(StoreImplementation)
public protocol SnapshotBatchStore: PersistentStore {
    /// The snapshots of several objects; objects the store does not have are left out.
    func snapshots(for objectIDs: [ManagedObjectID]) throws -> [ObjectSnapshot]
}

/// A store that runs batch inserts, updates and deletes without reading objects. The SQLite
/// store; see `docs/batch-requests.md`.
///
/// Without it the coordinator runs a batch with the core requirements: a fetch of the objects
/// it selects, new primary keys, and one ``PersistentStore/save(_:)``, which lands whole or not
/// at all.
@_spi(StoreImplementation)
public protocol BatchExecutingStore: PersistentStore {
    /// Runs a batch insert, update or delete whole, or throws and changes nothing.
    func executeBatch(_ request: StoreBatchRequest) throws -> StoreBatchResult
}

/// A store that lists the destinations of a to-many whose inverse is a to-one kept with the
/// destinations (a foreign key), for many sources at once and with the versions it holds,
/// without making snapshots: what lets a context delete the destinations of a cascade it never
/// loaded without making them objects (see `docs/architecture.md`, "Cascades in the store"). The
/// SQLite store.
///
/// Without it (or when it returns nil) a cascade loads its destinations and deletes each as an
/// object.
@_spi(StoreImplementation)
public protocol CascadeListingStore: PersistentStore {
    /// The stored destinations of the to-many `relationship` of every object of `sources` (all
    /// of one entity), each with its stored version, in no particular order; nil when the store
    /// does not keep that relationship as its inverse's foreign key.
    func destinationsWithVersions(of sources: [ManagedObjectID], relationship: String) throws -> [StoreSaveRequest.DeletedObject]?
}

/// A store that takes a large save in parts inside one transaction: the new objects a few
/// thousand at a time, then the updates and deletes, so that the saving context never holds the
/// snapshots of every new object at once. The SQLite store.
///
/// The parts' new objects leave out each unordered to-many whose inverse is a to-one held by
/// every destination the save writes: the destinations' rows carry it. A part that cannot be
/// taken so makes the context send the save whole instead.
///
/// Without it (or when ``newObjectsPerPart(ofSaving:)`` returns nil) the context sends one
/// ``StoreSaveRequest`` to ``PersistentStore/save(_:)``.
@_spi(StoreImplementation)
public protocol PartedSaveStore: PersistentStore {
    /// How many new objects each part of a save of `count` new objects holds; nil when the store
    /// takes that save whole (too small to part, or a store state that needs every row at once,
    /// such as persistent history, derived attributes or uniqueness constraints).
    func newObjectsPerPart(ofSaving count: Int) -> Int?
    /// Applies the requests `nextPart` gives until it gives nil, in one transaction: all of them
    /// land or none does. Every part but the last holds new objects only; the last one holds
    /// the updates and deletes, whose conflicts are found as ``PersistentStore/save(_:)`` finds them.
    func save(inParts nextPart: () throws -> StoreSaveRequest?) throws
}
