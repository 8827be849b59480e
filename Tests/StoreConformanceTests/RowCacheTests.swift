import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// The coordinator's row cache: rows one context read serve the faults of another, and no
/// context sees a row older than its coordinator's own saves.
@Suite("Row cache")
struct RowCacheTests {
    /// Ten people saved through a counting coordinator with a cache of `capacity` rows.
    private func people(_ store: StoreUnderTest, capacity: Int = PersistentStoreCoordinator.defaultRowCacheCapacity)
        throws -> (PersistentStoreCoordinator, CountingStore, [ManagedObjectID]) {
        let (coordinator, counting) = try CountingStore.coordinator(store, model: SampleModels.company(), rowCacheCapacity: capacity)
        let context = ManagedObjectContext(coordinator: coordinator)
        let employees = try (0..<10).map { try context.insert("Employee", ["name": "E\($0)", "salary": Double($0)]) }
        try context.save()
        return (coordinator, counting, employees.map(\.objectID))
    }

    @Test("a fault another context read fires from the cache; a context's reads go to the store once", arguments: StoreUnderTest.all)
    func sharedBetweenContexts(store: StoreUnderTest) throws {
        let (coordinator, counting, ids) = try people(store)
        let first = ManagedObjectContext(coordinator: coordinator)
        counting.reset()
        #expect(try first.fetch(FetchRequest(entityName: "Employee")).count == 10)
        #expect(counting.reads == 1)

        let second = ManagedObjectContext(coordinator: coordinator)
        counting.reset()
        let names = try ids.map { try second.object(with: $0).string("name") }
        #expect(names == (0..<10).map { "E\($0)" })
        #expect(counting.reads == 0, "every row came from the cache")
        #expect(coordinator.cachedRowCount == 10)
    }

    @Test("a fetch over cached rows gives the saved values, in order; each context's objects change apart", arguments: StoreUnderTest.all)
    func fetchOverCachedRows(store: StoreUnderTest) throws {
        let (coordinator, counting, ids) = try people(store)
        let bySalary = FetchRequest(entityName: "Employee", sortDescriptors: [ObjectSortDescriptor(key: "salary", ascending: false)])
        _ = try ManagedObjectContext(coordinator: coordinator).fetch(bySalary)
        #expect(coordinator.cachedRowCount == 10)
        let writer = ManagedObjectContext(coordinator: coordinator)
        try writer.object(with: ids[3]).setValue("Renamed", forKey: "name")
        try writer.save()

        let expected = (0..<10).reversed().map { $0 == 3 ? "Renamed" : "E\($0)" }
        let first = ManagedObjectContext(coordinator: coordinator)
        counting.reset()
        let fetched = try first.fetch(bySalary)
        #expect(try fetched.map { try $0.string("name") } == expected)
        #expect(counting.reads == 1, "a fetch asks the store once, cached rows or not")

        // Another context fetches the same rows; changing one context's object leaves the other's.
        let second = ManagedObjectContext(coordinator: coordinator)
        let again = try second.fetch(bySalary)
        try again[0].setValue("Changed here only", forKey: "name")
        #expect(try fetched[0].string("name") == "E9")
        #expect(try again.dropFirst().map { try $0.string("name") } == Array(expected.dropFirst()))
        let third = ManagedObjectContext(coordinator: coordinator)
        #expect(try third.fetch(bySalary).map { try $0.string("name") } == expected)
    }

    @Test("with the cache off, the second context reads the store", arguments: StoreUnderTest.all)
    func off(store: StoreUnderTest) throws {
        let (coordinator, counting, ids) = try people(store, capacity: 0)
        _ = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Employee"))
        counting.reset()
        let second = ManagedObjectContext(coordinator: coordinator)
        _ = try second.object(with: ids[0]).string("name")
        #expect(counting.singleSnapshots == 1)
        #expect(coordinator.cachedRowCount == 0)
    }

    @Test("a save replaces what the cache held: other contexts read the saved values", arguments: StoreUnderTest.all)
    func saveInvalidates(store: StoreUnderTest) throws {
        let (coordinator, _, ids) = try people(store)
        let reader = ManagedObjectContext(coordinator: coordinator)
        _ = try reader.fetch(FetchRequest(entityName: "Employee"))
        let writer = ManagedObjectContext(coordinator: coordinator)
        try writer.object(with: ids[3]).setValue("Renamed", forKey: "name")
        try writer.delete(writer.object(with: ids[4]))
        try writer.save()

        let later = ManagedObjectContext(coordinator: coordinator)
        #expect(try later.object(with: ids[3]).string("name") == "Renamed")
        #expect(throws: ObjectError.self) { try later.existingObject(with: ids[4]) }
        // The saved object's new version came from the store: a change over it saves.
        try later.object(with: ids[3]).setValue("Again", forKey: "name")
        try later.save()
    }

    @Test("refresh reads the store again; a batch update is seen by every context after it", arguments: StoreUnderTest.all)
    func refreshAndBatch(store: StoreUnderTest) throws {
        let (coordinator, counting, ids) = try people(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let person = try context.object(with: ids[0])
        _ = try person.string("name")
        counting.reset()
        try context.refresh(person, mergeChanges: false)
        _ = try person.string("name")
        #expect(counting.singleSnapshots == 1, "the refreshed object was read from the store")

        var update = BatchUpdateRequest(entityName: "Employee")
        update.propertiesToUpdate = ["name": "Same"]
        _ = try context.execute(update)
        let fresh = ManagedObjectContext(coordinator: coordinator)
        #expect(try ids.map { try fresh.object(with: $0).string("name") } == Array(repeating: "Same", count: 10))
    }

    @Test("the cache holds at most its capacity; a fetch larger than it is not kept", arguments: [StoreUnderTest.all[0], StoreUnderTest.all[3]])
    func bounded(store: StoreUnderTest) throws {
        let (coordinator, _, ids) = try people(store, capacity: 4)
        _ = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Employee"))
        #expect(coordinator.cachedRowCount == 0, "ten rows are more than four")
        let context = ManagedObjectContext(coordinator: coordinator)
        for id in ids { _ = try context.object(with: id).string("name") }
        #expect(coordinator.cachedRowCount <= 4)
        #expect(coordinator.cachedRowCount > 0)
    }

    @Test("rows fetched again stay cached when they are more than half the capacity", arguments: StoreUnderTest.all)
    func workingSetAboveHalf(store: StoreUnderTest) throws {
        let (coordinator, counting, ids) = try people(store, capacity: 12)
        for _ in 0..<3 { _ = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Employee")) }
        #expect(coordinator.cachedRowCount == 10)

        let reader = ManagedObjectContext(coordinator: coordinator)
        counting.reset()
        let names = try ids.map { try reader.object(with: $0).string("name") }
        #expect(names == (0..<10).map { "E\($0)" })
        #expect(counting.reads == 0, "all ten rows were still cached after fetching them again")
    }

    @Test("fetches repeated over cached rows follow every save: changed, deleted and new rows, in order and range",
          arguments: StoreUnderTest.all)
    func repeatedFetchesFollowSaves(store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: SampleModels.company())
        let setup = ManagedObjectContext(coordinator: coordinator)
        let people = try (0..<300).map { try setup.insert("Employee", ["name": "E\($0)", "salary": Double($0)]) }
        try setup.save()
        var names: [ManagedObjectID: (name: String, salary: Double)] = [:]
        for (index, person) in people.enumerated() { names[person.objectID] = ("E\(index)", Double(index)) }

        let request = FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "salary >= 40"),
                                   sortDescriptors: [ObjectSortDescriptor(key: "salary", ascending: false)])
        var ranged = request
        ranged.fetchOffset = 15
        ranged.fetchLimit = 100
        func check(_ round: Int) throws {
            let expected = names.values.filter { $0.salary >= 40 }.sorted { $0.salary > $1.salary }.map(\.name)
            let context = ManagedObjectContext(coordinator: coordinator)
            #expect(try context.fetch(request).map { try $0.string("name") } == expected, "round \(round)")
            #expect(try context.fetch(ranged).map { try $0.string("name") } == Array(expected.dropFirst(15).prefix(100)),
                    "round \(round)")
        }
        for round in 0..<4 {
            try check(round)
            // Between fetches another context renames some, deletes some and inserts some.
            let writer = ManagedObjectContext(coordinator: coordinator)
            let ids = names.sorted { $0.value.salary < $1.value.salary }.map(\.key)
            for id in ids[(round * 50 + 45)...].prefix(7) {
                let renamed = "R\(round) " + (names[id]?.name ?? "")
                try writer.object(with: id).setValue(renamed, forKey: "name")
                names[id]?.name = renamed
            }
            for id in ids[(round * 50 + 60)...].prefix(3) {
                try writer.delete(writer.object(with: id))
                names[id] = nil
            }
            let added = try (0..<3).map { index in
                (try writer.insert("Employee", ["name": "N\(round).\(index)", "salary": 1000.5 + Double(round * 3 + index)]),
                 "N\(round).\(index)", 1000.5 + Double(round * 3 + index))
            }
            try writer.save()
            for (person, name, salary) in added { names[person.objectID] = (name, salary) }
        }
        try check(4)
    }
}
