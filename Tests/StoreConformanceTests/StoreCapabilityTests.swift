import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Synchronization
import Testing

/// A store that forwards the core requirements to another store and records which store methods
/// the coordinator called: it declares no capability, so the coordinator must do everything with
/// the core requirements. Subclasses declare capabilities.
class CoreOnlyStore: PersistentStore, @unchecked Sendable {   // the only state is the lock-guarded list
    let inner: any PersistentStore
    private let calls = Mutex<[String]>([])

    init(_ inner: any PersistentStore) { self.inner = inner }

    /// The methods called since the last ``takeCalls()``, in order.
    func takeCalls() -> [String] { calls.withLock { calls in defer { calls = [] }; return calls } }
    func record(_ name: String) { calls.withLock { $0.append(name) } }

    var identifier: String { inner.identifier }
    var type: StoreType { inner.type }
    var url: URL? { inner.url }
    var configurationName: String? { inner.configurationName }
    var model: ManagedObjectModel { inner.model }
    var metadata: [String: PropertyListValue] { inner.metadata }
    func setMetadata(_ metadata: [String: PropertyListValue]) throws { try inner.setMetadata(metadata) }
    func fetch(_ request: StoreFetchRequest) throws -> [ObjectSnapshot] {
        record("fetch")
        return try inner.fetch(request)
    }
    func snapshot(for objectID: ManagedObjectID) throws -> ObjectSnapshot? {
        record("snapshot")
        return try inner.snapshot(for: objectID)
    }
    func relatedObjectIDs(of objectID: ManagedObjectID, relationship: String) throws -> [ManagedObjectID] {
        record("related")
        return try inner.relatedObjectIDs(of: objectID, relationship: relationship)
    }
    func allocatePrimaryKeys(rootEntity: String, count: Int) throws -> [Int64] {
        try inner.allocatePrimaryKeys(rootEntity: rootEntity, count: count)
    }
    func save(_ request: StoreSaveRequest) throws {
        record("save")
        try inner.save(request)
    }
    func contentsImage() throws -> StoreImage { try inner.contentsImage() }
    func replaceContents(with image: StoreImage) throws { try inner.replaceContents(with: image) }
}

/// A store that declares every capability and forwards each to the wrapped store (or to the
/// coordinator's fallback for it), recording the call.
final class FullyCapableStore: CoreOnlyStore, StreamingFetchStore, RowCacheFetchStore, ObjectIDFetchStore, ObjectCountStore,
    GroupingStore, RowValuesStore, SnapshotBatchStore, BatchExecutingStore, @unchecked Sendable {
    func fetch(_ request: StoreFetchRequest, reusing cachedRows: CachedRows?, into receiver: any SnapshotReceiver) throws {
        record("streamingFetch")
        try inner.fetchHandingOn(request, reusing: cachedRows, to: receiver)
    }
    func fetch(_ request: StoreFetchRequest, reusing cachedRows: CachedRows) throws -> [ObjectSnapshot] {
        record("rowCacheFetch")
        return try inner.fetch(request)
    }
    func fetchObjectIDs(_ request: StoreFetchRequest) throws -> ObjectIDList {
        record("fetchObjectIDs")
        return try inner.matchingObjectIDs(request)
    }
    func count(_ request: StoreFetchRequest) throws -> Int {
        record("count")
        return try inner.matchingCount(request)
    }
    func groups(_ request: StoreGroupingRequest) throws -> StoreGroupingResult? {
        record("groups")
        return try inner.groupsInStore(request)
    }
    func rowValues(_ request: StoreValuesRequest) throws -> [[AttributeValue?]]? {
        record("rowValues")
        return try inner.rowValuesInStore(request)
    }
    func snapshots(for objectIDs: [ManagedObjectID]) throws -> [ObjectSnapshot] {
        record("snapshots")
        return try inner.loadSnapshots(for: objectIDs)
    }
    func executeBatch(_ request: StoreBatchRequest) throws -> StoreBatchResult {
        record("executeBatch")
        return try inner.runBatch(request)
    }
}

/// A store that only reuses the coordinator's cached rows in a fetch.
final class RowCacheOnlyStore: CoreOnlyStore, RowCacheFetchStore, @unchecked Sendable {
    func fetch(_ request: StoreFetchRequest, reusing cachedRows: CachedRows) throws -> [ObjectSnapshot] {
        record("rowCacheFetch")
        return try inner.fetch(request)
    }
}

// A guard against a hang, longer than a whole sanitizer run (docs/testing.md says why).
/// The coordinator takes each capability a store declares (the SQLite store's fast paths), and
/// does the same work with the core requirements for a store that declares none.
@Suite("Store capabilities", .timeLimit(.minutes(30)))
struct StoreCapabilityTests {
    /// A coordinator whose only store is `wrap` around a fresh store of `store`'s type, holding
    /// three employees of one employer.
    private func stack<Wrapper: CoreOnlyStore>(_ store: StoreUnderTest, _ wrap: (any PersistentStore) -> Wrapper)
        throws -> (ManagedObjectContext, Wrapper) {
        let model = try SampleModels.company()
        let wrapper = wrap(try store.makeCoordinator(model: model).1)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(wrapper)
        let context = ManagedObjectContext(coordinator: coordinator)
        let employer = try context.insert("Employer", ["name": "Acme"])
        for name in ["Ann", "Bob", "Cy"] {
            try context.insert("Employee", ["name": name, "salary": 10.0]).setValue(employer, forKey: "whereIWork")
        }
        try context.save()
        _ = wrapper.takeCalls()
        return (context.freshContext(), wrapper)
    }

    /// Fetches, counts, fetches in batches (which lists IDs first) and batch-deletes, checking the answers; returns the store
    /// methods each step called.
    private func exercise(_ context: ManagedObjectContext, _ store: CoreOnlyStore) throws -> [[String]] {
        var steps: [[String]] = []
        #expect(try context.strings(sortedRequest("Employee")) == ["Ann", "Bob", "Cy"])
        steps.append(store.takeCalls())
        #expect(try context.count("Employee") == 3)
        steps.append(store.takeCalls())
        var batched = sortedRequest("Employee")
        batched.fetchBatchSize = 2   // lists the IDs first, then reads objects a batch at a time
        #expect(try context.fetchBatched(batched).count == 3)
        steps.append(store.takeCalls())
        var delete = BatchDeleteRequest(fetchRequest: sortedRequest("Employee", predicate: try ObjectPredicate(format: "name == 'Bob'")))
        delete.resultType = .objectIDs
        #expect(try context.execute(delete).objectIDs?.count == 1)
        steps.append(store.takeCalls())
        #expect(try context.freshContext().strings(sortedRequest("Employee")) == ["Ann", "Cy"])
        return steps
    }

    @Test("the coordinator takes every capability a store declares", arguments: StoreUnderTest.all)
    func capabilitiesTaken(store: StoreUnderTest) throws {
        let (context, wrapper) = try stack(store, FullyCapableStore.init)
        let steps = try exercise(context, wrapper)
        #expect(steps[0] == ["streamingFetch"])
        #expect(steps[1] == ["count"])
        #expect(steps[2] == ["fetchObjectIDs"])
        #expect(steps[3].first == "executeBatch")
        #expect(!steps.joined().contains("fetch"))
    }

    @Test("a store with the core requirements alone answers the same", arguments: StoreUnderTest.all)
    func coreRequirementsSuffice(store: StoreUnderTest) throws {
        let (context, wrapper) = try stack(store, CoreOnlyStore.init)
        let steps = try exercise(context, wrapper)
        #expect(steps[0] == ["fetch"])
        #expect(steps[1] == ["fetch"])
        #expect(steps[2] == ["fetch"])
        #expect(steps[3].contains("fetch") && steps[3].last == "save")
    }

    @Test("a store that reuses cached rows is handed them when the coordinator keeps rows", arguments: StoreUnderTest.all)
    func rowCacheTaken(store: StoreUnderTest) throws {
        let (context, wrapper) = try stack(store, RowCacheOnlyStore.init)
        #expect(try context.strings(sortedRequest("Employee")) == ["Ann", "Bob", "Cy"])
        #expect(wrapper.takeCalls() == ["rowCacheFetch"])
        var idsOnly = sortedRequest("Employee")
        idsOnly.includesPropertyValues = false
        #expect(try context.fetch(idsOnly).count == 3)
        #expect(wrapper.takeCalls() == ["fetch"])   // rows without values are not cached
    }
}
