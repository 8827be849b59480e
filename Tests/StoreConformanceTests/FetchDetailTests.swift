import Foundation
import Strata
import StrataTestSupport
import Testing

/// Two details of fetch requests: what a dictionary fetch returns with no properties asked for,
/// and `shouldRefreshRefetchedObjects`.
@Suite("Fetch details")
struct FetchDetailTests {
    private func seedCompany(_ store: StoreUnderTest) throws -> ManagedObjectContext {
        let context = try store.makeContext(model: SampleModels.company())
        let acme = try context.insert("Employer", ["name": "Acme"])
        try context.insert("Employee", ["name": "Alice", "salary": 10.0, "whereIWork": acme])
        try context.save()
        return context
    }

    @Test("A dictionary fetch with no propertiesToFetch returns the attributes only", arguments: StoreUnderTest.all)
    func attributesOnly(store: StoreUnderTest) throws {
        let context = try seedCompany(store)
        for pending in [false, true] {
            let reader = context.freshContext()
            // With an unsaved change the context answers in memory; without, the store does.
            if pending { try reader.insert("Employee", ["name": "Bob"]) }
            var request = sortedRequest("Employee")
            request.resultType = .dictionary
            let rows = try reader.fetchDictionaries(request)
            #expect(rows.count == (pending ? 2 : 1))
            let alice = try #require(rows.first)
            #expect(Set(alice.requestedKeys) == ["name", "salary"])
            #expect(alice["name"] as? String == "Alice")
            #expect(alice["whereIWork"] == nil)

            // A relationship appears when asked for, as its destination's ID.
            request.propertiesToFetch = ["name", "whereIWork"]
            let asked = try #require(try reader.fetchDictionaries(request).first)
            #expect(asked.requestedKeys == ["name", "whereIWork"])
            #expect(asked["whereIWork"] != nil)
        }
    }

    @Test("shouldRefreshRefetchedObjects: loaded objects take the stored values; by default they keep theirs",
          arguments: StoreUnderTest.all)
    func refreshRefetched(store: StoreUnderTest) throws {
        let context = try seedCompany(store)
        let reader = context.freshContext()
        let alice = try #require(try reader.fetch(sortedRequest("Employee")).first)
        let bob = try reader.insert("Employee", ["name": "Bob", "salary": 1.0])
        try reader.save()
        #expect(try alice.string("name") == "Alice")

        // Another context changes both rows in the store.
        let writer = context.freshContext()
        for employee in try writer.fetch(sortedRequest("Employee")) {
            try employee.setValue(try employee.string("name") + " (renamed)", forKey: "name")
        }
        try writer.save()

        // By default a fetch does not change what a loaded object holds.
        _ = try reader.fetch(sortedRequest("Employee"))
        #expect(try alice.string("name") == "Alice")
        #expect(try bob.string("name") == "Bob")

        // Bob has an unsaved change: it is kept. Alice takes the stored name.
        try bob.setValue(2.0, forKey: "salary")
        var request = sortedRequest("Employee")
        request.shouldRefreshRefetchedObjects = true
        let refetched = try reader.fetch(request)
        #expect(refetched.count == 2)
        #expect(try alice.string("name") == "Alice (renamed)")
        #expect(!alice.hasChanges)
        #expect(bob.isUpdated)
        #expect(try bob.value(forKey: "salary") as? Double == 2.0)

        // With no unsaved change, the store answers the fetch whole: the same refresh.
        try reader.refresh(bob, mergeChanges: false)
        let writersAlice = try writer.existingObject(with: alice.objectID)
        try writersAlice.setValue("Alice (again)", forKey: "name")
        try writer.save()
        _ = try reader.fetch(request)
        #expect(try alice.string("name") == "Alice (again)")
        #expect(try bob.string("name") == "Bob (renamed)")

        // Alice, refreshed, saves over the writer's version without a conflict.
        try alice.setValue(20.0, forKey: "salary")
        try reader.save()
        let check = context.freshContext()
        let stored = try check.existingObject(with: alice.objectID)
        #expect(try stored.string("name") == "Alice (again)")
        #expect(try stored.value(forKey: "salary") as? Double == 20.0)
    }
}
