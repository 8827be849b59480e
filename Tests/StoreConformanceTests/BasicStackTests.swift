import Foundation
import Strata
import StrataTestSupport
import Testing

/// Scenarios 1 and 2 of SCENARIOS.md on every store type.
@Suite("Basic stack")
struct BasicStackTests {
    @Test("Scenario 1: insert a student, save, fetch by id", arguments: StoreUnderTest.all)
    func insertSaveFetch(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.student())
        let alice = try context.insertNewObject(forEntityName: "Student")
        try alice.setValue(1, forKey: "id")
        try alice.setValue("Alice", forKey: "name")
        try alice.setValue(18, forKey: "age")
        try context.save()
        #expect(!alice.objectID.isTemporaryID)

        let fresh = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        let request = FetchRequest(
            entityName: "Student",
            predicate: try ObjectPredicate(format: "id = %@", 1),
            sortDescriptors: [ObjectSortDescriptor(key: "id", ascending: true)])
        let results = try fresh.fetch(request)
        #expect(results.count == 1)
        let student = try #require(results.first)
        #expect(try student.value(forKey: "id") as? Int64 == 1)
        #expect(try student.value(forKey: "name") as? String == "Alice")
        #expect(try student.value(forKey: "age") as? Int16 == 18)
        #expect(student.objectID == alice.objectID)
    }

    @Test("Scenario 2: list every entity with its attribute names", arguments: StoreUnderTest.all)
    func listModel(store: StoreUnderTest) throws {
        let model = try SampleModels.moody()
        let (coordinator, _) = try store.makeCoordinator(model: model)
        let listing = coordinator.managedObjectModel.entities.map { entity in
            "\(entity.name): \(entity.attributesByName.keys.sorted().joined(separator: ", "))"
        }
        #expect(listing == [
            "Region: name", "Continent: name", "Country: name", "Mood: date, rating",
        ])
    }
}
