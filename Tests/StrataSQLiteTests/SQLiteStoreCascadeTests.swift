import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCore
@testable import StrataSQLite

/// The SQLite store lists the destinations of a cascade it was left by their foreign key: the
/// deleted owners' pets are never made objects, and the save deletes them by key.
@Suite("SQLite store: cascades in the store")
struct SQLiteStoreCascadeTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Person") {
                Attribute("name", .string, optional: false)
                Relationship("pets", toMany: "Pet", inverse: "owner", deleteRule: .cascade)
            }
            EntityDescription("Pet") {
                Attribute("name", .string, optional: false)
                Relationship("owner", to: "Person", inverse: "pets", deleteRule: .nullify)
            }
        }
    }

    /// Three persons with two pets each, saved; the coordinator, its store and the pets' IDs.
    private func seeded() throws -> (PersistentStoreCoordinator, SQLiteStore, [ManagedObjectID]) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let url = try TemporaryFolder.make().appendingPathComponent("store.sqlite")
        let store = try #require(try coordinator.addPersistentStore(type: .sqlite, at: url) as? SQLiteStore)
        let context = ManagedObjectContext(coordinator: coordinator)
        var pets: [ManagedObjectID] = []
        for index in 0..<3 {
            let person = try context.insertNewObject(forEntityName: "Person")
            try person.setValue("P\(index)", forKey: "name")
            for pet in 0..<2 {
                let object = try context.insertNewObject(forEntityName: "Pet")
                try object.setValue("p\(index)-\(pet)", forKey: "name")
                try object.setValue(person, forKey: "owner")
            }
        }
        try context.save()
        pets = try context.fetchObjectIDs(FetchRequest(entityName: "Pet"))
        return (coordinator, store, pets)
    }

    private func sortedPersons(_ context: ManagedObjectContext) throws -> [ManagedObject] {
        var request = FetchRequest(entityName: "Person")
        request.sortDescriptors = [ObjectSortDescriptor(key: "name")]
        return try context.fetch(request)
    }

    @Test("the pets of deleted owners are not made objects; the save deletes them by their owner's key")
    func petsStayUnmade() throws {
        let (coordinator, store, pets) = try seeded()
        let context = ManagedObjectContext(coordinator: coordinator)
        for person in try sortedPersons(context).prefix(2) { try context.delete(person) }
        #expect(context.deletedObjects.count == 2)
        #expect(pets.allSatisfy { context.registeredObject(for: $0) == nil })

        let (_, sql) = try statementsRun(on: store) { try context.save() }
        #expect(sql.contains { $0.contains("FROM ZPET WHERE ZOWNER IN (") })
        #expect(pets.allSatisfy { context.registeredObject(for: $0) == nil })
        let fresh = ManagedObjectContext(coordinator: coordinator)
        #expect(try fresh.count(for: FetchRequest(entityName: "Pet")) == 2)
        #expect(try fresh.count(for: FetchRequest(entityName: "Person")) == 1)
    }

    @Test("with an undo manager the pets are deleted as objects, at once")
    func undoManagerTakesObjects() throws {
        let (coordinator, _, _) = try seeded()
        let context = ManagedObjectContext(coordinator: coordinator)
        context.undoManager = ObjectUndoManager()
        for person in try sortedPersons(context).prefix(2) { try context.delete(person) }
        #expect(context.deletedObjects.count == 6)
    }
}
