import Foundation
import Strata
import StrataTestSupport
import Testing

/// What happens to objects when their context goes away or is reset: they can no longer be
/// used, and objects that referenced each other are freed once nothing else uses them.
@Suite("Objects outliving their context")
struct ContextEndTests {
    /// Acme with Ann and Bob, saved; returns the context (for its coordinator) and Acme's ID.
    private func seedCompany(_ store: StoreUnderTest) throws -> (ManagedObjectContext, ManagedObjectID) {
        let context = try store.makeContext(model: SampleModels.company())
        let acme = try context.insert("Employer", ["name": "Acme"])
        for name in ["Ann", "Bob"] {
            let employee = try context.insert("Employee", ["name": name, "salary": 1.0])
            try employee.setValue(acme, forKey: "whereIWork")
        }
        try context.save()
        return (context, acme.objectID)
    }

    /// Loads Acme and its employees in a context of its own (each employee holding Acme and
    /// Acme holding them: a cycle), then lets the context go, or resets it and lets it go after.
    private func watchCompanyCycle(_ seeded: ManagedObjectContext, _ acmeID: ManagedObjectID, reset: Bool) throws -> Watched {
        let context = seeded.freshContext()
        let acme = try context.existingObject(with: acmeID)
        let employees = try acme.objects("employees").sorted { try $0.string("name") < $1.string("name") }
        #expect(try employees.map { try $0.value(forKey: "whereIWork") as? ManagedObject } == [acme, acme])
        if reset { context.reset() }
        return Watched(first: acme, second: employees[0], third: employees[1])
    }

    @Test("Objects holding each other through a to-many are freed when their context goes",
          arguments: StoreUnderTest.all)
    func toManyCycleFreed(store: StoreUnderTest) throws {
        let (seeded, acmeID) = try seedCompany(store)
        #expect(try watchCompanyCycle(seeded, acmeID, reset: false).isFreed)
    }

    @Test("Objects holding each other through a to-many are freed after their context is reset",
          arguments: StoreUnderTest.all)
    func toManyCycleFreedAfterReset(store: StoreUnderTest) throws {
        let (seeded, acmeID) = try seedCompany(store)
        #expect(try watchCompanyCycle(seeded, acmeID, reset: true).isFreed)
    }

    @Test("Objects holding each other through to-ones alone are freed when their context goes",
          arguments: StoreUnderTest.all)
    func toOneCycleFreed(store: StoreUnderTest) throws {
        let seeded = try store.makeContext(model: SampleModels.couples())
        let husband = try seeded.insert("Husband", ["name": "Hal"])
        let wife = try seeded.insert("Wife", ["name": "Wyn"])
        try husband.setValue(wife, forKey: "wife")
        try seeded.save()

        func watch() throws -> Watched {
            let context = seeded.freshContext()
            let loaded = try context.existingObject(with: husband.objectID)
            let partner = try #require(try loaded.value(forKey: "wife") as? ManagedObject)
            #expect(try partner.value(forKey: "husband") as? ManagedObject === loaded)
            return Watched(first: loaded, second: partner)
        }
        #expect(try watch().isFreed)
    }

    @Test("An object that outlives its context keeps none of its use: reads, its to-one and changes throw",
          arguments: StoreUnderTest.all)
    func outlivingObjectUnusable(store: StoreUnderTest) throws {
        let (seeded, _) = try seedCompany(store)
        var context: ManagedObjectContext? = seeded.freshContext()
        let employees = try #require(try context?.fetch(sortedRequest("Employee")))
        let (ann, bob) = (employees[0], employees[1])
        #expect(try ann.value(forKey: "whereIWork") is ManagedObject)
        try bob.setValue(2.0, forKey: "salary")
        #expect(bob.hasChanges)
        context = nil

        for object in [ann, bob] {
            #expect(object.managedObjectContext == nil)
            #expect(!object.hasChanges)
            #expect(throws: ObjectError.objectDeleted(object.objectID)) { try object.value(forKey: "name") }
            #expect(throws: ObjectError.objectDeleted(object.objectID)) { try object.value(forKey: "whereIWork") }
            #expect(throws: ObjectError.objectDeleted(object.objectID)) { try object.value(forKey: "salary", as: Double.self) }
            #expect(throws: ObjectError.objectDeleted(object.objectID)) { try object.setValue(3.0, forKey: "salary") }
        }
        // Nothing of Bob's change reached the store.
        let reader = seeded.freshContext()
        let stored = try reader.fetch(sortedRequest("Employee"))
        #expect(try stored.map { try $0.value(forKey: "salary") as? Double } == [1.0, 1.0])
    }

    @Test("A reset context's new objects are not affected by the objects from before the reset",
          arguments: StoreUnderTest.all)
    func resetKeepsNewRegistrations(store: StoreUnderTest) throws {
        let (seeded, _) = try seedCompany(store)
        let context = seeded.freshContext()
        var before: [ManagedObject]? = try context.fetch(sortedRequest("Employee"))
        let annID = try #require(before?.first?.objectID)
        context.reset()
        let after = try context.existingObject(with: annID)
        // The old instance is freed after the reset; the new one stays registered.
        before = nil
        #expect(context.registeredObject(for: annID) === after)
        #expect(try after.string("name") == "Ann")
        #expect(try context.object(with: annID) === after)
        try after.setValue(5.0, forKey: "salary")
        try context.save()
        let reader = seeded.freshContext()
        #expect(try reader.existingObject(with: annID).value(forKey: "salary") as? Double == 5.0)
    }

    @Test("Objects that loaded no relationship, of entities on a cycle, are unusable once their context goes",
          arguments: StoreUnderTest.all)
    func unloadedRelationshipsUnusable(store: StoreUnderTest) throws {
        let (seeded, acmeID) = try seedCompany(store)
        var context: ManagedObjectContext? = seeded.freshContext()
        // Fetched with their values, but no to-one or to-many of theirs read as objects.
        let employees = try #require(try context?.fetch(sortedRequest("Employee")))
        let acme = try #require(try context?.existingObject(with: acmeID))
        #expect(try employees.map { try $0.string("name") } == ["Ann", "Bob"])
        #expect(try acme.string("name") == "Acme")
        context = nil

        for object in employees + [acme] {
            #expect(object.managedObjectContext == nil)
            #expect(throws: ObjectError.objectDeleted(object.objectID)) { try object.value(forKey: "name") }
        }
        #expect(throws: ObjectError.objectDeleted(employees[0].objectID)) { try employees[0].value(forKey: "whereIWork") }
        #expect(throws: ObjectError.objectDeleted(acmeID)) { try acme.value(forKey: "employees") }
        #expect(throws: ObjectError.objectDeleted(acmeID)) { try acme.setValue("Acme 2", forKey: "name") }
    }

    @Test("A cycle closed after a fetch is freed when its context goes, among many objects that hold none",
          arguments: StoreUnderTest.all)
    func cycleAmongUnloadedObjectsFreed(store: StoreUnderTest) throws {
        let (seeded, acmeID) = try seedCompany(store)
        func watch() throws -> Watched {
            let context = seeded.freshContext()
            _ = try context.fetch(sortedRequest("Employee"))
            let acme = try context.existingObject(with: acmeID)
            // Only Acme and the employees it loads hold others; the fetch loaded them first.
            let employees = try acme.objects("employees").sorted { try $0.string("name") < $1.string("name") }
            #expect(try employees[0].value(forKey: "whereIWork") as? ManagedObject === acme)
            return Watched(first: acme, second: employees[0], third: employees[1])
        }
        #expect(try watch().isFreed)
    }
}
