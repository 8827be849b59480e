import Foundation
import Strata
import StrataTestSupport
import Testing

/// Inserted, updated and deleted state; changed and committed values.
@Suite("Change tracking")
struct ChangeTrackingTests {
    @Test("changedValues and committedValues(forKeys:) across a save", arguments: StoreUnderTest.all)
    func changedAndCommittedValues(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.student())
        let alice = try context.insert("Student", ["id": 1, "name": "Alice", "age": 18])
        // An inserted object reports every value it has, and has no committed values.
        #expect(alice.changedValues().keys.sorted() == ["age", "id", "name"])
        #expect(try alice.committedValues(forKeys: ["name"]).isEmpty)
        #expect(alice.isInserted && !alice.isUpdated && !alice.isDeleted)
        try context.save()
        #expect(alice.changedValues().isEmpty)
        #expect(!alice.hasChanges)

        try alice.setValue(19, forKey: "age")
        let changed = alice.changedValues()
        #expect(changed.keys.sorted() == ["age"])
        #expect(changed["age"] as? Int16 == 19)
        let committed = try alice.committedValues(forKeys: ["age", "name"])
        #expect(committed.keys.sorted() == ["age", "name"])
        #expect(committed["age"] as? Int16 == 18)
        #expect(committed["name"] as? String == "Alice")
        #expect(try alice.committedValues().keys.sorted() == ["age", "id", "name"])
        #expect(alice.isUpdated && !alice.isInserted)

        try alice.setValue(nil, forKey: "name")
        #expect(alice.changedValues().keys.sorted() == ["age", "name"])
        #expect(alice.changedValues()["name"].map { $0 == nil } == true)

        try context.save()
        #expect(alice.changedValues().isEmpty)
        let after = try alice.committedValues(forKeys: ["age", "name"])
        #expect(after["age"] as? Int16 == 19)
        #expect(after["name"].map { $0 == nil } == true)
        #expect(throws: ObjectError.unknownKey(entity: "Student", key: "nope")) {
            try alice.committedValues(forKeys: ["nope"])
        }
    }

    @Test("Relationship changes show on both sides in changedValues", arguments: StoreUnderTest.all)
    func relationshipChanges(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.company())
        let acme = try context.insert("Employer", ["name": "Acme"])
        let bolt = try context.insert("Employer", ["name": "Bolt"])
        let alice = try context.insert("Employee", ["name": "Alice", "whereIWork": acme])
        try context.save()

        try alice.setValue(bolt, forKey: "whereIWork")
        #expect(alice.changedValues().keys.sorted() == ["whereIWork"])
        #expect(alice.changedValues()["whereIWork"] as? ManagedObject === bolt)
        #expect(acme.changedValues().keys.sorted() == ["employees"])
        #expect(bolt.changedValues().keys.sorted() == ["employees"])
        #expect(try alice.committedValues(forKeys: ["whereIWork"])["whereIWork"] as? ManagedObject === acme)
        #expect(try acme.committedValues(forKeys: ["employees"])["employees"] as? Set<ManagedObject> == [alice])
        #expect(Set(context.updatedObjects) == [alice, acme, bolt])

        // A cleared to-one is reported as a nil entry, in changed and in committed values.
        try context.save()
        try alice.setValue(nil, forKey: "whereIWork")
        #expect(alice.changedValues().keys.sorted() == ["whereIWork"])
        #expect(alice.changedValues()["whereIWork"].map { $0 == nil } == true)
        #expect(try alice.committedValues(forKeys: ["whereIWork"])["whereIWork"] as? ManagedObject === bolt)
        try context.save()
        let committed = try alice.committedValues(forKeys: ["name", "whereIWork"])
        #expect(committed.keys.sorted() == ["name", "whereIWork"])
        #expect(committed["whereIWork"].map { $0 == nil } == true)
    }

    @Test("A loaded object's saved to-one stays known when the to-one changes, directly or through its inverse",
          arguments: StoreUnderTest.all)
    func loadedToOneChanges(store: StoreUnderTest) throws {
        let seeded = try store.makeContext(model: SampleModels.company())
        let acme = try seeded.insert("Employer", ["name": "Acme"])
        try seeded.insert("Employer", ["name": "Bolt"])
        try seeded.insert("Employee", ["name": "Alice", "whereIWork": acme])
        try seeded.insert("Employee", ["name": "Bob", "whereIWork": acme])
        try seeded.save()

        let context = seeded.freshContext()
        let (alice, bob) = try { let all = try context.fetch(sortedRequest("Employee")); return (all[0], all[1]) }()
        let employers = try context.fetch(sortedRequest("Employer"))
        let (loadedAcme, bolt) = (employers[0], employers[1])
        #expect(alice.changedValues().isEmpty)
        #expect(try alice.committedValues(forKeys: ["whereIWork"])["whereIWork"] as? ManagedObject === loadedAcme)

        // Directly on the to-one.
        try alice.setValue(bolt, forKey: "whereIWork")
        #expect(alice.changedValues().keys.sorted() == ["whereIWork"])
        #expect(try alice.committedValues(forKeys: ["whereIWork"])["whereIWork"] as? ManagedObject === loadedAcme)
        // Through the inverse to-many.
        try bolt.add(bob, to: "employees")
        #expect(try bob.value(forKey: "whereIWork") as? ManagedObject === bolt)
        #expect(bob.changedValues().keys.sorted() == ["whereIWork"])
        #expect(try bob.committedValues(forKeys: ["whereIWork"])["whereIWork"] as? ManagedObject === loadedAcme)

        try context.save()
        #expect(try alice.committedValues(forKeys: ["whereIWork"])["whereIWork"] as? ManagedObject === bolt)
        #expect(try bob.committedValues(forKeys: ["whereIWork"])["whereIWork"] as? ManagedObject === bolt)
        #expect(bob.changedValues().isEmpty)
        let reader = seeded.freshContext()
        #expect(try reader.fetch(sortedRequest("Employer"))[1].sortedNames("employees") == ["Alice", "Bob"])
    }

    @Test("isInserted, isUpdated, isDeleted and the context's sets", arguments: StoreUnderTest.all)
    func stateFlags(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.student())
        let alice = try context.insert("Student", ["id": 1, "name": "Alice"])
        let bob = try context.insert("Student", ["id": 2, "name": "Bob"])
        #expect(Array(context.insertedObjects) == [alice, bob])
        try context.save()
        #expect(!context.hasChanges)

        let carol = try context.insert("Student", ["id": 3, "name": "Carol"])
        try alice.setValue(20, forKey: "age")
        try context.delete(bob)
        #expect(Array(context.insertedObjects) == [carol])
        #expect(Array(context.updatedObjects) == [alice])
        #expect(Array(context.deletedObjects) == [bob])
        #expect(carol.isInserted && alice.isUpdated && bob.isDeleted)
        #expect(context.registeredObjects == [alice, bob, carol])

        // Deleting an unsaved insert just forgets it.
        try context.delete(carol)
        #expect(context.insertedObjects.isEmpty)
        #expect(context.deletedObjects.count == 1)
        #expect(context.registeredObjects == [alice, bob])

        try context.save()
        #expect(!context.hasChanges)
        #expect(try context.freshContext().strings(sortedRequest("Student")) == ["Alice"])
    }
}
