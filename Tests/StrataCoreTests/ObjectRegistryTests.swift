import Foundation
@testable import StrataCore
import StrataTestSupport
import Testing

/// The registry lists new objects by their temporary IDs' numbers, with the IDs' scopes kept once
/// a run of one entity: every lookup, removal and save still finds each by its whole ID.
@Suite("Object registry: new objects by temporary ID")
struct ObjectRegistryTests {
    @Test("New objects of entities in turn are found by their temporary IDs, and by their saved IDs after the save")
    func runsOfEntities() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.company())
        try coordinator.addPersistentStore(type: .inMemory)
        let context = ManagedObjectContext(coordinator: coordinator)
        var inserted: [ManagedObject] = []
        for entity in ["Employer", "Employer", "Employee", "Employer", "Employee", "Employee"] {
            let object = try context.insertNewObject(forEntityName: entity)
            try object.setValue("\(entity) \(inserted.count)", forKey: "name")
            inserted.append(object)
        }
        #expect(context.registeredObjects.count == inserted.count)
        // A lookup puts the list in its table; each ID finds its own object.
        for object in inserted { #expect(context.registeredObject(for: object.objectID) === object) }
        // The same number under another entity is another ID, which names nothing.
        let first = inserted[0].objectID
        #expect(context.registeredObject(for: ManagedObjectID(scope: .named("Employee", in: nil), key: first.key)) == nil)

        // More inserts after the lookup, one of them deleted before the save.
        let late = try context.insertNewObject(forEntityName: "Employee")
        try late.setValue("late", forKey: "name")
        let dropped = try context.insertNewObject(forEntityName: "Employer")
        let droppedID = dropped.objectID
        try context.delete(dropped)
        #expect(context.registeredObject(for: droppedID) == nil)
        inserted.append(late)

        let temporaryIDs = inserted.map(\.objectID)
        try context.save()
        for (object, temporary) in zip(inserted, temporaryIDs) {
            #expect(!object.objectID.isTemporaryID)
            #expect(context.registeredObject(for: object.objectID) === object)
            #expect(context.registeredObject(for: temporary) == nil)
        }
        #expect(context.registeredObjects.count == inserted.count)
    }

    @Test("A save of exactly the new objects listed registers them by their saved IDs")
    func listedInsertsSaved() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.company())
        try coordinator.addPersistentStore(type: .inMemory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = try ["Employer", "Employee", "Employee", "Employer"].map { entity in
            let object = try context.insertNewObject(forEntityName: entity)
            try object.setValue(entity, forKey: "name")
            return object
        }
        let temporaryIDs = objects.map(\.objectID)
        try context.save()
        for (object, temporary) in zip(objects, temporaryIDs) {
            #expect(context.registeredObject(for: object.objectID) === object)
            #expect(context.registeredObject(for: temporary) == nil)
        }
        let fresh = ManagedObjectContext(coordinator: coordinator)
        #expect(Set(try fresh.fetch(FetchRequest(entityName: "Employee")).map(\.objectID)) == Set([objects[1].objectID, objects[2].objectID]))
    }

    @Test("A save that fails gives new objects back the temporary IDs the registry lists, whether looked up or not",
          arguments: [false, true])
    func failedSaveRestoresTemporaryIDs(lookedUp: Bool) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.company())
        try coordinator.addPersistentStore(type: .inMemory)
        let setup = ManagedObjectContext(coordinator: coordinator)
        try setup.insertNewObject(forEntityName: "Employer").setValue("Acme", forKey: "name")
        try setup.save()

        // The employer is changed here and deleted elsewhere: the save fails as a merge conflict.
        let context = ManagedObjectContext(coordinator: coordinator)
        let employer = try #require(try context.fetch(FetchRequest(entityName: "Employer")).first)
        let elsewhere = ManagedObjectContext(coordinator: coordinator)
        try elsewhere.delete(try elsewhere.existingObject(with: employer.objectID))
        try elsewhere.save()
        try employer.setValue("Acme Ltd", forKey: "name")
        let objects = try ["Employee", "Employer", "Employee"].map { entity in
            let object = try context.insertNewObject(forEntityName: entity)
            try object.setValue(entity, forKey: "name")
            return object
        }
        let temporaryIDs = objects.map(\.objectID)
        // A lookup by a temporary ID puts the registry's list of new objects in its table.
        if lookedUp { #expect(context.registeredObject(for: temporaryIDs[1]) === objects[1]) }

        #expect(throws: StoreError.self) { try context.save() }
        #expect(objects.map(\.objectID) == temporaryIDs)
        for (object, temporary) in zip(objects, temporaryIDs) { #expect(context.registeredObject(for: temporary) === object) }

        // Without the conflicting change, the same objects save and are registered by their saved IDs.
        try context.refresh(employer, mergeChanges: false)
        try context.save()
        for (object, temporary) in zip(objects, temporaryIDs) {
            #expect(!object.objectID.isTemporaryID)
            #expect(context.registeredObject(for: object.objectID) === object)
            #expect(context.registeredObject(for: temporary) == nil)
        }
    }
}
