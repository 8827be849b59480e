import Foundation
import Strata
import StrataMigration
import StrataTestSupport
import Testing

/// Turns students older than 18 into teachers; the others are mapped as the mapping says.
final class StudentToTeacherPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                             manager: MigrationManager) throws {
        guard let age = try source.value(forKey: "age") as? Int16, age > 18 else {
            return try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        }
        let teacher = try manager.destinationContext.insertNewObject(forEntityName: "Teacher")
        for key in ["id", "name", "age", "height"] {
            try teacher.setValue(try source.value(forKey: key), forKey: key)
        }
        manager.associate(sourceInstance: source, withDestinationInstance: teacher, for: mapping)
    }
}

/// Answers `FUNCTION($entityPolicy, "fullNameForFirst:last:", …)` and counts the objects it made.
final class FullNamePolicy: EntityMigrationPolicy {
    override func function(_ selector: String, arguments: [Any?], manager: MigrationManager) throws -> Any? {
        switch selector {
        case "fullNameForFirst:last:":
            "\(arguments[0] as? String ?? "") \(arguments[1] as? String ?? "")"
        default:
            try super.function(selector, arguments: arguments, manager: manager)
        }
    }
}

/// Writes every hook it is called through in the manager's user info.
final class RecordingPolicy: EntityMigrationPolicy {
    private func log(_ entry: String, _ manager: MigrationManager) {
        manager.userInfo["log", default: [String]()] = (manager.userInfo["log"] as? [String] ?? []) + [entry]
    }
    override func begin(_ mapping: EntityMapping, with manager: MigrationManager) throws { log("begin \(mapping.name)", manager) }
    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        log("create \(mapping.name)", manager)
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }
    override func endInstanceCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws { log("endCreate \(mapping.name)", manager) }
    override func createRelationships(forDestination destination: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        log("relate \(mapping.name)", manager)
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    }
    override func endRelationshipCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws { log("endRelate \(mapping.name)", manager) }
    override func performCustomValidation(forMapping mapping: EntityMapping, manager: MigrationManager) throws { log("validate \(mapping.name)", manager) }
    override func end(_ mapping: EntityMapping, manager: MigrationManager) throws { log("end \(mapping.name)", manager) }
}

/// At the end of the relationship stage, looks every destination person up both ways.
final class LookupPolicy: EntityMigrationPolicy {
    override func endRelationshipCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {
        let people = try manager.destinationContext.fetch(FetchRequest(entityName: "Person"))
        var pairs: [String] = []
        for person in people {
            let sources = try manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: [person])
            let back = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: sources)
            pairs.append("\(try sources.first?.value(forKey: "first") as? String ?? "?")→\(back.first === person)")
        }
        manager.userInfo["pairs"] = pairs.sorted()
    }
}

/// Cancels the migration at its fourth source object.
final class CancellingPolicy: EntityMigrationPolicy {
    struct Stop: Error {}
    private var seen = 0
    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        seen += 1
        if seen == 4 { manager.cancelMigration(with: Stop()) }
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }
}

/// Fails while relationships are created.
final class FailingPolicy: EntityMigrationPolicy {
    struct Broken: Error {}
    override func createRelationships(forDestination destination: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        throw Broken()
    }
}

@Suite("Mapping-model migrations on every store type")
struct MappingMigrationTests {
    // MARK: Models

    static let students = try! ManagedObjectModel {
        EntityDescription("Student") {
            Attribute("id", .integer64, optional: false)
            Attribute("name", .string, optional: false)
            Attribute("age", .integer16, optional: false)
            Attribute("height", .double, optional: false)
        }
    }

    static let studentsAndTeachers = try! ManagedObjectModel {
        EntityDescription("Student") {
            Attribute("id", .integer64, optional: false)
            Attribute("name", .string, optional: false)
            Attribute("age", .integer16, optional: false)
            Attribute("height", .double, optional: false)
        }
        EntityDescription("Teacher") {
            Attribute("id", .integer64, optional: false)
            Attribute("name", .string, optional: false)
            Attribute("age", .integer16, optional: false)
            Attribute("height", .double, optional: false)
        }
    }

    static let employees = try! ManagedObjectModel {
        EntityDescription("Employee") {
            Attribute("name", .string, optional: false)
            Attribute("height", .double)
        }
    }

    static let employees2 = try! ManagedObjectModel {
        EntityDescription("Employee") {
            Attribute("name", .string, optional: false)
            Attribute("height", .double)
            Attribute("badge", .string, optional: false)
        }
    }

    static let companies = try! ManagedObjectModel {
        EntityDescription("Company") {
            Attribute("name", .string, optional: false)
            Relationship("staff", toMany: "Person", inverse: "employer")
        }
        EntityDescription("Person") {
            Attribute("first", .string)
            Attribute("last", .string)
            Attribute("age", .integer16)
            Relationship("employer", to: "Company", inverse: "staff")
        }
    }

    static let firms = try! ManagedObjectModel {
        EntityDescription("Firm") {
            Attribute("title", .string, optional: false)
            Attribute("size", .integer64)
            Relationship("employees", toMany: "Person", inverse: "firm")
        }
        EntityDescription("Person") {
            Attribute("fullName", .string, optional: false)
            Attribute("age", .integer32)
            Attribute("nickname", .string)
            Relationship("firm", to: "Firm", inverse: "employees", optional: false)
        }
    }

    static func studentMapping(policy: String?) -> MappingModel {
        MappingModel(entityMappings: [
            EntityMapping(name: "StudentToStudent", mappingType: policy == nil ? .transform : .custom,
                          sourceEntityName: "Student", destinationEntityName: "Student",
                          entityMigrationPolicyClassName: policy,
                          attributeMappings: ["id", "name", "age", "height"].map { PropertyMapping(name: $0) }),
        ])
    }

    /// Twenty students `Alice1`…`Alice20`, ages 6…25, height 180.
    static func fillStudents(_ context: ManagedObjectContext) throws {
        for index in 1...20 {
            let student = try context.insertNewObject(forEntityName: "Student")
            try student.setValue(Int64(index), forKey: "id")
            try student.setValue("Alice\(index)", forKey: "name")
            try student.setValue(Int16(index + 5), forKey: "age")
            try student.setValue(180.0, forKey: "height")
        }
    }

    // MARK: The seeds' cases

    @Test("A filter predicate ($source.height < 100) carries only the employees it matches", arguments: MigrationRun.all)
    func filter(run: MigrationRun) throws {
        let source = try run.makeSource(model: Self.employees) { context in
            for (index, height) in [40.0, 99.5, 100, 150, 20, 120, 75].enumerated() {
                let employee = try context.insertNewObject(forEntityName: "Employee")
                try employee.setValue("E\(index)", forKey: "name")
                try employee.setValue(height, forKey: "height")
            }
        }
        let mapping = MappingModel(entityMappings: [
            EntityMapping(name: "EmployeeToEmployee", sourceEntityName: "Employee", destinationEntityName: "Employee",
                          filterPredicate: "$source.height < 100",
                          attributeMappings: [PropertyMapping(name: "name"), PropertyMapping(name: "height"),
                                              PropertyMapping(name: "badge", valueExpression: .builtInFunction(
                                                name: "uppercase", arguments: [.keyPath(.variable("source"), "name")]))]),
        ])
        let manager = MigrationManager(sourceModel: Self.employees, destinationModel: Self.employees2)
        let migrated = try run.open(run.migrate(manager, mapping: mapping, from: source), model: Self.employees2)
        let names = try migrated.all("Employee", sortedBy: "name").map { try $0.value(forKey: "name") as? String }
        #expect(names == ["E0", "E1", "E4", "E6"])
        let badges = try migrated.all("Employee", sortedBy: "name").map { try $0.value(forKey: "badge") as? String }
        #expect(badges == ["E0", "E1", "E4", "E6"])
        let heights = try migrated.all("Employee", sortedBy: "name").map { try $0.value(forKey: "height") as? Double }
        #expect(heights == [40, 99.5, 20, 75])
    }

    @Test("A custom policy turns the students older than 18 into teachers: 13 students, 7 teachers", arguments: MigrationRun.all)
    func studentsToTeachers(run: MigrationRun) throws {
        EntityMigrationPolicy.register(StudentToTeacherPolicy.self, forName: "School.StudentToTeacherPolicy")
        let source = try run.makeSource(model: Self.students, Self.fillStudents)
        let manager = MigrationManager(sourceModel: Self.students, destinationModel: Self.studentsAndTeachers)
        manager.batchSize = 6
        let url = try run.migrate(manager, mapping: Self.studentMapping(policy: "School.StudentToTeacherPolicy"), from: source)
        let migrated = try run.open(url, model: Self.studentsAndTeachers)
        func rows(_ entity: String) throws -> [[String]] {
            try migrated.all(entity, sortedBy: "id").map { object in
                try ["id", "name", "age", "height"].map { key in
                    let value: Any? = try object.value(forKey: key)
                    return value.map { "\($0)" } ?? "nil"
                }
            }
        }
        let students = try rows("Student")
        let teachers = try rows("Teacher")
        #expect(students.count == 13 && teachers.count == 7)
        #expect(students.map { $0[2] } == (6...18).map(String.init))
        #expect(teachers.map { $0[2] } == (19...25).map(String.init))
        #expect(students.first == ["1", "Alice1", "6", "180.0"])
        #expect(teachers.first == ["14", "Alice14", "19", "180.0"])
        #expect(teachers.last == ["20", "Alice20", "25", "180.0"])
    }

    @Test("A mapping model written in code: renames, constants, policy functions, relationships across batches",
          arguments: MigrationRun.all)
    func mappingInCode(run: MigrationRun) throws {
        EntityMigrationPolicy.register(FullNamePolicy.self, forName: "FullNamePolicy")
        let source = try run.makeSource(model: Self.companies) { context in
            var companies: [ManagedObject] = []
            for name in ["acme", "globex", "initech"] {
                let company = try context.insertNewObject(forEntityName: "Company")
                try company.setValue(name, forKey: "name")
                companies.append(company)
            }
            for index in 0..<11 {
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setValue("P\(index)", forKey: "first")
                try person.setValue("Smith", forKey: "last")
                try person.setValue(Int16(20 + index), forKey: "age")
                try person.setValue(companies[index % 3], forKey: "employer")
            }
        }
        let manager = "destinationInstancesForEntityMappingNamed:sourceInstances:"
        let mapping = MappingModel(entityMappings: [
            EntityMapping(name: "PersonToPerson", sourceEntityName: "Person", destinationEntityName: "Person",
                          entityMigrationPolicyClassName: "FullNamePolicy",
                          attributeMappings: [
                            PropertyMapping(name: "fullName", valueExpression: .function(
                                receiver: .variable("entityPolicy"), selector: "fullNameForFirst:last:",
                                arguments: [.keyPath(.variable("source"), "first"), .keyPath(.variable("source"), "last")])),
                            PropertyMapping(name: "age", valueExpression: .keyPath(.variable("source"), "age")),
                            PropertyMapping(name: "nickname", valueExpression: .constant(.string("Unknown"))),
                          ],
                          relationshipMappings: [
                            PropertyMapping(name: "firm", valueExpression: .function(
                                receiver: .variable("manager"), selector: manager,
                                arguments: [.constant(.string("CompanyToFirm")), .keyPath(.variable("source"), "employer")])),
                          ]),
            EntityMapping(name: "CompanyToFirm", sourceEntityName: "Company", destinationEntityName: "Firm",
                          attributeMappings: [
                            PropertyMapping(name: "title", valueExpression: .keyPath(.variable("source"), "name")),
                            PropertyMapping(name: "size", valueExpression: .keyPath(.variable("source"), "staff.@count")),
                          ],
                          relationshipMappings: [PropertyMapping(name: "employees", generatesValueExpression: true,
                                                                 sourceKeyPath: "$source.staff", sourceMappingName: "PersonToPerson")]),
        ])
        let migration = MigrationManager(sourceModel: Self.companies, destinationModel: Self.firms)
        migration.batchSize = 2
        var progress: [Float] = []
        migration.progressHandler = { progress.append($0) }
        let migrated = try run.open(run.migrate(migration, mapping: mapping, from: source), model: Self.firms)

        let firms = try migrated.all("Firm", sortedBy: "title")
        #expect(try firms.map { try $0.value(forKey: "title") as? String } == ["acme", "globex", "initech"])
        #expect(try firms.map { try $0.value(forKey: "size") as? Int64 } == [4, 4, 3])
        let people = try migrated.all("Person", sortedBy: "age")
        #expect(people.count == 11)
        for (index, person) in people.enumerated() {
            #expect(try person.value(forKey: "fullName") as? String == "P\(index) Smith")
            #expect(try person.value(forKey: "age") as? Int32 == Int32(20 + index))
            #expect(try person.value(forKey: "nickname") as? String == "Unknown")
            #expect(try person.value(forKeyPath: "firm.title") as? String == ["acme", "globex", "initech"][index % 3])
        }
        let acme = try #require(firms.first)
        let acmeStaff = try #require(try acme.value(forKey: "employees") as? Set<ManagedObject>)
        #expect(Set(try acmeStaff.map { try $0.value(forKey: "fullName") as? String }) == ["P0 Smith", "P3 Smith", "P6 Smith", "P9 Smith"])

        #expect(progress.last == 1)
        #expect(progress == progress.sorted())
        #expect(migration.migrationProgress == 1)
    }

    @Test("Every hook runs, in Core Data's three stages")
    func hookOrder() throws {
        EntityMigrationPolicy.register(RecordingPolicy.self, forName: "RecordingPolicy")
        let run = MigrationRun.all[0]
        let source = try run.makeSource(model: Self.companies) { context in
            let company = try context.insertNewObject(forEntityName: "Company")
            try company.setValue("acme", forKey: "name")
            let person = try context.insertNewObject(forEntityName: "Person")
            try person.setValue("Ada", forKey: "first")
            try person.setValue(company, forKey: "employer")
        }
        var mapping = MappingModel(entityMappings: [
            EntityMapping(name: "CompanyToFirm", sourceEntityName: "Company", destinationEntityName: "Firm",
                          entityMigrationPolicyClassName: "RecordingPolicy",
                          attributeMappings: [PropertyMapping(name: "title", valueExpression: .keyPath(.variable("source"), "name"))],
                          relationshipMappings: [PropertyMapping(name: "employees", generatesValueExpression: true,
                                                                 sourceKeyPath: "$source.staff", sourceMappingName: "PersonToPerson")]),
            EntityMapping(name: "PersonToPerson", sourceEntityName: "Person", destinationEntityName: "Person",
                          entityMigrationPolicyClassName: "RecordingPolicy",
                          attributeMappings: [PropertyMapping(name: "fullName", valueExpression: .keyPath(.variable("source"), "first"))]),
        ])
        mapping.entityMappings[1].relationshipMappings = []
        let manager = MigrationManager(sourceModel: Self.companies, destinationModel: Self.firms)
        _ = try run.migrate(manager, mapping: mapping, from: source)
        #expect(manager.userInfo["log"] as? [String] == [
            "begin CompanyToFirm", "create CompanyToFirm", "endCreate CompanyToFirm",
            "begin PersonToPerson", "create PersonToPerson", "endCreate PersonToPerson",
            "relate CompanyToFirm", "endRelate CompanyToFirm", "relate PersonToPerson", "endRelate PersonToPerson",
            "validate CompanyToFirm", "validate PersonToPerson", "end CompanyToFirm", "end PersonToPerson",
        ])
    }

    @Test("Associations are looked up both ways, across batches", arguments: MigrationRun.all)
    func lookups(run: MigrationRun) throws {
        EntityMigrationPolicy.register(LookupPolicy.self, forName: "LookupPolicy")
        let source = try run.makeSource(model: Self.companies) { context in
            for index in 0..<7 {
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setValue("P\(index)", forKey: "first")
            }
            let company = try context.insertNewObject(forEntityName: "Company")
            try company.setValue("acme", forKey: "name")
        }
        let mapping = MappingModel(entityMappings: [
            EntityMapping(name: "PersonToPerson", sourceEntityName: "Person", destinationEntityName: "Person",
                          entityMigrationPolicyClassName: "LookupPolicy",
                          attributeMappings: [PropertyMapping(name: "fullName", valueExpression: .keyPath(.variable("source"), "first"))]),
        ])
        let manager = MigrationManager(sourceModel: Self.companies, destinationModel: Self.firms)
        manager.batchSize = 3
        // Person.firm is required: the people cannot validate without a firm.
        let error = try expectHarmlessFailure(run, source: source) {
            _ = try run.migrate(manager, mapping: mapping, from: source)
        }
        guard case .validation(let validation)? = error else { Issue.record("unexpected: \(String(describing: error))"); return }
        #expect(validation.failures.count == 7 && validation.failures.allSatisfy { $0.key == "firm" })
        #expect(manager.userInfo["pairs"] as? [String] == (0..<7).map { "P\($0)→true" })
    }

    // MARK: Failures leave the source as it was and no destination

    /// Runs a migration that must fail, and checks that the source's files are byte for byte
    /// what they were and that nothing but the source is in its folder.
    private func expectHarmlessFailure(_ run: MigrationRun, source: URL, _ body: () throws -> Void) throws -> MappingMigrationError? {
        let before = storeFileBytes(source)
        let folder = source.deletingLastPathComponent()
        let filesBefore = try files(in: folder, startingWith: "")
        var caught: MappingMigrationError?
        do {
            try body()
            Issue.record("the migration did not fail")
        } catch let error as MappingMigrationError {
            caught = error
        }
        #expect(storeFileBytes(source) == before)
        #expect(try files(in: folder, startingWith: "migrated-").isEmpty)
        #expect(try files(in: folder, startingWith: "") == filesBefore)
        return caught
    }

    @Test("A cancelled migration gives a typed error, leaves the source untouched and no destination", arguments: MigrationRun.all)
    func cancelled(run: MigrationRun) throws {
        EntityMigrationPolicy.register(CancellingPolicy.self, forName: "CancellingPolicy")
        let source = try run.makeSource(model: Self.students, Self.fillStudents)
        let manager = MigrationManager(sourceModel: Self.students, destinationModel: Self.studentsAndTeachers)
        manager.batchSize = 3
        let error = try expectHarmlessFailure(run, source: source) {
            _ = try run.migrate(manager, mapping: Self.studentMapping(policy: "CancellingPolicy"), from: source)
        }
        guard case .cancelled(let reason)? = error else { Issue.record("not cancelled: \(String(describing: error))"); return }
        #expect(reason is CancellingPolicy.Stop)
    }

    @Test("A policy that throws half-way leaves the source untouched and no destination", arguments: MigrationRun.all)
    func failedHalfWay(run: MigrationRun) throws {
        EntityMigrationPolicy.register(FailingPolicy.self, forName: "FailingPolicy")
        let source = try run.makeSource(model: Self.students, Self.fillStudents)
        var mapping = Self.studentMapping(policy: "FailingPolicy")
        mapping.entityMappings[0].mappingType = .custom
        let manager = MigrationManager(sourceModel: Self.students, destinationModel: Self.studentsAndTeachers)
        let error = try expectHarmlessFailure(run, source: source) {
            _ = try run.migrate(manager, mapping: mapping, from: source)
        }
        guard case .stageFailed(.relationshipCreation, "StudentToStudent", let underlying)? = error else {
            Issue.record("unexpected: \(String(describing: error))"); return
        }
        #expect(underlying is FailingPolicy.Broken)
    }

    @Test("An unregistered policy class is an error naming it", arguments: MigrationRun.all)
    func unregisteredPolicy(run: MigrationRun) throws {
        let source = try run.makeSource(model: Self.students, Self.fillStudents)
        let manager = MigrationManager(sourceModel: Self.students, destinationModel: Self.studentsAndTeachers)
        let error = try expectHarmlessFailure(run, source: source) {
            _ = try run.migrate(manager, mapping: Self.studentMapping(policy: "Nowhere.MissingPolicy"), from: source)
        }
        guard case .unregisteredPolicy("Nowhere.MissingPolicy", "StudentToStudent")? = error else {
            Issue.record("unexpected: \(String(describing: error))"); return
        }
        #expect(error?.description.contains("Nowhere.MissingPolicy") == true)
    }

    @Test("Destination objects that do not validate fail the migration in its last stage", arguments: MigrationRun.all)
    func validationFailure(run: MigrationRun) throws {
        let source = try run.makeSource(model: Self.employees) { context in
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue("E", forKey: "name")
        }
        // `badge` is required and nothing sets it.
        let mapping = MappingModel(entityMappings: [
            EntityMapping(name: "EmployeeToEmployee", sourceEntityName: "Employee", destinationEntityName: "Employee",
                          attributeMappings: [PropertyMapping(name: "name")]),
        ])
        let manager = MigrationManager(sourceModel: Self.employees, destinationModel: Self.employees2)
        let error = try expectHarmlessFailure(run, source: source) {
            _ = try run.migrate(manager, mapping: mapping, from: source)
        }
        guard case .validation(let validation)? = error else { Issue.record("unexpected: \(String(describing: error))"); return }
        #expect(validation.failures.map(\.key) == ["badge"])
    }

    @Test("An expression reading what the source lacks, and a file in the way, are typed errors")
    func badInput() throws {
        let run = MigrationRun.all[0]
        let source = try run.makeSource(model: Self.employees) { context in
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue("E", forKey: "name")
        }
        let manager = MigrationManager(sourceModel: Self.employees, destinationModel: Self.employees2)
        let unknownVariable = MappingModel(entityMappings: [
            EntityMapping(name: "EmployeeToEmployee", sourceEntityName: "Employee", destinationEntityName: "Employee",
                          attributeMappings: [PropertyMapping(name: "name"),
                                              PropertyMapping(name: "badge", valueExpression: .variable("nowhere"))]),
        ])
        let error = try expectHarmlessFailure(run, source: source) {
            _ = try run.migrate(manager, mapping: unknownVariable, from: source)
        }
        guard case .expression("EmployeeToEmployee", "badge", "$nowhere", _)? = error else {
            Issue.record("unexpected: \(String(describing: error))"); return
        }
        let mismatch = MappingModel(entityMappings: [
            EntityMapping(name: "EmployeeToEmployee", sourceEntityName: "Employee", destinationEntityName: "Employee",
                          attributeMappings: [PropertyMapping(name: "badge", valueExpression: .keyPath(.variable("source"), "shoeSize"))]),
        ])
        let mismatchError = try expectHarmlessFailure(run, source: source) {
            _ = try run.migrate(manager, mapping: mismatch, from: source)
        }
        guard case .mapping? = mismatchError else { Issue.record("unexpected: \(String(describing: mismatchError))"); return }

        let inTheWay = source.deletingLastPathComponent().appending(path: "occupied")
        try Data("x".utf8).write(to: inTheWay)
        #expect(throws: MappingMigrationError.self) {
            try manager.migrateStore(from: source, type: run.source.type, mapping: Self.studentMapping(policy: nil),
                                     to: inTheWay, type: run.destination.type)
        }
        #expect(FileManager.default.contents(atPath: inTheWay.path) == Data("x".utf8))
    }
}
