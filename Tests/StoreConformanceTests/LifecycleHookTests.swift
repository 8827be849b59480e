import Foundation
import Strata
import StrataTestSupport
import Testing

/// A subclass that records every lifecycle hook called on it.
class HookedObject: ManagedObject {
    var calls: [String] = []

    override func awakeFromInsert() {
        super.awakeFromInsert()
        calls.append("awakeFromInsert")
    }

    override func awakeFromFetch() {
        super.awakeFromFetch()
        calls.append("awakeFromFetch")
    }

    override func willSave() {
        super.willSave()
        calls.append("willSave")
    }

    override func didSave() {
        super.didSave()
        calls.append("didSave")
    }

    override func prepareForDeletion() {
        super.prepareForDeletion()
        calls.append("prepareForDeletion")
    }

    override func didTurnIntoFault() {
        super.didTurnIntoFault()
        calls.append("didTurnIntoFault")
    }
}

final class HookedEmployer: HookedObject {}

final class HookedEmployee: HookedObject {
    /// A typed property over the model's `name`.
    var name: String? {
        get { self[typed: "name"] }
        set { setTyped(newValue, forKey: "name") }
    }

    override func awakeFromInsert() {
        super.awakeFromInsert()
        // The place to set initial values: it must not count as a separate change.
        name = "New hire"
    }
}

/// Lifecycle hooks of registered subclasses, called exactly when Core Data calls them.
@Suite("Lifecycle hooks")
struct LifecycleHookTests {
    private func coordinator(_ store: StoreUnderTest) throws -> PersistentStoreCoordinator {
        let (coordinator, _) = try store.makeCoordinator(model: SampleModels.company())
        coordinator.register(HookedEmployer.self, forEntityName: "Employer")
        coordinator.register(HookedEmployee.self, forEntityName: "Employee")
        return coordinator
    }

    private func calls(_ object: ManagedObject?) -> [String] { (object as? HookedObject)?.calls ?? ["<not hooked>"] }

    @Test("A class registered after a context made objects is the class of its next objects", arguments: StoreUnderTest.all)
    func lateRegistration(store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: SampleModels.company())
        let context = ManagedObjectContext(coordinator: coordinator)
        let before = try context.insertNewObject(forEntityName: "Employee")
        #expect(!(before is HookedEmployee))
        coordinator.register(HookedEmployee.self, forEntityName: "Employee")
        let after = try context.insertNewObject(forEntityName: "Employee")
        #expect(after is HookedEmployee)
        try context.save()
        // A fault made from a saved row after the registration is of the class too.
        let fresh = ManagedObjectContext(coordinator: coordinator)
        #expect(try fresh.object(with: before.objectID) is HookedEmployee)
    }

    @Test("Insert, save, change, fetch, delete: each hook exactly once, in order", arguments: StoreUnderTest.all)
    func hooksInOrder(store: StoreUnderTest) throws {
        let coordinator = try coordinator(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let inserted = try context.insertNewObject(forEntityName: "Employee")
        let alice = try #require(inserted as? HookedEmployee)
        #expect(alice.calls == ["awakeFromInsert"])
        #expect(alice.name == "New hire")
        #expect(alice.isInserted)
        alice.name = "Alice"
        let acme = try context.insert("Employer", ["name": "Acme"])
        try alice.setValue(acme, forKey: "whereIWork")
        #expect(calls(acme) == ["awakeFromInsert"])

        try context.save()
        #expect(alice.calls == ["awakeFromInsert", "willSave", "didSave"])
        #expect(calls(acme) == ["awakeFromInsert", "willSave", "didSave"])
        // Nothing to save: no hooks.
        try context.save()
        #expect(alice.calls == ["awakeFromInsert", "willSave", "didSave"])

        // A fetch in another context returns the subclass, woken from fetch once.
        let fresh = context.freshContext()
        let fetched = try fresh.fetch(FetchRequest(entityName: "Employee"), as: HookedEmployee.self)
        #expect(fetched.count == 1)
        let stored = try #require(fetched.first)
        #expect(stored.calls == ["awakeFromFetch"])
        #expect(stored.name == "Alice")
        _ = try fresh.fetch(FetchRequest(entityName: "Employee"))
        #expect(stored.calls == ["awakeFromFetch"])

        // A fault wakes when it fills, not before.
        let storedAcme = try fresh.object(with: acme.objectID)
        #expect(storedAcme is HookedEmployer)
        #expect(calls(storedAcme) == [])
        #expect(try storedAcme.string("name") == "Acme")
        #expect(calls(storedAcme) == ["awakeFromFetch"])

        // Change and save: willSave and didSave on the changed objects only.
        stored.name = "Alicia"
        try fresh.save()
        #expect(stored.calls == ["awakeFromFetch", "willSave", "didSave"])
        #expect(calls(storedAcme) == ["awakeFromFetch"])

        // Refresh turns into a fault; the next read wakes it again.
        try fresh.refresh(stored, mergeChanges: false)
        #expect(stored.calls == ["awakeFromFetch", "willSave", "didSave", "didTurnIntoFault"])
        #expect(stored.name == "Alicia")
        #expect(stored.calls == ["awakeFromFetch", "willSave", "didSave", "didTurnIntoFault", "awakeFromFetch"])
    }

    @Test("Deleting calls prepareForDeletion at once (cascades too), willSave and didSave at the save",
          arguments: StoreUnderTest.all)
    func deletionHooks(store: StoreUnderTest) throws {
        let coordinator = try coordinator(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let acme = try context.insert("Employer", ["name": "Acme"])
        let alice = try context.insert("Employee", ["name": "Alice", "whereIWork": acme])
        try context.save()
        let fresh = context.freshContext()
        let storedAlice = try fresh.existingObject(with: alice.objectID)
        let storedAcme = try fresh.existingObject(with: acme.objectID)
        #expect(calls(storedAlice) == ["awakeFromFetch"])

        try fresh.delete(storedAlice)
        #expect(calls(storedAlice) == ["awakeFromFetch", "prepareForDeletion"])
        // The nullified inverse changed, so the employer saves too.
        #expect(calls(storedAcme) == ["awakeFromFetch"])
        try fresh.save()
        #expect(calls(storedAlice) == ["awakeFromFetch", "prepareForDeletion", "willSave", "didSave"])
        #expect(calls(storedAcme) == ["awakeFromFetch", "willSave", "didSave"])

        // An unsaved insert that is deleted is prepared for deletion and never saved.
        let temp = try fresh.insert("Employee", ["name": "Temp"])
        try fresh.delete(temp)
        #expect(calls(temp) == ["awakeFromInsert", "prepareForDeletion"])
        try fresh.save()
        #expect(calls(temp) == ["awakeFromInsert", "prepareForDeletion"])
    }

    @Test("A failed save calls willSave but not didSave", arguments: StoreUnderTest.all)
    func failedSave(store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: SampleModels.validation())
        final class HookedTeam: HookedObject {}
        coordinator.register(HookedTeam.self, forEntityName: "Team")
        let context = ManagedObjectContext(coordinator: coordinator)
        let team = try context.insert("Team", ["size": 3])
        #expect(throws: ValidationError.self) { try context.save() }
        #expect(calls(team) == ["awakeFromInsert", "willSave"])
    }

    @Test("What willSave hooks insert, change or delete is what the save writes", arguments: StoreUnderTest.all)
    func hooksChangeTheSave(store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: SampleModels.company())
        final class ScriptedEmployer: ManagedObject {
            var willSaveCalls = 0
            var onWillSave: (() throws -> Void)?
            override func willSave() {
                super.willSave()
                willSaveCalls += 1
                let script = onWillSave
                onWillSave = nil
                do { try script?() } catch { Issue.record("the willSave script failed: \(error)") }
            }
        }
        coordinator.register(ScriptedEmployer.self, forEntityName: "Employer")
        coordinator.register(HookedEmployee.self, forEntityName: "Employee")
        let context = ManagedObjectContext(coordinator: coordinator)
        let acme = try #require(try context.insert("Employer", ["name": "Acme"]) as? ScriptedEmployer)
        let temp = try context.insert("Employee", ["name": "Temp"])
        let kept = try context.insert("Employee", ["name": "Kept"])
        var hired: ManagedObject?
        acme.onWillSave = {
            hired = try context.insert("Employee", ["name": "Hired in willSave"])
            try context.delete(temp)
            try kept.setValue("Kept and renamed", forKey: "name")
        }
        try context.save()

        let hire = try #require(hired)
        #expect(acme.willSaveCalls == 1)
        #expect(calls(hire) == ["awakeFromInsert", "willSave", "didSave"])
        // Deleted by the first hook before its turn: never saved, so no willSave.
        #expect(calls(temp) == ["awakeFromInsert", "prepareForDeletion"])
        #expect(!context.hasChanges)
        #expect(!hire.objectID.isTemporaryID && !kept.objectID.isTemporaryID)
        #expect(try context.object(with: hire.objectID) === hire)
        let fresh = context.freshContext()
        let names = try fresh.fetch(sortedRequest("Employee", by: "name")).map { try $0.string("name") }
        #expect(names == ["Hired in willSave", "Kept and renamed"])
    }
}
