import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// Inferred (lightweight) migration on every store type that keeps a file: the store is opened
/// with a newer model version and `shouldMigrateStoreAutomatically`.
@Suite("Migration")
struct MigrationTests {
    static let migrating: [String: PropertyListValue] = [StoreOption.shouldMigrateStoreAutomatically: .bool(true),
                                                         StoreOption.shouldInferMappingModelAutomatically: .bool(true)]

    /// A V1 store of `store`'s type, with its file's URL.
    func v1Store(_ store: StoreUnderTest, students: Int = 5) throws -> URL {
        let url = try store.storeURL()
        try MigrationModels.writeV1Store(type: store.type, at: url, students: students)
        return url
    }

    /// A context on the store at `url` opened with `model`, migrating.
    func open(_ url: URL, _ store: StoreUnderTest, model: ManagedObjectModel,
              planner: MigrationPlanner? = nil) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        if let planner { coordinator.migrationPlanner = planner }
        try coordinator.addPersistentStore(type: store.type, at: url, options: Self.migrating)
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// The bytes of the store file and its sidecars.
    func bytes(_ url: URL) -> [Data?] {
        ["", "-wal", "-shm", "-journal"].map { FileManager.default.contents(atPath: url.path + $0) }
    }

    @Test("an added attribute takes its default, a renamed entity keeps its rows, keys and relationships",
          arguments: StoreUnderTest.fileBacked)
    func addAndRename(store: StoreUnderTest) throws {
        let url = try v1Store(store)
        let before = ManagedObjectContext(coordinator: {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try! MigrationModels.v1())
            try! coordinator.addPersistentStore(type: store.type, at: url, options: [StoreOption.readOnly: .bool(true)])
            return coordinator
        }())
        let studentURIs = try before.fetch(sortedRequest("Student")).map(\.objectID.uriRepresentation)
        let employeeKeys = try before.fetch(sortedRequest("Employee")).map { $0.objectID.primaryKey }

        let context = try open(url, store, model: MigrationModels.v2())
        let students = try context.fetch(sortedRequest("Student"))
        #expect(try students.map { try $0.string("name") } == (1...5).map { "Alice\($0)" })
        #expect(try students.map { try $0.value(forKey: "height") as? Double } == Array(repeating: 180, count: 5))
        #expect(try students.map { try $0.value(forKey: "age") as? Int16 } == [nil, 7, nil, 9, nil])
        #expect(students.map(\.objectID.uriRepresentation) == studentURIs, "URIs of an entity that kept its name stay valid")
        let employees = try context.fetch(sortedRequest("Employee2"))
        #expect(try employees.map { try $0.string("name") } == ["Ada", "Bob", "Cy"])
        #expect(try employees.map { try $0.value(forKey: "age") as? Int32 } == [30, 40, 50])
        #expect(employees.map { $0.objectID.primaryKey } == employeeKeys)
        #expect(try employees.map { try ($0.value(forKey: "whereIWork") as? ManagedObject)?.string("name") } == ["Acme", "Acme", "Initech"])
        let acme = try #require(context.fetch(sortedRequest("Employer")).first)
        #expect(try acme.sortedNames("employees") == ["Ada", "Bob"])
        #expect(try context.count("Employer") == 2)

        // The migrated store is a V2 store: it saves, and opens again without a migration.
        try context.insert("Employee2", ["name": "Dee", "age": Int32(100_000), "whereIWork": acme])
        try context.save()
        let again = PersistentStoreCoordinator(managedObjectModel: try MigrationModels.v2())
        try again.addPersistentStore(type: store.type, at: url)
        #expect(try ManagedObjectContext(coordinator: again).strings(sortedRequest("Employee2")) == ["Ada", "Bob", "Cy", "Dee"])
    }

    @Test("V1 → V2 → V3 through the chain of versions", arguments: StoreUnderTest.fileBacked)
    func progressive(store: StoreUnderTest) throws {
        let url = try v1Store(store)
        let context = try open(url, store, model: MigrationModels.v3(), planner: MigrationPlanner(versions: MigrationModels.chain()))
        #expect(try context.strings(sortedRequest("Employee2", by: "fullName"), key: "fullName") == ["Ada", "Bob", "Cy"])
        #expect(try context.fetch(sortedRequest("Employee2", by: "fullName")).map { try $0.value(forKey: "age") as? Int64 } == [30, 40, 50])
        #expect(try context.fetch(sortedRequest("Student")).map { try $0.string("nickname") } == Array(repeating: "none", count: 5))
        #expect(try context.fetch(sortedRequest("Student")).map { try $0.value(forKey: "height") as? Double } == Array(repeating: 180, count: 5))
        #expect(try context.count("Teacher") == 0)
        try context.insert("Teacher", ["name": "Tess"])
        try context.save()
        #expect(try context.freshContext().strings(sortedRequest("Teacher")) == ["Tess"])
    }

    @Test("a store of V2 is found among the versions and brought to V3", arguments: StoreUnderTest.fileBacked)
    func fromTheMiddleOfTheChain(store: StoreUnderTest) throws {
        let url = try v1Store(store)
        _ = try open(url, store, model: MigrationModels.v2())
        let context = try open(url, store, model: MigrationModels.v3(), planner: MigrationPlanner(versions: MigrationModels.chain()))
        #expect(try context.strings(sortedRequest("Employee2", by: "fullName"), key: "fullName") == ["Ada", "Bob", "Cy"])
    }

    @Test("a to-one made to-many keeps each destination", arguments: StoreUnderTest.fileBacked)
    func toOneToMany(store: StoreUnderTest) throws {
        let url = try v1Store(store)
        let context = try open(url, store, model: MigrationModels.manyToMany())
        let ada = try #require(context.fetch(sortedRequest("Employee")).first)
        #expect(try ada.sortedNames("employers") == ["Acme"])
        let acme = try #require(context.fetch(sortedRequest("Employer")).first)
        #expect(try acme.sortedNames("employees") == ["Ada", "Bob"])
        let initech = try #require(context.fetch(sortedRequest("Employer")).last)
        try ada.add(initech, to: "employers")
        try context.save()
        let fresh = context.freshContext()
        #expect(try fresh.fetch(sortedRequest("Employer")).last?.sortedNames("employees") == ["Ada", "Cy"])
    }

    @Test("a new parent entity above an existing one keeps its objects and keys", arguments: StoreUnderTest.fileBacked)
    func newParent(store: StoreUnderTest) throws {
        let url = try v1Store(store)
        let context = try open(url, store, model: MigrationModels.withParent())
        #expect(try context.strings(sortedRequest("Person")) == (1...5).map { "Alice\($0)" })
        #expect(try context.fetch(sortedRequest("Student")).map { try $0.value(forKey: "age") as? Int16 } == [nil, 7, nil, 9, nil])
        try context.insert("Student", ["name": "Zed", "age": Int16(3)])
        try context.save()
        #expect(try context.freshContext().count("Person") == 6)
    }

    @Test("with migration off the store is refused, naming the first change and the matching version",
          arguments: StoreUnderTest.fileBacked)
    func refusedWhenOff(store: StoreUnderTest) throws {
        let url = try v1Store(store)
        let original = bytes(url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try MigrationModels.v2())
        coordinator.migrationPlanner = MigrationPlanner(versions: try MigrationModels.chain())
        do {
            try coordinator.addPersistentStore(type: store.type, at: url, options: [StoreOption.shouldMigrateStoreAutomatically: .bool(false)])
            Issue.record("an incompatible store was added")
        } catch let MigrationError.incompatibleStore(incompatibility) {
            #expect(incompatibility.file == url.path)
            #expect(incompatibility.matchingVersions == ["V1"])
            #expect(incompatibility.firstChange == MigrationChange(entity: "Employee2", kind: .renamedEntity(from: "Employee")))
            #expect(incompatibility.entities == ["Employee", "Employee2", "Employer", "Student"])
            #expect("\(incompatibility)".contains("V1"))
        }
        #expect(bytes(url) == original)
    }

    @Test("a change that cannot be inferred is named, and the store is left as it was", arguments: StoreUnderTest.fileBacked)
    func cannotInfer(store: StoreUnderTest) throws {
        let url = try v1Store(store)
        let original = bytes(url)
        #expect(throws: MigrationError.cannotInfer(MigrationChange(entity: "Student", kind: .changedType("age", from: .integer16, to: .string)),
                                                   reason: "only the numeric widenings are inferred")) {
            try open(url, store, model: MigrationModels.ageAsString())
        }
        #expect(bytes(url) == original)
        #expect(try open(url, store, model: MigrationModels.v1()).count("Student") == 5)
    }

    @Test("a migration that fails half-way leaves the store byte for byte as it was", arguments: StoreUnderTest.fileBacked)
    func failedHalfWay(store: StoreUnderTest) throws {
        struct Refused: Error {}
        let url = try v1Store(store)
        let original = bytes(url)
        let chain = try MigrationModels.chain()
        let manager = StagedMigrationManager([
            .lightweight([chain[0], chain[1]]),
            .custom(CustomMigrationStage(from: chain[1], to: chain[2], didMigrate: { _ in throw Refused() })),
        ])
        #expect(throws: MigrationError.self) {
            try open(url, store, model: MigrationModels.v3(), planner: MigrationPlanner(stagedMigration: manager))
        }
        #expect(bytes(url) == original)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(leftovers.filter { $0.hasSuffix(".strata-tmp") }.isEmpty)
        #expect(try open(url, store, model: MigrationModels.v1()).count("Employee") == 3)
    }

    @Test("a custom stage's handlers run before and after its step", arguments: StoreUnderTest.fileBacked)
    func stagedHandlers(store: StoreUnderTest) throws {
        let url = try v1Store(store)
        let chain = try MigrationModels.chain()
        let manager = StagedMigrationManager([
            .custom(CustomMigrationStage(from: chain[0], to: chain[1], willMigrate: { coordinator in
                let context = ManagedObjectContext(coordinator: coordinator)
                for student in try context.fetch(FetchRequest(entityName: "Student")) where try student.value(forKey: "age") == nil {
                    try student.setValue(Int16(1), forKey: "age")
                }
                try context.save()
            }, didMigrate: { coordinator in
                let context = ManagedObjectContext(coordinator: coordinator)
                for student in try context.fetch(FetchRequest(entityName: "Student")) {
                    let age = try student.value(forKey: "age") as? Int16 ?? 0
                    try student.setValue(Double(100 + age), forKey: "height")
                }
                try context.save()
            })),
            .lightweight([chain[1], chain[2]]),
        ])
        let context = try open(url, store, model: MigrationModels.v3(), planner: MigrationPlanner(stagedMigration: manager))
        let students = try context.fetch(sortedRequest("Student"))
        #expect(try students.map { try $0.value(forKey: "age") as? Int16 } == [1, 7, 1, 9, 1])
        #expect(try students.map { try $0.value(forKey: "height") as? Double } == [101, 107, 101, 109, 101])
    }

    @Test("a container's store descriptions migrate by default", arguments: StoreUnderTest.fileBacked)
    @MainActor
    func containerMigrates(store: StoreUnderTest) throws {
        let url = try v1Store(store)
        let container = PersistentContainer(name: "School", managedObjectModel: try MigrationModels.v2())
        container.storeDescriptions = [ContainerStoreDescription(type: store.type, url: url, options: [:])]
        #expect(container.storeDescriptions[0].shouldMigrateStoreAutomatically)
        try container.loadPersistentStores()
        #expect(try container.viewContext.count("Employee2") == 3)

        let other = try v1Store(store)
        let refusing = PersistentContainer(name: "School", managedObjectModel: try MigrationModels.v2())
        var description = ContainerStoreDescription(type: store.type, url: other)
        description.shouldMigrateStoreAutomatically = false
        refusing.storeDescriptions = [description]
        #expect(throws: MigrationError.self) { try refusing.loadPersistentStores() }
    }

    @Test("the coordinator moves, replaces and destroys stores across types", arguments: StoreUnderTest.fileBacked)
    func coordinatorFileOperations(store: StoreUnderTest) throws {
        let url = try v1Store(store)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try MigrationModels.v1())
        let loaded = try coordinator.addPersistentStore(type: store.type, at: url)
        let uris = try ManagedObjectContext(coordinator: coordinator).fetch(sortedRequest("Employee")).map(\.objectID.uriRepresentation)
        for target in StoreUnderTest.fileBacked {
            let destination = try target.storeURL()
            let moved = try coordinator.migratePersistentStore(coordinator.persistentStores[0], to: destination, type: target.type)
            #expect(moved.identifier == loaded.identifier)
            #expect(coordinator.persistentStores.count == 1 && coordinator.persistentStores[0] === moved)
            let context = ManagedObjectContext(coordinator: coordinator)
            #expect(try context.fetch(sortedRequest("Employee")).map(\.objectID.uriRepresentation) == uris)
        }
        let copy = try store.storeURL()
        try MigrationModels.writeV1Store(type: store.type, at: copy, students: 2)
        let reader = PersistentStoreCoordinator(managedObjectModel: try MigrationModels.v1())
        try reader.replacePersistentStore(at: copy, withPersistentStoreFrom: url, type: store.type)
        try reader.addPersistentStore(type: store.type, at: copy)
        #expect(try ManagedObjectContext(coordinator: reader).count("Student") == 5)
        try reader.destroyPersistentStore(at: copy, type: store.type)
        #expect(reader.persistentStores.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: copy.path))
    }

    /// A mapping step written in code, standing for a mapping model: V1 → V2 as inferred, but
    /// only the students that have an age (a filter as `$source.age != nil`).
    struct StudentsWithAge: MigrationMappingProvider {
        func mappedStep(from source: ModelVersion, to destination: ModelVersion) throws -> MappedMigrationStep? {
            guard source.name == "V1", destination.name == "V2" else { return nil }
            return MappedMigrationStep(name: "StudentsWithAge", summary: ["Student: only those with an age"]) { request in
                let image = try request.sourceType.makeStore(StoreDescription(
                    type: request.sourceType, url: request.sourceURL, model: request.sourceModel,
                    options: [StoreOption.readOnly: .bool(true)])).contentsImage()
                var migrated = try InferredMapping(source: request.sourceModel, destination: request.destinationModel).migrate(image)
                migrated.objects = migrated.objects.filter { $0.key.entityName != "Student" || $0.value.attributes["age"] != nil }
                request.progress(0.5)
                try request.destinationType.makeStore(StoreDescription(
                    type: request.destinationType, url: request.destinationURL, model: request.destinationModel)).replaceContents(with: migrated)
            }
        }
    }

    @Test("a step with a mapping runs it, the other steps are inferred", arguments: StoreUnderTest.fileBacked)
    func mappedStep(store: StoreUnderTest) throws {
        let url = try v1Store(store)
        let planner = MigrationPlanner(versions: try MigrationModels.chain(), mappingProviders: [StudentsWithAge()])
        let plan = try planner.plan(storeMetadata: try store.type.readMetadata(at: url), storedModel: nil,
                                    to: try MigrationModels.v3(), file: url.path)
        #expect(plan.steps.map(\.title) == ["V1 → V2: mapped (StudentsWithAge)", "V2 → V3: inferred"])
        let fractions = Locked<[Double]>([])
        try StoreMigrator(storeAt: url, type: store.type).migrate(plan) { progress in fractions.withLock { $0.append(progress.fractionCompleted) } }
        #expect(fractions.withLock { $0 }.contains(0.25))
        #expect(fractions.withLock { $0.last } == 1)
        let context = try open(url, store, model: MigrationModels.v3())
        #expect(try context.strings(sortedRequest("Student")) == ["Alice2", "Alice4"])
        #expect(try context.strings(sortedRequest("Employee2", by: "fullName"), key: "fullName") == ["Ada", "Bob", "Cy"])
    }
}
