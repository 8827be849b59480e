import Foundation
@testable import StrataCore
import StrataTestSupport
import Testing

/// The rare relationship state of an object (to-manys, relationships as saved) is made on first
/// use and kept right through saves and refreshes: a fetched object that is read holds none.
/// (What an object weighs in bytes is checked by Benchmarks/check-footprint.sh, not here.)
@Suite("Relationship state")
struct RelationshipStateTests {
    /// A context on an in-memory store of scenario 7's model (`Employer.employees` ⇄
    /// `Employee.whereIWork`), holding one employer with two employees, saved.
    static func savedCompany() throws -> (ManagedObjectContext, employer: ManagedObjectID, employees: [ManagedObjectID]) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.company())
        try coordinator.addPersistentStore(type: .inMemory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let employer = try context.insertNewObject(forEntityName: "Employer")
        try employer.setValue("Acme", forKey: "name")
        var employees: [ManagedObject] = []
        for name in ["Ada", "Grace"] {
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue(name, forKey: "name")
            try employee.setValue(employer, forKey: "whereIWork")
            employees.append(employee)
        }
        try context.save()
        return (context, employer.objectID, employees.map(\.objectID))
    }

    @Test("A fetched object that is read holds no relationship state")
    func fetchedObjectsHoldNone() throws {
        let (context, employer, _) = try Self.savedCompany()
        let fresh = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        let fetched = try fresh.fetch(FetchRequest(entityName: "Employee"))
        #expect(fetched.count == 2)
        for employee in fetched {
            #expect(try employee.value(forKey: "name", as: String.self) != nil)
            #expect(try employee.value(forKey: "whereIWork", as: ManagedObject.self)?.objectID == employer)
            #expect(employee.relationshipState == nil)
        }
    }

    @Test("A to-one changed after a fetch is told from the saved one, which the object keeps")
    func changedToOneKeepsTheSavedOne() throws {
        let (context, employer, employees) = try Self.savedCompany()
        let other = try context.insertNewObject(forEntityName: "Employer")
        try other.setValue("Initech", forKey: "name")
        try context.save()
        let fresh = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        let ada = try fresh.existingObject(with: employees[0])
        try ada.setValue(try fresh.existingObject(with: other.objectID), forKey: "whereIWork")
        #expect(ada.relationshipState != nil)
        #expect(ada.changedValues().keys.sorted() == ["whereIWork"])
        let saved = try ada.committedValues(forKeys: ["whereIWork"])
        #expect((saved["whereIWork"] ?? nil).flatMap { $0 as? ManagedObject }?.objectID == employer)
        try fresh.save()
        #expect(ada.changedValues().isEmpty)
        #expect((try ada.committedValues(forKeys: ["whereIWork"])["whereIWork"] ?? nil).flatMap { $0 as? ManagedObject }?.objectID == other.objectID)
    }

    @Test("A to-many read after a fetch is held until the object turns into a fault, and reads the same after")
    func toManyStateComesAndGoes() throws {
        let (context, employer, employees) = try Self.savedCompany()
        let fresh = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        let acme = try fresh.existingObject(with: employer)
        let staff = try #require(try acme.value(forKey: "employees") as? Set<ManagedObject>)
        #expect(Set(staff.map(\.objectID)) == Set(employees))
        #expect(acme.relationshipState != nil)
        try fresh.refresh(acme, mergeChanges: false)
        #expect(acme.isFault && acme.relationshipState == nil)
        #expect(Set(try #require(try acme.value(forKey: "employees") as? Set<ManagedObject>).map(\.objectID)) == Set(employees))
    }
}

extension RelationshipStateTests {
    @Test("A fetched object's one to-one moves into its state when it needs one, and reads the same")
    func toOneMovesIntoTheState() throws {
        let (context, employer, employees) = try Self.savedCompany()
        let fresh = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        let ada = try fresh.existingObject(with: employees[0])
        #expect(try ada.value(forKey: "whereIWork", as: ManagedObject.self)?.objectID == employer)
        #expect(ada.firstToOne?.objectID == employer && ada.relationshipState == nil)

        // A changed value keeps the saved ones in the state, which takes the to-one over.
        try ada.setValue("Ada L.", forKey: "name")
        let state = try #require(ada.relationshipState)
        #expect(ada.firstToOne == nil && state.toOnes["whereIWork"]?.objectID == employer)
        #expect(try ada.value(forKey: "whereIWork", as: ManagedObject.self)?.objectID == employer)
        #expect(ada.hasToOnes && ada.toOneValues["whereIWork"]?.objectID == employer)

        // Removed and set again through the state; saved and fetched anew, it reads the same.
        try ada.setValue(nil, forKey: "whereIWork")
        #expect(!ada.hasToOnes && state.toOnes.isEmpty)
        try ada.setValue(try fresh.existingObject(with: employer), forKey: "whereIWork")
        try fresh.save()
        let again = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        let reread = try again.existingObject(with: employees[0])
        #expect(try reread.value(forKey: "name", as: String.self) == "Ada L.")
        #expect(try reread.value(forKey: "whereIWork", as: ManagedObject.self)?.objectID == employer)

        // Turned into a fault, the object drops its state and its to-one, and loads both again.
        try fresh.refresh(ada, mergeChanges: false)
        #expect(ada.isFault && ada.relationshipState == nil && ada.firstToOne == nil)
        #expect(try ada.value(forKey: "whereIWork", as: ManagedObject.self)?.objectID == employer)
    }
}
