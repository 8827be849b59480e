import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport

/// A store that forwards everything to another store and counts the reads that reach it, so that
/// a test can say how many store requests a fetch, a batch or a fault costs. No tests live here.
///
/// It streams fetches, counts and reads many snapshots at once as the wrapped store does (or as
/// the coordinator does for a store without those capabilities); it leaves the other
/// capabilities to the coordinator's fallbacks, which go through its own core requirements.
final class CountingStore: PersistentStore, StreamingFetchStore, ObjectCountStore, SnapshotBatchStore {
    /// The store read and written.
    let inner: any PersistentStore
    private let counters = Locked<[String: Int]>([:])

    init(_ inner: any PersistentStore) { self.inner = inner }

    /// A coordinator for `model` whose only store is a counting wrapper around a fresh store of
    /// `store`'s type, keeping up to `rowCacheCapacity` rows.
    static func coordinator(
        _ store: StoreUnderTest, model: ManagedObjectModel,
        rowCacheCapacity: Int = PersistentStoreCoordinator.defaultRowCacheCapacity
    ) throws -> (PersistentStoreCoordinator, CountingStore) {
        let inner = try store.makeCoordinator(model: model).1
        let counting = CountingStore(inner)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model, rowCacheCapacity: rowCacheCapacity)
        try coordinator.addPersistentStore(counting)
        return (coordinator, counting)
    }

    /// How many times each read was asked for since the last ``reset()``.
    var fetches: Int { count("fetch") }
    var counts: Int { count("count") }
    var singleSnapshots: Int { count("snapshot") }
    var batchSnapshots: Int { count("snapshots") }
    var relatedObjectIDsCalls: Int { count("related") }
    /// Every read of any kind.
    var reads: Int { counters.withLock { $0.values.reduce(0, +) } }

    func reset() { counters.withLock { $0 = [:] } }

    private func count(_ name: String) -> Int { counters.withLock { $0[name] ?? 0 } }
    private func bump(_ name: String) { counters.withLock { $0[name, default: 0] += 1 } }

    var identifier: String { inner.identifier }
    var type: StoreType { inner.type }
    var url: URL? { inner.url }
    var configurationName: String? { inner.configurationName }
    var model: ManagedObjectModel { inner.model }
    var metadata: [String: PropertyListValue] { inner.metadata }

    func setMetadata(_ metadata: [String: PropertyListValue]) throws { try inner.setMetadata(metadata) }

    /// Takes the hint an incremental store takes: without property values, only IDs come back,
    /// so a test fails if a fetch uses values it said it did not need.
    func fetch(_ request: StoreFetchRequest) throws -> [ObjectSnapshot] {
        bump("fetch")
        let snapshots = try inner.fetch(request)
        guard !request.includesPropertyValues else { return snapshots }
        return snapshots.map { ObjectSnapshot(objectID: $0.objectID, version: $0.version) }
    }

    /// Forwards the receiver too, so that a store that hands rows on as it reads them does so
    /// through this one; without property values, only IDs go on.
    func fetch(_ request: StoreFetchRequest, reusing cachedRows: CachedRows?, into receiver: any SnapshotReceiver) throws {
        bump("fetch")
        guard !request.includesPropertyValues else { return try inner.fetchHandingOn(request, reusing: cachedRows, to: receiver) }
        try inner.fetchHandingOn(request, reusing: cachedRows, to: IDsOnly(receiver))
    }

    /// Passes on the IDs and versions of the snapshots it takes.
    private final class IDsOnly: SnapshotReceiver {
        let next: any SnapshotReceiver
        init(_ next: any SnapshotReceiver) { self.next = next }
        func expect(_ count: Int) { next.expect(count) }
        func receive(_ snapshots: inout [ObjectSnapshot]) throws {
            var idsOnly = snapshots.map { ObjectSnapshot(objectID: $0.objectID, version: $0.version) }
            snapshots.removeAll(keepingCapacity: true)
            try next.receive(&idsOnly)
        }
    }

    func count(_ request: StoreFetchRequest) throws -> Int {
        bump("count")
        return try inner.matchingCount(request)
    }

    func snapshot(for objectID: ManagedObjectID) throws -> ObjectSnapshot? {
        bump("snapshot")
        return try inner.snapshot(for: objectID)
    }

    func snapshots(for objectIDs: [ManagedObjectID]) throws -> [ObjectSnapshot] {
        bump("snapshots")
        return try inner.loadSnapshots(for: objectIDs)
    }

    func relatedObjectIDs(of objectID: ManagedObjectID, relationship: String) throws -> [ManagedObjectID] {
        bump("related")
        return try inner.relatedObjectIDs(of: objectID, relationship: relationship)
    }

    func allocatePrimaryKeys(rootEntity: String, count: Int) throws -> [Int64] {
        try inner.allocatePrimaryKeys(rootEntity: rootEntity, count: count)
    }

    func save(_ request: StoreSaveRequest) throws { try inner.save(request) }
    func contentsImage() throws -> StoreImage { try inner.contentsImage() }
    func replaceContents(with image: StoreImage) throws { try inner.replaceContents(with: image) }
}
