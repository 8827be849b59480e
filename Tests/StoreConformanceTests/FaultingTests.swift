import Foundation
import Strata
import StrataTestSupport
import Testing

/// Faults fill on first use; IDs of rows that are gone give clear errors, never a crash.
@Suite("Faulting")
struct FaultingTests {
    private func seed(_ store: StoreUnderTest) throws -> (ManagedObjectContext, ManagedObject) {
        let context = try store.makeContext(model: SampleModels.student())
        let alice = try context.insert("Student", ["id": 1, "name": "Alice", "age": 18])
        try context.insert("Student", ["id": 2, "name": "Bob", "age": 20])
        try context.save()
        return (context, alice)
    }

    @Test("object(with:) in a fresh context is a fault until a value is read", arguments: StoreUnderTest.all)
    func faultFillsOnFirstRead(store: StoreUnderTest) throws {
        let (context, alice) = try seed(store)
        let fresh = context.freshContext()
        let fault = try fresh.object(with: alice.objectID)
        #expect(fault.isFault)
        #expect(fault.objectID == alice.objectID)
        #expect(fault.entity.name == "Student")
        #expect(!fault.hasChanges)
        #expect(fresh.registeredObjects == [fault])
        #expect(try fault.value(forKey: "name") as? String == "Alice")
        #expect(!fault.isFault)
        #expect(try fault.value(forKey: "age") as? Int16 == 18)
        #expect(try fault.value(forKey: "id") as? Int64 == 1)

        // existingObject(with:) comes back filled.
        let other = context.freshContext()
        let filled = try other.existingObject(with: alice.objectID)
        #expect(!filled.isFault)
    }

    @Test("A to-many read, turned back into a fault and read again gives the same destinations; a changed one keeps its saved ones",
          arguments: StoreUnderTest.all)
    func toManyAcrossARefresh(store: StoreUnderTest) throws {
        let seeded = try store.makeContext(model: SampleModels.company())
        let acme = try seeded.insert("Employer", ["name": "Acme"])
        try seeded.insert("Employee", ["name": "Alice", "whereIWork": acme])
        try seeded.insert("Employee", ["name": "Bob", "whereIWork": acme])
        try seeded.save()

        let context = seeded.freshContext()
        let loaded = try context.existingObject(with: acme.objectID)
        #expect(try loaded.sortedNames("employees") == ["Alice", "Bob"])
        try context.refresh(loaded, mergeChanges: false)
        #expect(loaded.isFault)
        #expect(try loaded.sortedNames("employees") == ["Alice", "Bob"])

        // A change after the refresh is told from the saved destinations, which stay known.
        let carol = try context.insert("Employee", ["name": "Carol"])
        try loaded.add(carol, to: "employees")
        #expect(loaded.changedValues().keys.sorted() == ["employees"])
        let saved = try #require(try loaded.committedValues(forKeys: ["employees"])["employees"] as? Set<ManagedObject>)
        #expect(try saved.compactMap { try $0.value(forKey: "name") as? String }.sorted() == ["Alice", "Bob"])
        try context.save()
        let reader = seeded.freshContext()   // kept: objects hold their context weakly
        #expect(try reader.existingObject(with: acme.objectID).sortedNames("employees") == ["Alice", "Bob", "Carol"])
    }

    @Test("A fault of a row that does not exist is a deleted object, or fails on first use when asked",
          arguments: StoreUnderTest.all)
    func faultOfMissingRow(store: StoreUnderTest) throws {
        let (context, alice) = try seed(store)
        let storeID = try #require(alice.objectID.storeIdentifier)
        let missing = ManagedObjectID(entityName: "Student", storeIdentifier: storeID, primaryKey: 9_999)
        // By default (Core Data's shouldDeleteInaccessibleFaults), the fault becomes a deleted
        // object with nil values.
        let lenient = context.freshContext()
        let deleted = try lenient.object(with: missing)
        #expect(try deleted.value(forKey: "name") == nil)
        #expect(deleted.isDeleted && !deleted.isFault && !lenient.hasChanges)
        #expect(throws: ObjectError.objectNotFound(missing)) { try lenient.existingObject(with: missing) }

        let fresh = context.freshContext()
        fresh.shouldDeleteInaccessibleFaults = false
        let fault = try fresh.object(with: missing)
        #expect(fault.isFault)
        #expect(throws: ObjectError.objectNotFound(missing)) { try fault.value(forKey: "name") }
        #expect(throws: ObjectError.objectNotFound(missing)) { try fresh.existingObject(with: missing) }
        #expect(throws: ObjectError.unknownEntity("Nope")) {
            try fresh.object(with: ManagedObjectID(entityName: "Nope", storeIdentifier: storeID, primaryKey: 1))
        }
    }

    @Test("existingObject(with:) throws objectNotFound for an ID deleted and saved", arguments: StoreUnderTest.all)
    func existingObjectOfDeletedRow(store: StoreUnderTest) throws {
        let (context, alice) = try seed(store)
        let id = alice.objectID
        try context.delete(alice)
        try context.save()
        #expect(alice.managedObjectContext == nil)
        #expect(context.registeredObject(for: id) == nil)
        #expect(throws: ObjectError.objectNotFound(id)) { try context.existingObject(with: id) }
        #expect(throws: ObjectError.objectNotFound(id)) { try context.freshContext().existingObject(with: id) }
        #expect(throws: ObjectError.objectDeleted(id)) { try alice.value(forKey: "name") }
        #expect(try context.strings(sortedRequest("Student")) == ["Bob"])
    }

    @Test("A stale object of another context reports an ObjectError after its row was deleted",
          arguments: StoreUnderTest.all)
    func staleObjectInAnotherContext(store: StoreUnderTest) throws {
        let (context, alice) = try seed(store)
        let viewer = context.freshContext()
        viewer.shouldDeleteInaccessibleFaults = false
        let shown = try viewer.existingObject(with: alice.objectID)
        let faulting = context.freshContext()
        faulting.shouldDeleteInaccessibleFaults = false
        let fault = try faulting.object(with: alice.objectID)
        let lenient = context.freshContext()
        let lenientFault = try lenient.object(with: alice.objectID)
        #expect(try shown.string("name") == "Alice")

        try context.delete(alice)
        try context.save()

        // By default the fault becomes a deleted object with nil values.
        #expect(try lenientFault.value(forKey: "name") == nil)
        #expect(lenientFault.isDeleted)
        // With shouldDeleteInaccessibleFaults off, a fault cannot be filled any more.
        #expect(throws: ObjectError.objectNotFound(alice.objectID)) { try fault.value(forKey: "name") }
        // The shown object, refreshed, reports the same instead of crashing.
        try viewer.refresh(shown, mergeChanges: false)
        #expect(throws: ObjectError.objectNotFound(alice.objectID)) { try shown.value(forKey: "name") }
        #expect(throws: ObjectError.objectNotFound(alice.objectID)) { try shown.setValue("X", forKey: "name") }
        // The viewer's fetches no longer return it.
        #expect(try viewer.strings(sortedRequest("Student")) == ["Bob"])
    }

    @Test("An object whose context is gone reports objectDeleted instead of stale values",
          arguments: StoreUnderTest.all)
    func objectOutlivingItsContext(store: StoreUnderTest) throws {
        let (context, alice) = try seed(store)
        var shortLived: ManagedObjectContext? = context.freshContext()
        let loaded = try #require(try shortLived?.existingObject(with: alice.objectID))
        let bobID = try context.fetchObjectIDs(sortedRequest("Student"))[1]
        let fault = try #require(try shortLived?.object(with: bobID))
        #expect(fault.isFault)
        #expect(try loaded.string("name") == "Alice")
        shortLived = nil
        #expect(loaded.managedObjectContext == nil)
        #expect(throws: ObjectError.objectDeleted(loaded.objectID)) { try loaded.value(forKey: "name") }
        #expect(throws: ObjectError.objectDeleted(loaded.objectID)) { try loaded.setValue("X", forKey: "name") }
        #expect(throws: ObjectError.objectDeleted(fault.objectID)) { try fault.value(forKey: "name") }
    }

    @Test("Saving a change to an object deleted elsewhere fails and leaves the store as it was",
          arguments: StoreUnderTest.all)
    func saveOfStaleObject(store: StoreUnderTest) throws {
        let (context, alice) = try seed(store)
        let editor = context.freshContext()
        let edited = try editor.existingObject(with: alice.objectID)
        try context.delete(alice)
        try context.save()

        try edited.setValue(50, forKey: "age")
        let error = try #require(throws: StoreError.self) { try editor.save() }
        guard case .mergeConflict(let conflicts) = error else {
            Issue.record("expected a merge conflict, got \(error)")
            return
        }
        #expect(conflicts.map(\.objectID) == [alice.objectID])
        #expect(conflicts.first?.newVersion == 0)
        #expect(conflicts.first?.persistedSnapshot == nil)
        #expect(try context.freshContext().strings(sortedRequest("Student")) == ["Bob"])
        #expect(editor.hasChanges)
    }
}
