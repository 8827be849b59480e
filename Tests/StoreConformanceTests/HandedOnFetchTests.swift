import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// An employee whose `awakeFromFetch()` reads its employer (firing a fault) and counts the
/// employers (a fetch): what a hook may do, since it runs once the store is done with the fetch.
final class CuriousEmployee: ManagedObject {
    /// What each call of `awakeFromFetch()` saw: the employer's name and how many employers there are.
    var awakenings: [String] = []

    override func awakeFromFetch() {
        super.awakeFromFetch()
        do {
            let employer = try value(forKey: "whereIWork", as: ManagedObject.self)
            let name = try employer?.value(forKey: "name", as: String.self) ?? "none"
            let employers = try managedObjectContext?.count(for: FetchRequest(entityName: "Employer")) ?? -1
            awakenings.append("\(name), \(employers)")
        } catch {
            awakenings.append("error: \(error)")
        }
    }
}

// A guard against a hang, longer than a whole sanitizer run (docs/testing.md says why).
/// A fetch the stores answer whole reaches the context as the store reads it, a run of rows at a
/// time (``SnapshotReceiver``; the SQLite store hands on ``SQLiteStore/handedRowCount`` rows at
/// a time, the other stores their whole answer): every object arrives, in order, filled once.
@Suite("Fetches handed on as read", .timeLimit(.minutes(30)))
struct HandedOnFetchTests {
    /// More rows than the SQLite store hands on at once: three runs, the last one short.
    static let rowCount = 2 * SQLiteStore.handedRowCount + 3

    /// `rowCount` employees `E00000`… with salaries 0…, working for three employers in long runs
    /// (each employer's run crosses a boundary between runs of rows).
    private func staff(_ store: StoreUnderTest, capacity: Int = PersistentStoreCoordinator.defaultRowCacheCapacity)
        throws -> (PersistentStoreCoordinator, CountingStore) {
        let (coordinator, counting) = try CountingStore.coordinator(store, model: SampleModels.company(), rowCacheCapacity: capacity)
        let context = ManagedObjectContext(coordinator: coordinator)
        let employers = try ["Acme", "Bolt", "Cogs"].map { try context.insert("Employer", ["name": $0]) }
        for index in 0..<Self.rowCount {
            let employee = try context.insert("Employee", ["name": Self.name(index), "salary": Double(index)])
            try employee.setValue(employers[index * 3 / Self.rowCount], forKey: "whereIWork")
        }
        try context.save()
        return (coordinator, counting)
    }

    private static func name(_ index: Int) -> String { "E" + String(index + 100_000).dropFirst() }

    @Test("every object of a fetch of several runs comes once, in order, filled, with its to-one", arguments: StoreUnderTest.all)
    func everyObjectInOrder(store: StoreUnderTest) throws {
        let (coordinator, counting) = try staff(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        counting.reset()
        let fetched = try context.fetch(FetchRequest(entityName: "Employee", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        #expect(counting.fetches == 1)
        #expect(fetched.count == Self.rowCount)
        #expect(fetched.allSatisfy { !$0.isFault })
        #expect(try fetched.map { try $0.string("name") } == (0..<Self.rowCount).map(Self.name))
        #expect(try fetched.map { try $0.value(forKey: "salary", as: Double.self) } == (0..<Self.rowCount).map(Double.init))
        let employers = try fetched.map { try $0.value(forKey: "whereIWork", as: ManagedObject.self)?.string("name") }
        #expect(employers == (0..<Self.rowCount).map { ["Acme", "Bolt", "Cogs"][$0 * 3 / Self.rowCount] })
        #expect(counting.reads == 1 + 3, "the three employers fill one by one; the employees came with the fetch")

        // Unsorted (key order, the whole table) and again: the same objects, nothing read twice.
        counting.reset()
        let again = try context.fetch(FetchRequest(entityName: "Employee"))
        #expect(again.count == Self.rowCount)
        #expect(Set(again.map(ObjectIdentifier.init)) == Set(fetched.map(ObjectIdentifier.init)))
        #expect(context.registeredObjects.count == Self.rowCount + 3)
        #expect(counting.fetches == 1)
    }

    @Test("with an unsaved insert, a fetch of several runs keeps every saved row, in the store's order",
          arguments: StoreUnderTest.all)
    func mergedWithPendingChanges(store: StoreUnderTest) throws {
        let (coordinator, _) = try staff(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        _ = try context.insert("Employee", ["name": "New", "salary": -1.0])
        // Unsorted: the saved rows in key order as the store gives them, the unsaved one after.
        let names = try context.strings(FetchRequest(entityName: "Employee"))
        #expect(names == (0..<Self.rowCount).map(Self.name) + ["New"])
    }

    @Test("a range over several runs gives its objects in order", arguments: StoreUnderTest.all)
    func rangeOverRuns(store: StoreUnderTest) throws {
        let (coordinator, _) = try staff(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [ObjectSortDescriptor(key: "name", ascending: false)])
        request.fetchOffset = 5
        request.fetchLimit = SQLiteStore.handedRowCount + 1
        let names = try context.fetch(request).map { try $0.string("name") }
        #expect(names == (0..<Self.rowCount).reversed().dropFirst(5).prefix(SQLiteStore.handedRowCount + 1).map(Self.name))
    }

    @Test("awakeFromFetch is called once per filled object, after the store is done: it may fire faults and fetch",
          arguments: StoreUnderTest.all)
    func awakeningAfterTheStore(store: StoreUnderTest) throws {
        let (coordinator, _) = try staff(store)
        coordinator.register(CuriousEmployee.self, forEntityName: "Employee")
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [ObjectSortDescriptor(key: "name")])
        request.fetchLimit = 3
        let first = try context.fetch(request)
        let curious = first.compactMap { $0 as? CuriousEmployee }
        #expect(curious.count == 3)
        #expect(curious.map(\.awakenings) == Array(repeating: ["Acme, 3"], count: 3))

        // A fetch of every employee fills the others, once each; the three filled already are not
        // woken again.
        let all = try context.fetch(FetchRequest(entityName: "Employee")).compactMap { $0 as? CuriousEmployee }
        #expect(all.count == Self.rowCount)
        #expect(all.allSatisfy { $0.awakenings.count == 1 })
        #expect(all.last?.awakenings == ["Cogs, 3"])
    }

    @Test("a fetch of more rows than the row cache holds keeps none of them and leaves the rows cached before",
          arguments: StoreUnderTest.all)
    func largerThanTheCache(store: StoreUnderTest) throws {
        let (coordinator, _) = try staff(store, capacity: SQLiteStore.handedRowCount + 10)
        let context = ManagedObjectContext(coordinator: coordinator)
        _ = try context.fetch(FetchRequest(entityName: "Employer"))
        #expect(coordinator.cachedRowCount == 3)
        _ = try context.fetch(FetchRequest(entityName: "Employee"))
        #expect(coordinator.cachedRowCount == 3, "the first run fits in the cache, the fetch does not")

        // A fetch that fits is kept whole, across runs.
        var fits = FetchRequest(entityName: "Employee")
        fits.fetchLimit = SQLiteStore.handedRowCount + 5
        _ = try ManagedObjectContext(coordinator: coordinator).fetch(fits)
        #expect(coordinator.cachedRowCount == 3 + SQLiteStore.handedRowCount + 5)
    }
}
