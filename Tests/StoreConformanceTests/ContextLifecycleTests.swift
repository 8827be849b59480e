import Foundation
import Strata
import StrataTestSupport
import Testing

/// Rollback, reset and refresh.
@Suite("Context lifecycle")
struct ContextLifecycleTests {
    @Test("rollback restores values, forgets inserts and undeletes", arguments: StoreUnderTest.all)
    func rollback(store: StoreUnderTest) throws {
        let (context, alice, carol) = try store.seededStudents()
        try alice.setValue(30, forKey: "age")
        try alice.setValue("Alicia", forKey: "name")
        let bob = try context.insert("Student", ["id": 2, "name": "Bob", "age": 20])
        let bobID = bob.objectID
        try context.delete(carol)
        #expect(context.hasChanges)

        context.rollback()
        #expect(!context.hasChanges)
        #expect(context.insertedObjects.isEmpty && context.updatedObjects.isEmpty && context.deletedObjects.isEmpty)
        #expect(try alice.value(forKey: "age") as? Int16 == 18)
        #expect(try alice.string("name") == "Alice")
        #expect(!alice.hasChanges)
        #expect(!carol.isDeleted)
        #expect(try carol.string("name") == "Carol")
        #expect(!bob.isInserted)
        #expect(bob.managedObjectContext == nil)
        #expect(context.registeredObject(for: bobID) == nil)
        #expect(throws: ObjectError.self) { try bob.value(forKey: "name") }
        #expect(try context.strings(sortedRequest("Student")) == ["Alice", "Carol"])

        // Nothing to save; the store is as it was.
        try context.save()
        #expect(try context.freshContext().strings(sortedRequest("Student")) == ["Alice", "Carol"])
    }

    @Test("reset forgets every object; old objects throw on use, new fetches give new instances",
          arguments: StoreUnderTest.all)
    func reset(store: StoreUnderTest) throws {
        let (context, alice, _) = try store.seededStudents()
        try alice.setValue(40, forKey: "age")
        let dan = try context.insert("Student", ["id": 4, "name": "Dan"])
        context.reset()

        #expect(!context.hasChanges)
        #expect(context.registeredObjects.isEmpty)
        #expect(alice.managedObjectContext == nil)
        #expect(throws: ObjectError.objectDeleted(alice.objectID)) { try alice.value(forKey: "name") }
        #expect(throws: ObjectError.self) { try alice.setValue("X", forKey: "name") }
        #expect(throws: ObjectError.self) { try dan.value(forKey: "name") }
        #expect(throws: ObjectError.self) { try context.delete(alice) }

        let fetched = try context.fetch(sortedRequest("Student"))
        #expect(try fetched.map { try $0.string("name") } == ["Alice", "Carol"])
        #expect(fetched[0] !== alice)
        #expect(fetched[0].objectID == alice.objectID)
        #expect(try fetched[0].value(forKey: "age") as? Int16 == 18)
    }

    @Test("refresh without merging drops the object's unsaved changes", arguments: StoreUnderTest.all)
    func refreshDiscarding(store: StoreUnderTest) throws {
        let (context, alice, carol) = try store.seededStudents()
        try alice.setValue("Alicia", forKey: "name")
        try carol.setValue(23, forKey: "age")
        try context.refresh(alice, mergeChanges: false)
        #expect(alice.isFault)
        #expect(!alice.hasChanges)
        #expect(Array(context.updatedObjects) == [carol])
        #expect(try alice.string("name") == "Alice")
        #expect(!alice.isFault)
        #expect(try carol.value(forKey: "age") as? Int16 == 23)
    }

    @Test("refresh with merging loads saved values and keeps local changes on top", arguments: StoreUnderTest.all)
    func refreshMerging(store: StoreUnderTest) throws {
        let (context, alice, _) = try store.seededStudents()
        // Another context saves a new name.
        let other = context.freshContext()
        let otherAlice = try other.existingObject(with: alice.objectID)
        try otherAlice.setValue("Alicia", forKey: "name")
        try other.save()

        try alice.setValue(19, forKey: "age")
        #expect(try alice.string("name") == "Alice")
        try context.refresh(alice, mergeChanges: true)
        #expect(try alice.string("name") == "Alicia")
        #expect(try alice.value(forKey: "age") as? Int16 == 19)
        #expect(alice.isUpdated)
        #expect(alice.changedValues().keys.sorted() == ["age"])

        // The merged object now saves on top of the other save, without a conflict.
        try context.save()
        let fresh = context.freshContext()
        let stored = try fresh.existingObject(with: alice.objectID)
        #expect(try stored.string("name") == "Alicia")
        #expect(try stored.value(forKey: "age") as? Int16 == 19)
    }
}
