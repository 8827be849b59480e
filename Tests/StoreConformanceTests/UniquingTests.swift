import Foundation
import Strata
import StrataTestSupport
import Testing

/// Scenario 5: one instance per row and context.
@Suite("Uniquing")
struct UniquingTests {
    /// Three saved students; returns the context that saved them and their IDs by name.
    private func seed(_ store: StoreUnderTest) throws -> (ManagedObjectContext, [String: ManagedObjectID]) {
        let context = try store.makeContext(model: SampleModels.student())
        var ids: [String: ManagedObject] = [:]
        for (id, name) in [(1, "Alice"), (2, "Bob"), (3, "Carol")] {
            ids[name] = try context.insert("Student", ["id": id, "name": name, "age": 20 + id])
        }
        try context.save()
        return (context, ids.mapValues(\.objectID))
    }

    @Test("Scenario 5: two fetches give the same instances", arguments: StoreUnderTest.all)
    func twoFetches(store: StoreUnderTest) throws {
        let (saver, _) = try seed(store)
        let context = saver.freshContext()
        let first = try context.fetch(sortedRequest("Student"))
        let second = try context.fetch(FetchRequest(
            entityName: "Student", sortDescriptors: [ObjectSortDescriptor(key: "id", ascending: false)]))
        #expect(first.count == 3)
        #expect(second.count == 3)
        for (a, b) in zip(first, second.reversed()) { #expect(a === b) }

        let bob = try #require(try context.fetch(FetchRequest(
            entityName: "Student", predicate: try ObjectPredicate(format: "name == %@", "Bob"))).first)
        #expect(bob === first[1])
        #expect(context.registeredObjects.count == 3)
    }

    @Test("A context holds unchanged objects weakly and changed ones until saved", arguments: StoreUnderTest.all)
    func weakRegistry(store: StoreUnderTest) throws {
        let (saver, ids) = try seed(store)
        let context = saver.freshContext()
        let alice = try #require(ids["Alice"])
        let bob = try #require(ids["Bob"])
        do {
            let object = try context.existingObject(with: alice)
            #expect(context.registeredObject(for: alice) === object)
            #expect(try context.fetch(sortedRequest("Student"))[0] === object)
        }
        // Nothing uses Alice now and she has no changes: the context let her go.
        #expect(context.registeredObject(for: alice) == nil)
        do {
            try context.existingObject(with: bob).setValue("Robert", forKey: "name")
        }
        // Bob has unsaved changes: the context keeps him.
        #expect(try context.registeredObject(for: bob)?.string("name") == "Robert")
        try context.save()
        #expect(context.registeredObject(for: bob) == nil)
        #expect(try context.existingObject(with: bob).string("name") == "Robert")
    }

    @Test("Scenario 5: a fetch and object(with:) give the same instance", arguments: StoreUnderTest.all)
    func fetchAndObjectWithID(store: StoreUnderTest) throws {
        let (saver, ids) = try seed(store)
        let context = saver.freshContext()
        let carolID = try #require(ids["Carol"])

        // Fetch first, then look up by ID.
        let fetched = try context.fetch(sortedRequest("Student"))
        #expect(try context.object(with: carolID) === fetched[2])
        #expect(try context.existingObject(with: carolID) === fetched[2])

        // Look up by ID first (a fault), then fetch: the fault is the instance the fetch fills.
        let other = saver.freshContext()
        let fault = try other.object(with: carolID)
        let results = try other.fetch(FetchRequest(
            entityName: "Student", predicate: try ObjectPredicate(format: "id == 3")))
        #expect(results.count == 1)
        #expect(results.first === fault)
        #expect(try fault.string("name") == "Carol")
    }

    @Test("Scenario 5: the saving context keeps its instances after the save", arguments: StoreUnderTest.all)
    func savingContextKeepsInstances(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.student())
        let alice = try context.insert("Student", ["id": 1, "name": "Alice"])
        try context.save()
        let fetched = try context.fetch(FetchRequest(entityName: "Student"))
        #expect(fetched.count == 1)
        #expect(fetched.first === alice)
        #expect(try context.object(with: alice.objectID) === alice)
    }

    @Test("Lookups that go round three entities in turn find the one instance of each row", arguments: StoreUnderTest.all)
    func lookupsAcrossEntities(store: StoreUnderTest) throws {
        let saver = try store.makeContext(model: SampleModels.moody())
        var inserted: [ManagedObject] = []
        for number in 1...4 {
            let continent = try saver.insert("Continent", ["name": "Continent \(number)"])
            let country = try saver.insert("Country", ["name": "Country \(number)"])
            let mood = try saver.insert("Mood", ["date": Date(timeIntervalSince1970: Double(number)), "rating": number])
            try country.setValue(continent, forKey: "continent")
            try mood.setValue(country, forKey: "country")
            inserted += [continent, country, mood]
        }
        try saver.save()
        let ids = inserted.map(\.objectID)
        let context = saver.freshContext()
        let first = try ids.map { try context.object(with: $0) }
        for _ in 1...3 {
            for (id, object) in zip(ids, first) { #expect(try context.object(with: id) === object) }
        }
        // Fetched rows and the faults of their to-ones come out as the same instances too.
        let moods = try context.fetch(sortedRequest("Mood", by: "date"))
        #expect(moods.count == 4)
        for (index, mood) in moods.enumerated() {
            #expect(mood === first[index * 3 + 2])
            #expect(try mood.value(forKey: "country") as? ManagedObject === first[index * 3 + 1])
        }
        #expect(context.registeredObjects.count == 12)
    }
}
