import Foundation
import Strata
import StrataTestSupport
import Testing

/// An employee that records its deletion and fault hooks in a list shared with the test, which
/// outlives it (an object freed still reports its hooks).
final class FaultWatchedEmployee: ManagedObject {
    /// Where every instance records its hooks, with the name it had.
    nonisolated(unsafe) static var log: [String] = []

    override func prepareForDeletion() {
        super.prepareForDeletion()
        Self.log.append("prepareForDeletion")
    }

    override func willTurnIntoFault() {
        super.willTurnIntoFault()
        // The values are still there before the object turns into a fault.
        Self.log.append("willTurnIntoFault \((try? value(forKey: "name")) as? String ?? "<fault>")")
    }

    override func didTurnIntoFault() {
        super.didTurnIntoFault()
        Self.log.append("didTurnIntoFault")
    }
}

/// Core Data's deletion and fault hooks: on every delete call, and whenever an object turns into
/// a fault (refresh, merge, release of a clean object).
@Suite("Deletion and fault hooks", .serialized)
struct FaultHookTests {
    private func seeded(_ store: StoreUnderTest) throws -> (PersistentStoreCoordinator, ManagedObjectID) {
        let (coordinator, _) = try store.makeCoordinator(model: SampleModels.company())
        coordinator.register(FaultWatchedEmployee.self, forEntityName: "Employee")
        let context = ManagedObjectContext(coordinator: coordinator)
        let id: ManagedObjectID
        do {
            let alice = try context.insert("Employee", ["name": "Alice"])
            try context.save()
            id = alice.objectID
        }
        // Alice, released while her context lives, has reported her hooks: start afresh.
        withExtendedLifetime(context) { FaultWatchedEmployee.log = [] }
        return (coordinator, id)
    }

    @Test("prepareForDeletion runs on every delete call: twice when deleted twice", arguments: StoreUnderTest.all)
    func deletedTwice(store: StoreUnderTest) throws {
        let (coordinator, id) = try seeded(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let alice = try context.existingObject(with: id)
        try context.delete(alice)
        try context.delete(alice)
        #expect(FaultWatchedEmployee.log == ["prepareForDeletion", "prepareForDeletion"])
        #expect(context.deletedObjects.count == 1)
        try context.save()
        #expect(try context.freshContext().count("Employee") == 0)
        // An unsaved insert deleted twice: the second call finds it forgotten, in no context.
        let temp = try context.insert("Employee", ["name": "Temp"])
        try context.delete(temp)
        #expect(throws: ObjectError.self) { try context.delete(temp) }
    }

    @Test("refresh: willTurnIntoFault with the values loaded, then didTurnIntoFault", arguments: StoreUnderTest.all)
    func refresh(store: StoreUnderTest) throws {
        let (coordinator, id) = try seeded(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let alice = try context.existingObject(with: id)
        try context.refresh(alice, mergeChanges: false)
        #expect(FaultWatchedEmployee.log == ["willTurnIntoFault Alice", "didTurnIntoFault"])
        #expect(alice.isFault)
        // A fault refreshed is no object turning into a fault: no hook.
        try context.refresh(alice, mergeChanges: false)
        #expect(FaultWatchedEmployee.log.count == 2)
    }

    @Test("A merge that reloads an object turns it into a fault first", arguments: StoreUnderTest.all)
    func merge(store: StoreUnderTest) throws {
        let (coordinator, id) = try seeded(store)
        let reader = ManagedObjectContext(coordinator: coordinator)
        reader.automaticallyMergesChangesFromParent = true
        let alice = try reader.existingObject(with: id)
        try alice.setValue(2_000.0, forKey: "salary")   // an unsaved change: the merge keeps it on top

        let writer = ManagedObjectContext(coordinator: coordinator)
        try writer.existingObject(with: id).setValue("Alicia", forKey: "name")
        try writer.save()
        // The writer's copy, clean and released after its save, reported its own hooks.
        #expect(FaultWatchedEmployee.log == ["willTurnIntoFault Alicia", "didTurnIntoFault"])
        FaultWatchedEmployee.log = []
        reader.processPendingChanges()
        #expect(FaultWatchedEmployee.log == ["willTurnIntoFault Alice", "didTurnIntoFault"])
        #expect(try alice.string("name") == "Alicia")
        #expect(try alice.value(forKey: "salary") as? Double == 2_000)
    }

    @Test("A clean loaded object released while its context lives turns into a fault", arguments: StoreUnderTest.all)
    func release(store: StoreUnderTest) throws {
        let (coordinator, id) = try seeded(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        do {
            let alice = try context.existingObject(with: id)
            #expect(try alice.string("name") == "Alice")
        }
        #expect(FaultWatchedEmployee.log == ["willTurnIntoFault Alice", "didTurnIntoFault"])
        // A fault released has nothing to turn into a fault; an object of a reset context neither.
        FaultWatchedEmployee.log = []
        do { _ = try context.object(with: id) }
        do {
            let again = try context.existingObject(with: id)
            context.reset()
            _ = again
        }
        #expect(FaultWatchedEmployee.log.isEmpty)
        _ = context
    }
}
