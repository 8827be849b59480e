import Foundation
import Strata
import StrataTestSupport
import Testing

/// Temporary and permanent object IDs, their URIs, and obtaining permanent IDs early.
@Suite("Object IDs")
struct ObjectIDTests {
    @Test("A temporary ID before the save, a permanent one after; the URI resolves", arguments: StoreUnderTest.all)
    func temporaryThenPermanent(store: StoreUnderTest) throws {
        let (coordinator, persistentStore) = try store.makeCoordinator(model: SampleModels.student())
        let context = ManagedObjectContext(coordinator: coordinator)
        let alice = try context.insert("Student", ["id": 1, "name": "Alice"])
        let temporary = alice.objectID
        #expect(temporary.isTemporaryID)
        #expect(temporary.storeIdentifier == nil)
        #expect(temporary.primaryKey == nil)
        #expect(temporary.entityName == "Student")
        #expect(temporary.uriRepresentation.absoluteString.hasPrefix("x-coredata:///Student/t"))
        #expect(coordinator.managedObjectID(forURIRepresentation: temporary.uriRepresentation) == nil)
        #expect(ManagedObjectID(parsing: temporary.uriRepresentation) == temporary)
        #expect(try context.object(with: temporary) === alice)

        try context.save()
        let permanent = alice.objectID
        #expect(!permanent.isTemporaryID)
        #expect(permanent != temporary)
        #expect(permanent.storeIdentifier == persistentStore.identifier)
        #expect(permanent.entityName == "Student")
        let pk = try #require(permanent.primaryKey)
        #expect(permanent.uriRepresentation.absoluteString == "x-coredata://\(persistentStore.identifier)/Student/p\(pk)")
        #expect(persistentStore.metadata[StoreMetadataKey.storeUUID] == .string(persistentStore.identifier))
        #expect(try context.object(with: permanent) === alice)
        #expect(context.registeredObject(for: temporary) == nil)

        let resolved = try #require(coordinator.managedObjectID(forURIRepresentation: permanent.uriRepresentation))
        #expect(resolved == permanent)
        let fresh = context.freshContext()
        #expect(try fresh.existingObject(with: resolved).string("name") == "Alice")

        // Malformed URIs and foreign stores resolve to nothing.
        for text in ["x-coredata://\(UUID().uuidString)/Student/p\(pk)",
                     "x-coredata://\(persistentStore.identifier)/Nope/p\(pk)",
                     "x-coredata://\(persistentStore.identifier)/Student/q\(pk)",
                     "https://example.com/Student/p1"] {
            let uri = try #require(URL(string: text))
            #expect(coordinator.managedObjectID(forURIRepresentation: uri) == nil)
        }
    }

    @Test("Scenario 15: a URI resolves in a second coordinator on the same store file",
          arguments: StoreUnderTest.all)
    func uriAcrossCoordinators(store: StoreUnderTest) throws {
        let model = try SampleModels.student()
        let url = store.hasFile ? try store.storeURL() : nil
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: store.type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let alice = try context.insert("Student", ["id": 1, "name": "Alice"])
        try context.save()
        let uri = alice.objectID.uriRepresentation

        let second = PersistentStoreCoordinator(managedObjectModel: model)
        if let url {
            try second.addPersistentStore(type: store.type, at: url)
        } else {
            // Without a file, the second coordinator shares the store instance.
            try second.addPersistentStore(try #require(coordinator.persistentStores.first))
        }
        let id = try #require(second.managedObjectID(forURIRepresentation: uri))
        #expect(id == alice.objectID)
        let secondContext = ManagedObjectContext(coordinator: second)
        #expect(try secondContext.existingObject(with: id).string("name") == "Alice")
    }

    @Test("obtainPermanentIDs gives permanent IDs before the save, kept by the save", arguments: StoreUnderTest.all)
    func obtainPermanentIDs(store: StoreUnderTest) throws {
        let (coordinator, persistentStore) = try store.makeCoordinator(model: SampleModels.student())
        let context = ManagedObjectContext(coordinator: coordinator)
        let alice = try context.insert("Student", ["id": 1, "name": "Alice"])
        let bob = try context.insert("Student", ["id": 2, "name": "Bob"])
        let carol = try context.insert("Student", ["id": 3, "name": "Carol"])
        let carolTemporary = carol.objectID

        // Alice listed twice gets one ID; Carol, not listed, stays registered by her temporary ID.
        try context.obtainPermanentIDs(for: [alice, bob, alice])
        let ids = [alice.objectID, bob.objectID]
        #expect(ids.allSatisfy { !$0.isTemporaryID && $0.storeIdentifier == persistentStore.identifier })
        #expect(ids[0] != ids[1])
        #expect(alice.isInserted && bob.isInserted)
        #expect(carol.objectID == carolTemporary)
        #expect(try context.object(with: carolTemporary) === carol)
        #expect(try context.object(with: ids[0]) === alice)
        #expect(try context.object(with: ids[1]) === bob)
        // Not saved yet.
        #expect(try context.freshContext().count("Student") == 0)

        try context.save()
        #expect([alice.objectID, bob.objectID] == ids)
        #expect(!carol.objectID.isTemporaryID)
        #expect(!ids.contains(carol.objectID))
        // Every object is registered by its permanent ID, none any more by a temporary one.
        #expect(context.registeredObject(for: carolTemporary) == nil)
        for object in [alice, bob, carol] { #expect(try context.object(with: object.objectID) === object) }
        let fresh = context.freshContext()
        #expect(try fresh.fetchObjectIDs(sortedRequest("Student")) == ids + [carol.objectID])
        #expect(try fresh.existingObject(with: ids[1]).string("name") == "Bob")
    }

    @Test("New objects of two entities inserted in turns take keys in their order per entity, each keeping its own values",
          arguments: StoreUnderTest.all)
    func interleavedNewObjectsTakeKeysInOrder(store: StoreUnderTest) throws {
        let model = try ManagedObjectModel {
            EntityDescription("Author") { Attribute("name", .string) }
            EntityDescription("Book") { Attribute("title", .string) }
        }
        let (coordinator, _) = try store.makeCoordinator(model: model)
        let context = ManagedObjectContext(coordinator: coordinator)
        // Runs of each entity of different lengths: a1 b1 b2 a2 a3 a4 b3 a5.
        var objects: [ManagedObject] = []
        for (entity, name) in [("Author", "a1"), ("Book", "b1"), ("Book", "b2"), ("Author", "a2"), ("Author", "a3"),
                               ("Author", "a4"), ("Book", "b3"), ("Author", "a5")] {
            let object = try context.insertNewObject(forEntityName: entity)
            try object.setValue(name, forKey: entity == "Author" ? "name" : "title")
            objects.append(object)
        }
        try context.save()
        let keys = objects.map { $0.objectID.primaryKey ?? -1 }
        let authorKeys = zip(objects, keys).filter { $0.0.entity.name == "Author" }.map(\.1)
        let bookKeys = zip(objects, keys).filter { $0.0.entity.name == "Book" }.map(\.1)
        #expect(authorKeys == authorKeys.sorted() && Set(authorKeys).count == 5)
        #expect(bookKeys == bookKeys.sorted() && Set(bookKeys).count == 3)
        let fresh = context.freshContext()
        for object in objects {
            let read = try fresh.existingObject(with: object.objectID)
            let key = object.entity.name == "Author" ? "name" : "title"
            #expect(try read.value(forKey: key) as? String == object.value(forKey: key) as? String)
            #expect(try context.object(with: object.objectID) === object)
        }
    }
}
