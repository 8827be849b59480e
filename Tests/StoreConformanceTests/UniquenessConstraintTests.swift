import Foundation
import Strata
import StrataTestSupport
import Testing

/// Uniqueness constraints hold on every store: a save that would give two objects the same
/// constrained values fails whole with a conflict naming both objects.
@Suite("Uniqueness constraints")
struct UniquenessConstraintTests {
    private func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Item", isAbstract: true, uniquenessConstraints: [["code"]]) {
                Attribute("code", .string)
            }
            EntityDescription("Book", parent: "Item") {
                Attribute("title", .string)
            }
            EntityDescription("Disc", parent: "Item") {
                Attribute("minutes", .integer32)
            }
        }
    }

    private func codes(_ coordinator: PersistentStoreCoordinator) throws -> [String?] {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.fetch(FetchRequest(entityName: "Item", sortDescriptors: [ObjectSortDescriptor(key: "code")]))
            .map { try $0.value(forKey: "code") as? String }
    }

    @Test("two new objects with one code: the save fails whole, names both, and keeps the changes", arguments: StoreUnderTest.all)
    func insertConflict(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let kept = try context.insertNewObject(forEntityName: "Book")
        try kept.setValue("A-1", forKey: "code")
        try context.save()

        let book = try context.insertNewObject(forEntityName: "Book")
        try book.setValue("B-7", forKey: "code")
        let disc = try context.insertNewObject(forEntityName: "Disc")    // a sibling entity: one constraint for the tree
        try disc.setValue("B-7", forKey: "code")
        do {
            try context.save()
            Issue.record("saved two items with the code B-7")
        } catch StoreError.constraintConflict(let conflicts) {
            let named = Set(conflicts.flatMap { $0.conflictingObjectIDs + [$0.databaseObjectID].compactMap { $0 } })
            #expect(named == [book.objectID, disc.objectID], "\(conflicts)")
            #expect(conflicts.allSatisfy { $0.entityName == "Item" && $0.properties == ["code"] })
        }
        #expect(context.insertedObjects.count == 2)
        #expect(book.objectID.isTemporaryID)
        #expect(try codes(coordinator) == ["A-1"])

        try disc.setValue("C-3", forKey: "code")
        try context.save()
        #expect(try codes(coordinator) == ["A-1", "B-7", "C-3"])
    }

    @Test("a new object takes the code of one deleted in the same save", arguments: StoreUnderTest.all)
    func insertTakesDeletedValue(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let old = try context.insertNewObject(forEntityName: "Book")
        try old.setValue("A-1", forKey: "code")
        try old.setValue("Dune", forKey: "title")
        try context.save()

        try context.delete(old)
        let new = try context.insertNewObject(forEntityName: "Disc")
        try new.setValue("A-1", forKey: "code")
        try context.save()
        #expect(try codes(coordinator) == ["A-1"])
        let fetched = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Item"))
        #expect(fetched.map(\.objectID) == [new.objectID])
        #expect(fetched.first?.entity.name == "Disc")
    }

    @Test("changing only what no constraint covers keeps the constrained values", arguments: StoreUnderTest.all)
    func updateKeepsConstrainedValues(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.setValue("A-1", forKey: "code")
        try book.setValue("Dune", forKey: "title")
        try context.save()
        try book.setValue("Dune Messiah", forKey: "title")
        try context.save()
        #expect(try codes(coordinator) == ["A-1"])
    }

    @Test("a conflict among many new objects fails the save whole and names both objects, wherever it falls",
          arguments: StoreUnderTest.all)
    func conflictAmongManyInserts(_ store: StoreUnderTest) throws {
        // Enough new objects of one entity that a store writing rows in groups meets the
        // conflict inside the first group (with a new object), inside the second (with a stored
        // one) and in the rows left after the last whole group (with a new one).
        for (position, code) in [(25, "B-3"), (40, "S-0"), (70, "B-3")] {
            let (coordinator, _) = try store.makeCoordinator(model: model())
            let context = ManagedObjectContext(coordinator: coordinator)
            let stored = try context.insertNewObject(forEntityName: "Book")
            try stored.setValue("S-0", forKey: "code")
            try context.save()

            let books = try (0..<75).map { index in
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue(index == position ? code : "B-\(index)", forKey: "code")
                try book.setValue("Title \(index)", forKey: "title")
                return book
            }
            do {
                try context.save()
                Issue.record("saved two items with the code \(code) (the duplicate at \(position))")
            } catch StoreError.constraintConflict(let conflicts) {
                let holder = code == "S-0" ? stored : books[3]
                let named = Set(conflicts.flatMap { $0.conflictingObjectIDs + [$0.databaseObjectID].compactMap { $0 } })
                #expect(named == [holder.objectID, books[position].objectID], "duplicate at \(position): \(conflicts)")
            }
            #expect(try codes(coordinator) == ["S-0"], "duplicate at \(position): nothing of the failed save landed")
            #expect(context.insertedObjects.count == 75)

            try books[position].setValue("C-\(position)", forKey: "code")
            try context.save()
            #expect(try codes(coordinator).count == 76)
        }
    }

    @Test("changing a stored object to a code another holds fails and names the holder", arguments: StoreUnderTest.all)
    func updateConflict(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let first = try context.insertNewObject(forEntityName: "Book")
        try first.setValue("A-1", forKey: "code")
        let second = try context.insertNewObject(forEntityName: "Disc")
        try second.setValue("A-2", forKey: "code")
        try context.save()

        try second.setValue("A-1", forKey: "code")
        do {
            try context.save()
            Issue.record("saved two items with the code A-1")
        } catch StoreError.constraintConflict(let conflicts) {
            #expect(conflicts.map(\.objectID) == [second.objectID])
            #expect(conflicts.map(\.databaseObjectID) == [first.objectID])
        }
        #expect(try codes(coordinator) == ["A-1", "A-2"])
        // Swapping through a free code in one save is fine.
        try first.setValue("A-3", forKey: "code")
        try context.save()
        #expect(try codes(coordinator) == ["A-1", "A-3"])
        // A swap in one save: only the final state must be unique.
        try first.setValue("A-1", forKey: "code")
        try second.setValue("A-3", forKey: "code")
        try context.save()
        let stored = ManagedObjectContext(coordinator: coordinator)
        #expect(try stored.existingObject(with: first.objectID).value(forKey: "code") as? String == "A-1")
        #expect(try stored.existingObject(with: second.objectID).value(forKey: "code") as? String == "A-3")
    }

    @Test("objects without a value for the constraint do not conflict", arguments: StoreUnderTest.all)
    func nilValues(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        for _ in 0..<3 { _ = try context.insertNewObject(forEntityName: "Book") }
        try context.save()
        #expect(try codes(coordinator) == [nil, nil, nil])
    }
}
