import Foundation
import Strata
import StrataTestSupport
import Testing

/// Scenario 6: fetches see the context's unsaved inserts, changes and deletes unless told not to.
@Suite("Pending changes")
struct PendingChangesTests {
    /// Saved students, each `(id, name, age)`.
    private func context(
        _ store: StoreUnderTest, saved: [(Int, String, Int)]
    ) throws -> (ManagedObjectContext, [String: ManagedObject]) {
        let context = try store.makeContext(model: SampleModels.student())
        var objects: [String: ManagedObject] = [:]
        for (id, name, age) in saved {
            objects[name] = try context.insert("Student", ["id": id, "name": name, "age": age])
        }
        try context.save()
        return (context, objects)
    }

    private func adults(pending: Bool = true) throws -> FetchRequest<ManagedObject> {
        var request = sortedRequest("Student", predicate: try ObjectPredicate(format: "age >= %@", 19))
        request.includesPendingChanges = pending
        return request
    }

    @Test("Scenario 6: an unsaved insert that matches is fetched, unless pending changes are excluded",
          arguments: StoreUnderTest.all)
    func unsavedInsert(store: StoreUnderTest) throws {
        let (context, _) = try context(store, saved: [(1, "Alice", 18), (2, "Bob", 20), (3, "Carol", 22)])
        let dave = try context.insert("Student", ["id": 4, "name": "Dave", "age": 19])
        try context.insert("Student", ["id": 5, "name": "Eve", "age": 17])

        #expect(try context.strings(adults()) == ["Bob", "Carol", "Dave"])
        #expect(try context.fetch(adults()).contains(dave))
        #expect(try context.count(for: adults()) == 3)
        #expect(try context.strings(adults(pending: false)) == ["Bob", "Carol"])
        #expect(try context.count(for: adults(pending: false)) == 2)
        #expect(try context.strings(sortedRequest("Student")) == ["Alice", "Bob", "Carol", "Dave", "Eve"])
        // The store itself has only the saved three.
        #expect(try context.freshContext().strings(adults()) == ["Bob", "Carol"])
    }

    @Test("Scenario 6: an unsaved delete is left out", arguments: StoreUnderTest.all)
    func unsavedDelete(store: StoreUnderTest) throws {
        let (context, objects) = try context(store, saved: [(1, "Alice", 18), (2, "Bob", 20), (3, "Carol", 22)])
        try context.delete(try #require(objects["Carol"]))
        #expect(try context.strings(adults()) == ["Bob"])
        #expect(try context.count(for: adults()) == 1)
        #expect(try context.strings(sortedRequest("Student")) == ["Alice", "Bob"])
        #expect(try context.freshContext().strings(adults()) == ["Bob", "Carol"])
    }

    @Test("Scenario 6: an unsaved change that makes an object match or stop matching is honoured",
          arguments: StoreUnderTest.all)
    func unsavedChange(store: StoreUnderTest) throws {
        let (context, objects) = try context(store, saved: [(1, "Alice", 18), (2, "Bob", 20), (3, "Carol", 22)])
        try #require(objects["Alice"]).setValue(25, forKey: "age")
        try #require(objects["Bob"]).setValue(10, forKey: "age")
        #expect(try context.strings(adults()) == ["Alice", "Carol"])
        #expect(try context.count(for: adults()) == 2)
        #expect(try context.strings(adults(pending: false)) == ["Bob", "Carol"])

        // A changed sort key moves the object in the order.
        try #require(objects["Carol"]).setValue("Aaron", forKey: "name")
        #expect(try context.strings(adults()) == ["Aaron", "Alice"])
    }

    @Test("Scenario 6: sort, offset and limit over saved and unsaved objects", arguments: StoreUnderTest.all)
    func rangeOverMixedObjects(store: StoreUnderTest) throws {
        let (context, objects) = try context(
            store, saved: [(1, "Ann", 30), (3, "Cid", 30), (5, "Eve", 30), (7, "Gus", 30)])
        for (id, name) in [(2, "Bea"), (4, "Dan"), (6, "Fay")] {
            try context.insert("Student", ["id": id, "name": name, "age": 30])
        }
        let page = sortedRequest("Student", offset: 2, limit: 3)
        #expect(try context.strings(sortedRequest("Student")) == ["Ann", "Bea", "Cid", "Dan", "Eve", "Fay", "Gus"])
        #expect(try context.strings(page) == ["Cid", "Dan", "Eve"])
        #expect(try context.count(for: page) == 3)

        var descending = page
        descending.sortDescriptors = [ObjectSortDescriptor(key: "name", ascending: false)]
        #expect(try context.strings(descending) == ["Eve", "Dan", "Cid"])

        var byID = page
        byID.sortDescriptors = [ObjectSortDescriptor(key: "id", ascending: true)]
        byID.fetchOffset = 5
        #expect(try context.strings(byID) == ["Fay", "Gus"])
        #expect(try context.count(for: byID) == 2)

        // An unsaved delete and an unsaved rename move the page.
        try context.delete(try #require(objects["Cid"]))
        #expect(try context.strings(page) == ["Dan", "Eve", "Fay"])
        try #require(objects["Gus"]).setValue("Abe", forKey: "name")
        #expect(try context.strings(page) == ["Bea", "Dan", "Eve"])

        var storeOnly = page
        storeOnly.includesPendingChanges = false
        #expect(try context.freshContext().strings(storeOnly) == ["Eve", "Gus"])
        #expect(try context.freshContext().count(for: storeOnly) == 2)
    }
}
