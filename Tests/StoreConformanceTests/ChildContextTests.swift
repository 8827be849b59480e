import Foundation
import Strata
import StrataTestSupport
import Testing

/// Child contexts save into their parent; the parent saves into the stores.
@Suite("Child contexts")
struct ChildContextTests {
    private func ages(_ context: ManagedObjectContext) throws -> [String] {
        try context.fetch(sortedRequest("Student")).map { "\(try $0.string("name")) \(try $0.value(forKey: "age") as? Int16 ?? -1)" }
    }

    @Test("A child's changes reach the parent on the child's save and the store on the parent's",
          arguments: StoreUnderTest.all)
    func childSaveThenParentSave(store: StoreUnderTest) throws {
        let (parent, alice, carol) = try store.seededStudents()
        let child = ManagedObjectContext(parent: parent)
        #expect(child.parent === parent)
        #expect(child.persistentStoreCoordinator === parent.persistentStoreCoordinator)

        let childAlice = try child.existingObject(with: alice.objectID)
        #expect(childAlice !== alice)
        try childAlice.setValue(30, forKey: "age")
        try child.insert("Student", ["id": 2, "name": "Bob", "age": 20])
        try child.delete(try child.existingObject(with: carol.objectID))

        // The child sees its own changes; the parent does not.
        #expect(try ages(child) == ["Alice 30", "Bob 20"])
        #expect(try ages(parent) == ["Alice 18", "Carol 22"])
        #expect(!parent.hasChanges)
        #expect(try alice.value(forKey: "age") as? Int16 == 18)

        try child.save()
        #expect(!child.hasChanges)
        // The parent has the changes, unsaved.
        #expect(parent.hasChanges)
        #expect(parent.insertedObjects.count == 1)
        #expect(Array(parent.updatedObjects) == [alice])
        #expect(Array(parent.deletedObjects) == [carol])
        #expect(try alice.value(forKey: "age") as? Int16 == 30)
        #expect(try ages(parent) == ["Alice 30", "Bob 20"])
        // The store does not.
        #expect(try ages(parent.freshContext()) == ["Alice 18", "Carol 22"])

        try parent.save()
        #expect(!parent.hasChanges)
        #expect(try ages(parent.freshContext()) == ["Alice 30", "Bob 20"])
    }

    @Test("A child sees its parent's unsaved changes", arguments: StoreUnderTest.all)
    func childSeesParentChanges(store: StoreUnderTest) throws {
        let (parent, alice, carol) = try store.seededStudents()
        try alice.setValue("Alicia", forKey: "name")
        let dave = try parent.insert("Student", ["id": 4, "name": "Dave", "age": 40])
        try parent.delete(carol)

        let child = ManagedObjectContext(parent: parent)
        #expect(try ages(child) == ["Alicia 18", "Dave 40"])
        let childDave = try child.existingObject(with: dave.objectID)
        #expect(try childDave.value(forKey: "age") as? Int16 == 40)
        #expect(!child.hasChanges)
        #expect(throws: ObjectError.self) { try child.existingObject(with: carol.objectID) }
        #expect(try child.count(for: sortedRequest("Student")) == 2)

        // Changes made in the child to an object the parent inserted reach the parent's insert.
        try childDave.setValue(41, forKey: "age")
        try child.save()
        #expect(try dave.value(forKey: "age") as? Int16 == 41)
        #expect(dave.isInserted)
        try parent.save()
        #expect(try ages(parent.freshContext()) == ["Alicia 18", "Dave 41"])
    }

    @Test("A child's failed validation leaves the parent untouched", arguments: StoreUnderTest.all)
    func childValidation(store: StoreUnderTest) throws {
        let (parent, _, _) = try store.seededStudents()
        let child = ManagedObjectContext(parent: parent)
        try child.insert("Student", ["name": "No id"])
        #expect(throws: ValidationError.self) { try child.save() }
        #expect(child.hasChanges)
        #expect(!parent.hasChanges)
        #expect(try ages(parent) == ["Alice 18", "Carol 22"])
    }

    @Test("Grandchild changes travel up one level per save", arguments: StoreUnderTest.all)
    func grandchild(store: StoreUnderTest) throws {
        let (root, alice, _) = try store.seededStudents()
        let child = ManagedObjectContext(parent: root)
        let grandchild = ManagedObjectContext(parent: child)
        try grandchild.existingObject(with: alice.objectID).setValue(50, forKey: "age")
        try grandchild.save()
        #expect(child.hasChanges && !root.hasChanges)
        #expect(try child.existingObject(with: alice.objectID).value(forKey: "age") as? Int16 == 50)
        try child.save()
        #expect(root.hasChanges)
        try root.save()
        #expect(try ages(root.freshContext()) == ["Alice 50", "Carol 22"])
    }
}
