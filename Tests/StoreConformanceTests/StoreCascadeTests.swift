import Foundation
import Strata
import StrataTestSupport
import Testing

/// Cascades through objects whose destinations were never loaded: a store that lists them by
/// their foreign key (SQLite) deletes them in the save without making them objects, every other
/// store loads them. What every store holds after, what the notifications list, what other
/// contexts merge and what undo brings back are the same on every store.
@Suite("Cascades left to the store")
struct StoreCascadeTests {
    /// Person ⇒ Pet (cascade; Pet.owner nullify, its only relationship), Person ⇒ Toy (cascade;
    /// Toy ⇒ Part deny).
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Person") {
                Attribute("name", .string, optional: false)
                Relationship("pets", toMany: "Pet", inverse: "owner", deleteRule: .cascade)
                Relationship("toys", toMany: "Toy", inverse: "owner", deleteRule: .cascade)
            }
            EntityDescription("Pet") {
                Attribute("name", .string, optional: false)
                Relationship("owner", to: "Person", inverse: "pets", deleteRule: .nullify)
            }
            EntityDescription("Toy") {
                Attribute("name", .string, optional: false)
                Relationship("owner", to: "Person", inverse: "toys", deleteRule: .nullify)
                Relationship("parts", toMany: "Part", inverse: "toy", deleteRule: .deny)
            }
            EntityDescription("Part") {
                Attribute("name", .string, optional: false)
                Relationship("toy", to: "Toy", inverse: "parts", deleteRule: .nullify)
            }
        }
    }

    /// Ann (pets a1…a3), Bob (b1, b2), Cy (c1; a toy with a part), saved; the IDs by name.
    private struct Seeded {
        let coordinator: PersistentStoreCoordinator
        let url: URL?
        let ids: [String: ManagedObjectID]
    }

    private func seed(_ store: StoreUnderTest) throws -> Seeded {
        let (coordinator, persistentStore) = try store.makeCoordinator(model: try Self.model())
        let context = ManagedObjectContext(coordinator: coordinator)
        var objects: [String: ManagedObject] = [:]
        for (person, pets) in [("Ann", ["a1", "a2", "a3"]), ("Bob", ["b1", "b2"]), ("Cy", ["c1"])] {
            let owner = try context.insert("Person", ["name": person])
            objects[person] = owner
            for pet in pets { objects[pet] = try context.insert("Pet", ["name": pet, "owner": owner]) }
        }
        let toy = try context.insert("Toy", ["name": "kite", "owner": objects["Cy"]])
        try context.insert("Part", ["name": "string", "toy": toy])
        try context.save()
        return Seeded(coordinator: coordinator, url: persistentStore.url, ids: objects.mapValues(\.objectID))
    }

    private func people(_ context: ManagedObjectContext, _ names: Set<String>) throws -> [ManagedObject] {
        try context.fetch(sortedRequest("Person")).filter { names.contains(try $0.string("name")) }
    }

    @Test("Deleting owners removes their pets, loaded or not; notifications, merges and files agree",
          arguments: StoreUnderTest.all)
    func deletesUnloadedAndLoaded(store: StoreUnderTest) throws {
        let seeded = try seed(store)
        let ids = seeded.ids
        // Another context holds every pet, to see the deletions merged.
        let watcher = ManagedObjectContext(coordinator: seeded.coordinator)
        let watched = try watcher.fetch(sortedRequest("Pet"))
        #expect(watched.count == 6)

        let context = ManagedObjectContext(coordinator: seeded.coordinator)
        let recorder = NotificationRecorder(context)
        for person in try people(context, ["Ann", "Bob"]) { try context.delete(person) }
        // A pet registered after its owner's deletion is deleted as an object by the save.
        let b1 = try context.existingObject(with: try #require(ids["b1"]))
        #expect(try b1.string("name") == "b1")
        try context.save()

        let expected: Set<ManagedObjectID> = Set(try ["Ann", "Bob", "a1", "a2", "a3", "b1", "b2"].map { try #require(ids[$0]) })
        let saved = try #require(recorder.notifications.last { $0.name == ManagedObjectContext.didSaveNotification }?.changes)
        #expect(saved.deleted == expected)
        #expect(saved.inserted.isEmpty && saved.updated.isEmpty)
        #expect(b1.managedObjectContext == nil)

        // The store holds Cy and c1 alone, for this coordinator and a fresh context.
        let fresh = ManagedObjectContext(coordinator: seeded.coordinator)
        #expect(try fresh.strings(sortedRequest("Person")) == ["Cy"])
        #expect(try fresh.strings(sortedRequest("Pet")) == ["c1"])
        #expect(try fresh.count("Pet") == 1)
        let cy = try #require(try fresh.fetch(sortedRequest("Person")).first)
        #expect(try cy.sortedNames("pets") == ["c1"])

        // The watcher merges the save: its deleted pets are gone from its fetches.
        let note = Notification(name: ManagedObjectContext.didSaveNotification, object: nil,
                                userInfo: [ManagedObjectContext.changesUserInfoKey: saved])
        try watcher.mergeChanges(fromContextDidSave: note)
        #expect(try watcher.strings(sortedRequest("Pet")) == ["c1"])

        // A file store reopened holds the same.
        if let url = seeded.url {
            let reopened = PersistentStoreCoordinator(managedObjectModel: try Self.model())
            try reopened.addPersistentStore(type: store.type, at: url)
            let context = ManagedObjectContext(coordinator: reopened)
            #expect(try context.strings(sortedRequest("Person")) == ["Cy"])
            #expect(try context.strings(sortedRequest("Pet")) == ["c1"])
        }
    }

    @Test("Pets loaded before their owner's deletion are deleted at once, as objects", arguments: StoreUnderTest.all)
    func loadedPetsSeeTheirDeletion(store: StoreUnderTest) throws {
        let seeded = try seed(store)
        let context = ManagedObjectContext(coordinator: seeded.coordinator)
        let a2 = try context.existingObject(with: try #require(seeded.ids["a2"]))
        let ann = try #require(try people(context, ["Ann"]).first)
        try context.delete(ann)
        #expect(a2.isDeleted)
        #expect(context.deletedObjects.contains(a2))
        // A fetch before the save leaves every pending deletion out.
        #expect(try context.strings(sortedRequest("Pet")) == ["b1", "b2", "c1"])
        #expect(try context.count("Pet") == 3)
        try context.save()
        #expect(try context.freshContext().strings(sortedRequest("Pet")) == ["b1", "b2", "c1"])
    }

    @Test("A fetch after deleting owners leaves their unloaded pets out", arguments: StoreUnderTest.all)
    func fetchBeforeSave(store: StoreUnderTest) throws {
        let seeded = try seed(store)
        let context = ManagedObjectContext(coordinator: seeded.coordinator)
        for person in try people(context, ["Bob"]) { try context.delete(person) }
        #expect(try context.count("Pet") == 4)
        #expect(try context.strings(sortedRequest("Pet")) == ["a1", "a2", "a3", "c1"])
        let b2 = try context.existingObject(with: try #require(seeded.ids["b2"]))
        #expect(b2.isDeleted)
        try context.save()
        #expect(try context.freshContext().count("Pet") == 4)
    }

    @Test("Undo brings the owner and its pets back; the redone delete saves them away", arguments: StoreUnderTest.all)
    func undo(store: StoreUnderTest) throws {
        let seeded = try seed(store)
        let context = ManagedObjectContext(coordinator: seeded.coordinator)
        context.undoManager = ObjectUndoManager()
        let ann = try #require(try people(context, ["Ann"]).first)
        try context.delete(ann)
        context.processPendingChanges()
        #expect(try context.count("Pet") == 3)
        try context.undo()
        #expect(!ann.isDeleted)
        #expect(try context.count("Pet") == 6)
        #expect(try ann.sortedNames("pets") == ["a1", "a2", "a3"])
        try context.redo()
        try context.save()
        #expect(try context.freshContext().strings(sortedRequest("Pet")) == ["b1", "b2", "c1"])
    }

    @Test("A deny rule below a cascade fails the save and leaves the store as it was", arguments: StoreUnderTest.all)
    func denyBelow(store: StoreUnderTest) throws {
        let seeded = try seed(store)
        let context = ManagedObjectContext(coordinator: seeded.coordinator)
        for person in try people(context, ["Bob", "Cy"]) { try context.delete(person) }
        #expect(throws: ValidationError.self) { try context.save() }
        let fresh = context.freshContext()
        #expect(try fresh.count("Person") == 3)
        #expect(try fresh.count("Pet") == 6)
        #expect(try fresh.count("Toy") == 1)
        // Without the toy's owner, the pets go.
        context.rollback()
        for person in try people(context, ["Bob"]) { try context.delete(person) }
        try context.save()
        #expect(try context.freshContext().strings(sortedRequest("Pet")) == ["a1", "a2", "a3", "c1"])
    }

    @Test("Persistent history lists every pet the cascade deleted", arguments: PersistentHistoryTests.historyStores)
    func history(store: StoreUnderTest) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: store.type, at: store.hasFile ? try store.storeURL() : nil,
                                           options: [StoreOption.persistentHistoryTracking: .bool(true)])
        let seeding = ManagedObjectContext(coordinator: coordinator)
        let ann = try seeding.insert("Person", ["name": "Ann"])
        let pets = try ["a1", "a2"].map { try seeding.insert("Pet", ["name": $0, "owner": ann]) }
        try seeding.save()

        let context = ManagedObjectContext(coordinator: coordinator)
        for person in try people(context, ["Ann"]) { try context.delete(person) }
        try context.save()
        let transactions = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        let last = try #require(transactions.last?.changes)
        #expect(last.allSatisfy { $0.changeType == .delete })
        #expect(Set(last.map(\.changedObjectID)) == Set([ann.objectID] + pets.map(\.objectID)))
    }

    @Test("A rolled-back delete leaves the pets in the store", arguments: StoreUnderTest.all)
    func rollback(store: StoreUnderTest) throws {
        let seeded = try seed(store)
        let context = ManagedObjectContext(coordinator: seeded.coordinator)
        for person in try people(context, ["Ann"]) { try context.delete(person) }
        context.rollback()
        let bob = try #require(try people(context, ["Bob"]).first)
        try context.delete(bob)
        try context.save()
        #expect(try context.freshContext().strings(sortedRequest("Pet")) == ["a1", "a2", "a3", "c1"])
    }
}
