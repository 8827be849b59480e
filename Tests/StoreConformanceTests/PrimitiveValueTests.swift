import Foundation
import Strata
import StrataTestSupport
import Testing

/// `setPrimitiveValue(_:forKey:)` changes a value without tracking the change, as Core Data's.
@Suite("Primitive values")
struct PrimitiveValueTests {
    @Test("A primitive set is not a change: not updated, not in changedValues, not saved alone",
          arguments: StoreUnderTest.all)
    func notTracked(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.student())
        let alice = try context.insert("Student", ["id": 1, "name": "Alice", "age": 18])
        try context.save()
        let recorder = NotificationRecorder(context)

        try alice.setPrimitiveValue(.string("Alicia"), forKey: "name")
        #expect(try alice.primitiveValue(forKey: "name") == .string("Alicia"))
        #expect(try alice.string("name") == "Alicia")
        #expect(!alice.isUpdated)
        #expect(!alice.hasChanges)
        #expect(!context.hasChanges)
        #expect(alice.changedValues().isEmpty)
        context.processPendingChanges()
        #expect(recorder.notifications.isEmpty)
        // Nothing to save: the store keeps the old name.
        try context.save()
        let reader = context.freshContext()
        #expect(try reader.existingObject(with: alice.objectID).string("name") == "Alice")
        // Refreshed, the object drops the untracked value.
        try context.refresh(alice, mergeChanges: false)
        #expect(try alice.string("name") == "Alice")
    }

    @Test("A primitive value is saved with a tracked change of the same object", arguments: StoreUnderTest.all)
    func savedWithATrackedChange(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.student())
        let bob = try context.insert("Student", ["id": 2, "name": "Bob", "age": 20])
        try context.save()

        try bob.setPrimitiveValue(.string("Robert"), forKey: "name")
        #expect(!bob.isUpdated)
        try bob.setValue(21, forKey: "age")
        #expect(bob.isUpdated)
        try context.save()
        let reader = context.freshContext()
        let stored = try reader.existingObject(with: bob.objectID)
        #expect(try stored.string("name") == "Robert")
        #expect(try stored.primitiveValue(forKey: "age") == .integer(21))
    }

    @Test("An undo manager records no step for a primitive set", arguments: StoreUnderTest.all)
    func noUndoStep(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.student())
        let carol = try context.insert("Student", ["id": 3, "name": "Carol"])
        try context.save()
        context.undoManager = ObjectUndoManager()
        try carol.setPrimitiveValue(.string("Caroline"), forKey: "name")
        context.processPendingChanges()
        #expect(context.undoManager?.canUndo == false)
    }
}
