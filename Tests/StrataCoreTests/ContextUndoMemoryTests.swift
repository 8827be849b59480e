@testable import StrataCore
import StrataTestSupport
import Testing

/// An undo step holds what changed, not a copy of the object: what a context registers grows
/// with the change, not with the size of the objects or relationships it touches. On every store
/// type: what a step holds does not depend on how the store delivered the objects.
@Suite("Undo steps hold the change")
struct ContextUndoMemoryTests {
    /// `Wide` with 40 string attributes; `Rack` ⇄ `Item`, a to-many of items and its to-one.
    private func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Wide") {
                for index in 0..<40 { Attribute("field\(index)", .string) }
            }
            EntityDescription("Rack") {
                Relationship("items", toMany: "Item", inverse: "rack", deleteRule: .nullify)
            }
            EntityDescription("Item") {
                Attribute("name", .string)
                Relationship("rack", to: "Rack", inverse: "items", deleteRule: .nullify)
            }
        }
    }

    /// A context on a fresh store of type `store`, and an undo manager to attach after the save.
    private func context(_ store: StoreUnderTest) throws -> (ManagedObjectContext, ObjectUndoManager) {
        (try store.makeContext(model: try model()), ObjectUndoManager())
    }

    /// The steps of the newest group on the undo stack.
    private func newestSteps(_ manager: ObjectUndoManager) -> [ContextUndoStep] {
        (manager.undoStack.last?.payloads ?? []).compactMap { $0 as? ContextUndoStep }
    }

    @Test("One changed attribute of a wide object is one step holding one value", arguments: StoreUnderTest.all)
    func oneAttribute(store: StoreUnderTest) throws {
        let (context, manager) = try context(store)
        let wide = try context.insertNewObject(forEntityName: "Wide")
        for index in 0..<40 { try wide.setValue(String(repeating: "x", count: 100) + "\(index)", forKey: "field\(index)") }
        try context.save()
        context.undoManager = manager

        try wide.setValue("changed", forKey: "field7")
        try wide.setValue("again", forKey: "field7")   // the same key again in the same event
        context.processPendingChanges()
        let steps = newestSteps(manager)
        #expect(steps.count == 1)
        #expect(steps.map(\.heldValueCount) == [1])
        guard case .attribute(let object, let key, let old)? = steps.first else {
            Issue.record("expected an attribute step, found \(steps)")
            return
        }
        #expect(object === wide && key == "field7")
        #expect(old == .string(String(repeating: "x", count: 100) + "7"))
    }

    @Test("Adding one item to a large to-many holds the item and its new rack, not the set", arguments: StoreUnderTest.all)
    func oneDestination(store: StoreUnderTest) throws {
        let (context, manager) = try context(store)
        let rack = try context.insertNewObject(forEntityName: "Rack")
        for index in 0..<500 {
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValue("i\(index)", forKey: "name")
            try item.setValue(rack, forKey: "rack")
        }
        let extra = try context.insertNewObject(forEntityName: "Item")
        try context.save()
        context.undoManager = manager

        try rack.add(extra, to: "items")
        context.processPendingChanges()
        let steps = newestSteps(manager)
        #expect(steps.map(\.heldValueCount).reduce(0, +) == 2, "the to-many's added item and the to-one's old value")
        #expect(steps.count == 2)
        try context.undo()
        #expect(try (rack.value(forKey: "items") as? Set<ManagedObject>)?.count == 500)
        #expect(try extra.value(forKey: "rack") == nil)
    }

    @Test("Without an undo manager nothing is recorded and the objects' link holds no recorder", arguments: StoreUnderTest.all)
    func noManager(store: StoreUnderTest) throws {
        let (context, manager) = try context(store)
        let item = try context.insertNewObject(forEntityName: "Item")
        #expect(item.contextLink?.undoRecorder == nil)
        context.undoManager = manager
        #expect(item.contextLink?.undoRecorder != nil)
        context.undoManager = nil
        try item.setValue("x", forKey: "name")
        context.processPendingChanges()
        #expect(!manager.canUndo)
    }
}
