import Foundation
import Strata

/// Model versions for migration tests: a chain V1 → V2 → V3 of changes lightweight migration
/// infers, and variants that change relationships and inheritance.
public enum MigrationModels {
    /// Employers with employees, and students.
    public static func v1() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Employer") {
                Attribute("name", .string)
                Relationship("employees", toMany: "Employee", inverse: "whereIWork")
            }
            EntityDescription("Employee") {
                Attribute("name", .string)
                Attribute("age", .integer16)
                Relationship("whereIWork", to: "Employer", inverse: "employees")
            }
            EntityDescription("Student") {
                Attribute("name", .string)
                Attribute("age", .integer16)
            }
        }
    }

    /// `Employee` renamed `Employee2` (renaming identifier `Employee`), its `age` widened to
    /// Integer 32; `Student` gains `height` (default 180).
    public static func v2() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Employer") {
                Attribute("name", .string)
                Relationship("employees", toMany: "Employee2", inverse: "whereIWork")
            }
            EntityDescription("Employee2", renamingIdentifier: "Employee") {
                Attribute("name", .string)
                Attribute("age", .integer32)
                Relationship("whereIWork", to: "Employer", inverse: "employees")
            }
            EntityDescription("Student") {
                Attribute("name", .string)
                Attribute("age", .integer16)
                Attribute("height", .double, defaultValue: .double(180))
            }
        }
    }

    /// `Employee2.name` renamed `fullName`, `age` widened to Integer 64; `Student` gains a
    /// required `nickname` with a default; a new entity `Teacher`.
    public static func v3() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Employer") {
                Attribute("name", .string)
                Relationship("employees", toMany: "Employee2", inverse: "whereIWork")
            }
            EntityDescription("Employee2", renamingIdentifier: "Employee") {
                Attribute("fullName", .string, renamingIdentifier: "name")
                Attribute("age", .integer64)
                Relationship("whereIWork", to: "Employer", inverse: "employees")
            }
            EntityDescription("Student") {
                Attribute("name", .string)
                Attribute("age", .integer16)
                Attribute("height", .double, defaultValue: .double(180))
                Attribute("nickname", .string, optional: false, defaultValue: .string("none"))
            }
            EntityDescription("Teacher") {
                Attribute("name", .string)
            }
        }
    }

    /// V1 with `Employee.whereIWork` made to-many (`employers`, renaming identifier
    /// `whereIWork`): employers and employees many-to-many.
    public static func manyToMany() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Employer") {
                Attribute("name", .string)
                Relationship("employees", toMany: "Employee", inverse: "employers")
            }
            EntityDescription("Employee") {
                Attribute("name", .string)
                Attribute("age", .integer16)
                Relationship("employers", toMany: "Employer", inverse: "employees", renamingIdentifier: "whereIWork")
            }
            EntityDescription("Student") {
                Attribute("name", .string)
                Attribute("age", .integer16)
            }
        }
    }

    /// V1 with a new abstract parent `Person` above `Student`, `name` moved up into it.
    public static func withParent() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Employer") {
                Attribute("name", .string)
                Relationship("employees", toMany: "Employee", inverse: "whereIWork")
            }
            EntityDescription("Employee") {
                Attribute("name", .string)
                Attribute("age", .integer16)
                Relationship("whereIWork", to: "Employer", inverse: "employees")
            }
            EntityDescription("Person", isAbstract: true) {
                Attribute("name", .string)
            }
            EntityDescription("Student", parent: "Person") {
                Attribute("age", .integer16)
            }
        }
    }

    /// V1 with `Student.age` made a string: not a change an inferred migration makes.
    public static func ageAsString() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Employer") {
                Attribute("name", .string)
                Relationship("employees", toMany: "Employee", inverse: "whereIWork")
            }
            EntityDescription("Employee") {
                Attribute("name", .string)
                Attribute("age", .integer16)
                Relationship("whereIWork", to: "Employer", inverse: "employees")
            }
            EntityDescription("Student") {
                Attribute("name", .string)
                Attribute("age", .string)
            }
        }
    }

    /// The versions V1, V2, V3 by name.
    public static func chain() throws -> [ModelVersion] {
        [ModelVersion(name: "V1", model: try v1()), ModelVersion(name: "V2", model: try v2()),
         ModelVersion(name: "V3", model: try v3())]
    }

    /// Writes a V1 store of `type` at `url`: employers Acme (employees Ada 30, Bob 40) and
    /// Initech (Cy 50); students Alice1…Alice`students` aged 5 + i, the odd ones without an age.
    public static func writeV1Store(type: StoreType, at url: URL, students: Int = 5) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try v1())
        try coordinator.addPersistentStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        func insert(_ entity: String, _ values: [String: Any?]) throws -> ManagedObject {
            let object = try context.insertNewObject(forEntityName: entity)
            try object.setValuesForKeys(values)
            return object
        }
        let acme = try insert("Employer", ["name": "Acme"])
        let initech = try insert("Employer", ["name": "Initech"])
        _ = try insert("Employee", ["name": "Ada", "age": Int16(30), "whereIWork": acme])
        _ = try insert("Employee", ["name": "Bob", "age": Int16(40), "whereIWork": acme])
        _ = try insert("Employee", ["name": "Cy", "age": Int16(50), "whereIWork": initech])
        for index in 1...max(students, 1) {
            _ = try insert("Student", ["name": "Alice\(index)", "age": index % 2 == 0 ? Int16(5 + index) : nil])
        }
        try context.save()
    }
}
