import Foundation
import Strata
import StrataTestSupport
import Testing

/// Objects read one after another that point at the same destination each get their own to-ones,
/// on every store: whatever a store shares between the rows it reads, an object of another entity
/// with the same key in its column, or a row without a destination, reads as itself.
@Suite("Rows that share a destination")
struct SharedDestinationTests {
    /// Notes and tasks share the items' table; a note's folder and a task's owner sit in different
    /// columns and point at different entities, whose first objects have the same key. Owners are
    /// people, some of them managers.
    private func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Item", isAbstract: true) {
                Attribute("rank", .integer64)
            }
            EntityDescription("Note", parent: "Item") {
                Relationship("folder", to: "Folder", inverse: "notes", deleteRule: .nullify)
            }
            EntityDescription("Task", parent: "Item") {
                Relationship("owner", to: "Person", inverse: "tasks", deleteRule: .nullify)
            }
            EntityDescription("Folder") {
                Attribute("name", .string)
                Relationship("notes", toMany: "Note", inverse: "folder", deleteRule: .nullify)
            }
            EntityDescription("Person") {
                Attribute("name", .string)
                Relationship("tasks", toMany: "Task", inverse: "owner", deleteRule: .nullify)
            }
            EntityDescription("Manager", parent: "Person") {}
        }
    }

    @Test("runs of objects with one destination, objects of two entities by turns and objects without one each read their own", arguments: StoreUnderTest.all)
    func eachReadsItsOwn(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let folders = try (0..<2).map { try context.insert("Folder", ["name": "Folder \($0)"]) }
        let people = try (0..<2).map { try context.insert($0 == 0 ? "Person" : "Manager", ["name": "Person \($0)"]) }
        // What item `rank` is and points at: runs of one destination, a run broken by an item
        // without one, notes and tasks by turns with destinations of the same position.
        var expected: [(entity: String, destination: String?)] = []
        func add(_ entity: String, _ destination: Int?) throws {
            let item = try context.insert(entity, ["rank": expected.count])
            let relationship = entity == "Note" ? "folder" : "owner"
            let target = destination.map { entity == "Note" ? folders[$0] : people[$0] }
            if let target { try item.setValue(target, forKey: relationship) }
            expected.append((entity, destination.map { entity == "Note" ? "Folder \($0)" : "Person \($0)" }))
        }
        for _ in 0..<3 { try add("Note", 0) }
        try add("Note", nil)
        for _ in 0..<2 { try add("Note", 0) }
        for _ in 0..<3 { try add("Task", 1) }
        for turn in 0..<6 { try add(turn.isMultiple(of: 2) ? "Note" : "Task", 0) }
        for turn in 0..<4 { try add("Task", turn / 2) }
        try context.save()

        let fresh = context.freshContext()
        let items = try fresh.fetch(FetchRequest(entityName: "Item", sortDescriptors: [ObjectSortDescriptor(key: "rank")]))
        #expect(items.count == expected.count)
        for (rank, item) in items.enumerated() where rank < expected.count {
            let want = expected[rank]
            #expect(item.entity.name == want.entity, "item \(rank)")
            let destination = try item.value(forKey: want.entity == "Note" ? "folder" : "owner", as: ManagedObject.self)
            #expect(try destination?.value(forKey: "name", as: String.self) == want.destination, "item \(rank)")
            if let destination, want.entity == "Task" {
                #expect(destination.entity.name == (want.destination == "Person 1" ? "Manager" : "Person"), "item \(rank)")
            }
        }

        // Shared or not, a change to one object's to-one is that object's alone.
        let firstNotes = items.prefix(3)
        try firstNotes.first?.setValue(nil as ManagedObject?, forKey: "folder")
        try fresh.save()
        let reader = context.freshContext()
        let again = try reader.fetch(FetchRequest(entityName: "Note", sortDescriptors: [ObjectSortDescriptor(key: "rank")]))
        #expect(try again.prefix(3).map { try $0.value(forKey: "folder", as: ManagedObject.self)?.value(forKey: "name", as: String.self) }
            == [nil, "Folder 0", "Folder 0"])
    }

    @Test("Long runs of objects with one destination, some already loaded, all point at the destination's one registered object",
          arguments: StoreUnderTest.all)
    func longRunsShareOneObject(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let folders = try (0..<2).map { try context.insert("Folder", ["name": "Folder \($0)"]) }
        // More notes than a store hands on at a time, the first 1,500 in one folder, the rest in
        // the other: runs of one destination that cross the hand-overs.
        let count = 2_100
        for rank in 0..<count {
            let note = try context.insert("Note", ["rank": rank])
            try note.setValue(folders[rank < 1_500 ? 0 : 1], forKey: "folder")
        }
        try context.save()

        let fresh = context.freshContext()
        // Notes loaded before the fetch are not filled again: the fetch passes over them mid-run.
        let loadedFirst = try [3, 1_024, 1_499, 1_500, 2_000].map { rank in
            let note = try #require(try fresh.fetch(FetchRequest(entityName: "Note",
                predicate: try ObjectPredicate(format: "rank == %d", rank))).first)
            _ = try note.value(forKey: "rank", as: Int64.self)
            return note
        }
        let notes = try fresh.fetch(FetchRequest(entityName: "Note", sortDescriptors: [ObjectSortDescriptor(key: "rank")]))
        #expect(notes.count == count)
        let registered = try folders.map { try #require(fresh.registeredObject(for: $0.objectID)) }
        var wrong: [Int] = []
        for (rank, note) in notes.enumerated() {
            let folder = try note.value(forKey: "folder", as: ManagedObject.self)
            if folder !== registered[rank < 1_500 ? 0 : 1] { wrong.append(rank) }
        }
        #expect(wrong.isEmpty, "notes pointing elsewhere: \(wrong.prefix(10))")
        #expect(loadedFirst.allSatisfy { note in notes.contains { $0 === note } })
        #expect(try registered.map { try $0.value(forKey: "name", as: String.self) } == ["Folder 0", "Folder 1"])
    }
}
