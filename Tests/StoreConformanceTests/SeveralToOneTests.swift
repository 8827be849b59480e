import Foundation
import Strata
import StrataTestSupport
import Testing

/// An object keeps its first to-one destination in place and the others apart, and its saved
/// values apart only once they change: whatever order to-ones are set, cleared and set again in,
/// and whatever is rolled back, every to-one and every saved value reads as it should, on every
/// store.
@Suite("Objects with several to-ones")
struct SeveralToOneTests {
    private func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Person") {
                Attribute("name", .string)
                Relationship("owned", toMany: "Task", inverse: "owner", deleteRule: .nullify)
                Relationship("reviewed", toMany: "Task", inverse: "reviewer", deleteRule: .nullify)
            }
            EntityDescription("Project") {
                Attribute("name", .string)
                Relationship("tasks", toMany: "Task", inverse: "project", deleteRule: .nullify)
            }
            EntityDescription("Task") {
                Attribute("title", .string)
                Attribute("rank", .integer64)
                Relationship("project", to: "Project", inverse: "tasks", deleteRule: .nullify)
                Relationship("owner", to: "Person", inverse: "owned", deleteRule: .nullify)
                Relationship("reviewer", to: "Person", inverse: "reviewed", deleteRule: .nullify)
            }
        }
    }

    /// The names of `task`'s project, owner and reviewer.
    private func names(_ task: ManagedObject) throws -> [String?] {
        try ["project", "owner", "reviewer"].map { key in
            try task.value(forKey: key, as: ManagedObject.self)?.value(forKey: "name", as: String.self)
        }
    }

    @Test("to-ones set in any order, cleared and set again read back, saved and fetched", arguments: StoreUnderTest.all)
    func toOnesInAnyOrder(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let ann = try context.insert("Person", ["name": "Ann"])
        let bob = try context.insert("Person", ["name": "Bob"])
        let apollo = try context.insert("Project", ["name": "Apollo"])
        let gemini = try context.insert("Project", ["name": "Gemini"])
        let task = try context.insert("Task", ["title": "Launch", "rank": 1])
        // The last to-one first, then the others: the first set is the one kept in place.
        try task.setValue(bob, forKey: "reviewer")
        try task.setValue(ann, forKey: "owner")
        try task.setValue(apollo, forKey: "project")
        #expect(try names(task) == ["Apollo", "Ann", "Bob"])
        // The one kept in place cleared: the others stay; set again, it reads back.
        try task.setValue(nil as ManagedObject?, forKey: "reviewer")
        #expect(try names(task) == ["Apollo", "Ann", nil])
        try task.setValue(gemini, forKey: "project")
        try task.setValue(ann, forKey: "reviewer")
        #expect(try names(task) == ["Gemini", "Ann", "Ann"])
        #expect(try ann.objects("reviewed") == [task])
        #expect(try apollo.objects("tasks").isEmpty)
        let other = try context.insert("Task", ["title": "Land", "rank": 2])
        try other.setValue(apollo, forKey: "project")
        try context.save()

        let fresh = context.freshContext()
        let tasks = try fresh.fetch(FetchRequest(entityName: "Task", sortDescriptors: [ObjectSortDescriptor(key: "rank")]))
        #expect(tasks.count == 2)
        guard tasks.count == 2 else { return }
        #expect(try names(tasks[0]) == ["Gemini", "Ann", "Ann"])
        #expect(try names(tasks[1]) == ["Apollo", nil, nil])
        // A fetched object's to-ones change one by one, the first kept one among them.
        try tasks[1].setValue(tasks[0].value(forKey: "reviewer", as: ManagedObject.self), forKey: "owner")
        try tasks[0].setValue(nil as ManagedObject?, forKey: "project")
        #expect(try names(tasks[0]) == [nil, "Ann", "Ann"])
        #expect(try names(tasks[1]) == ["Apollo", "Ann", nil])
        try fresh.save()
        let reader = context.freshContext()
        let again = try reader.fetch(FetchRequest(entityName: "Task", sortDescriptors: [ObjectSortDescriptor(key: "rank")]))
        #expect(try again.map { try names($0) } == [[nil, "Ann", "Ann"], ["Apollo", "Ann", nil]])
    }

    @Test("changed values and to-ones of a fetched object keep its saved state until rolled back", arguments: StoreUnderTest.all)
    func savedStateKeptApart(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let ann = try context.insert("Person", ["name": "Ann"])
        let bob = try context.insert("Person", ["name": "Bob"])
        let task = try context.insert("Task", ["title": "Launch", "rank": 1])
        try task.setValue(ann, forKey: "owner")
        try task.setValue(bob, forKey: "reviewer")
        try context.save()

        let fresh = context.freshContext()
        let fetched = try fresh.fetch(FetchRequest(entityName: "Task"))
        #expect(fetched.count == 1)
        guard let loaded = fetched.first else { return }
        #expect(loaded.changedValues().isEmpty)
        try loaded.setValue("Abort", forKey: "title")
        try loaded.setValue(7, forKey: "rank")
        try loaded.setValue(nil as ManagedObject?, forKey: "owner")
        #expect(Set(loaded.changedValues().keys) == ["title", "rank", "owner"])
        let saved = try loaded.committedValues(forKeys: ["title", "rank", "owner"])
        #expect(saved["title"] as? String == "Launch")
        #expect(saved["rank"] as? Int64 == 1)
        #expect(((saved["owner"] ?? nil) as? ManagedObject).flatMap { try? $0.value(forKey: "name", as: String.self) } == "Ann")
        fresh.rollback()
        #expect(try loaded.value(forKey: "title", as: String.self) == "Launch")
        #expect(try loaded.value(forKey: "rank", as: Int64.self) == 1)
        #expect(try names(loaded) == [nil, "Ann", "Bob"])
        #expect(loaded.changedValues().isEmpty)
        // Changed and saved: the saved state is the new one.
        try loaded.setValue("Abort", forKey: "title")
        try fresh.save()
        #expect(try loaded.committedValues(forKeys: ["title"])["title"] as? String == "Abort")
        let reader = context.freshContext()
        #expect(try reader.fetch(FetchRequest(entityName: "Task")).first?.value(forKey: "title", as: String.self) == "Abort")
    }
}
