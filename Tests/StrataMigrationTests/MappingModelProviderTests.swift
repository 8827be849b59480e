import Foundation
import Strata
import StrataMigration
import StrataTestSupport
import Testing

/// Mapping models in a progressive migration: found for a step by the version hashes of its two
/// models, run by a ``MigrationManager``; the other steps inferred.
@Suite("Mapping models in the chain of versions")
struct MappingModelProviderTests {
    static let v1 = MappingMigrationTests.students
    static let v2 = MappingMigrationTests.studentsAndTeachers
    /// V2 with `Student.school`, an optional attribute: an inferred step.
    static let v3 = try! ManagedObjectModel {
        EntityDescription("Student") {
            Attribute("id", .integer64, optional: false)
            Attribute("name", .string, optional: false)
            Attribute("age", .integer16, optional: false)
            Attribute("height", .double, optional: false)
            Attribute("school", .string)
        }
        EntityDescription("Teacher") {
            Attribute("id", .integer64, optional: false)
            Attribute("name", .string, optional: false)
            Attribute("age", .integer16, optional: false)
            Attribute("height", .double, optional: false)
        }
    }

    static var chain: [ModelVersion] {
        [ModelVersion(name: "V1", model: v1), ModelVersion(name: "V2", model: v2), ModelVersion(name: "V3", model: v3)]
    }

    @Test("A mapping model made in code is found by its version hashes once resolved, and only for its step")
    func matchingByHashes() throws {
        let raw = MappingMigrationTests.studentMapping(policy: "School.StudentToTeacherPolicy")
        #expect(!raw.hasVersionHashes)
        #expect(!raw.matches(source: Self.v1, destination: Self.v2), "without hashes or outlines a mapping names no versions")
        let resolved = try raw.resolved(source: Self.v1, destination: Self.v2)
        #expect(resolved.hasVersionHashes)
        #expect(resolved.matches(source: Self.v1, destination: Self.v2))
        #expect(!resolved.matches(source: Self.v2, destination: Self.v3))
        #expect(!resolved.matches(source: Self.v1, destination: Self.v3))
        let provider = MappingModelProvider([resolved])
        #expect(try provider.mappingModel(from: Self.v1, to: Self.v2) == resolved)
        #expect(try provider.mappingModel(from: Self.v2, to: Self.v3) == nil)
    }

    @Test("V1 → V2 by the mapping model and its policy, V2 → V3 inferred, when the store is added",
          arguments: StoreUnderTest.fileBacked)
    func progressive(store: StoreUnderTest) throws {
        EntityMigrationPolicy.register(StudentToTeacherPolicy.self, forName: "School.StudentToTeacherPolicy")
        let url = try store.storeURL()
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.v1)
            let written = try coordinator.addPersistentStore(type: store.type, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            try MappingMigrationTests.fillStudents(context)
            try context.save()
            try coordinator.remove(written)
        }
        let mapping = try MappingMigrationTests.studentMapping(policy: "School.StudentToTeacherPolicy").resolved(source: Self.v1, destination: Self.v2)
        let planner = MigrationPlanner(versions: Self.chain, mappingProviders: [MappingModelProvider([mapping], batchSize: 6)])
        let plan = try planner.plan(storeMetadata: try store.type.readMetadata(at: url), storedModel: nil, to: Self.v3, file: url.path)
        #expect(plan.steps.map(\.title) == ["V1 → V2: mapped (StudentToStudent)", "V2 → V3: inferred"])
        #expect(plan.steps[0].summary == ["StudentToStudent: Student → Student, custom, policy School.StudentToTeacherPolicy"])

        let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.v3)
        coordinator.migrationPlanner = planner
        try coordinator.addPersistentStore(type: store.type, at: url, options: [StoreOption.shouldMigrateStoreAutomatically: .bool(true)])
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.all("Student", sortedBy: "id").map { try $0.value(forKey: "age") as? Int16 } == (6...18).map(Int16.init))
        #expect(try context.all("Teacher", sortedBy: "id").map { try $0.value(forKey: "name") as? String } == (14...20).map { "Alice\($0)" })
        #expect(try context.all("Student", sortedBy: "id").allSatisfy { try $0.value(forKey: "school") == nil })
    }

    @Test("With inferring off, a step without a mapping model has no path; a folder that is not there is named")
    func noPath() throws {
        let mapping = try MappingMigrationTests.studentMapping(policy: nil).resolved(source: Self.v1, destination: Self.v2)
        var planner = MigrationPlanner(versions: Self.chain, mappingProviders: [MappingModelProvider([mapping])])
        planner.infersMappings = false
        let metadata: [String: PropertyListValue] = [
            StoreMetadataKey.modelVersionHashes: .dictionary(Self.v1.entityVersionHashesByName.mapValues { .data($0) }),
        ]
        #expect {
            try planner.plan(storeMetadata: metadata, storedModel: nil, to: Self.v3, file: "school")
        } throws: { error in
            guard case .noMigrationPath(_, let reason)? = error as? MigrationError else { return false }
            return reason.contains("V2 → V3")
        }
        #expect(throws: MappingModelError.unreadable(file: "/no/such/Migrations", reason: "no such file or folder")) {
            try MappingModelProvider(contentsOf: [URL(fileURLWithPath: "/no/such/Migrations")])
        }
    }

    @Test("An .xcmappingmodel whose model copies cannot be read fits the step whose versions it records by name")
    func byRecordedNames() throws {
        let folder = MoodyMigrationTests.folder
        var mapping = try MappingModel.load(at: MappingFixtures.url(folder + "Moody 2-Moody 3.xcmappingmodel"))
        mapping.sourceModelOutline = nil
        mapping.destinationModelOutline = nil
        let moody2 = ModelVersion(name: "Moody 2", model: try MoodyMigrationTests.model(2))
        let moody3 = ModelVersion(name: "Moody 3", model: try MoodyMigrationTests.model(3))
        let moody4 = ModelVersion(name: "Moody 4", model: try MoodyMigrationTests.model(4))
        let provider = MappingModelProvider([mapping])
        #expect(!mapping.matches(source: moody2.model, destination: moody3.model))
        #expect(try provider.mappedStep(from: moody2, to: moody3)?.name == "Moody 2-Moody 3")
        #expect(try provider.mappedStep(from: moody3, to: moody4) == nil)
    }

    @Test("Store options that name a mapping model or a bundle not there fail with an error naming it; the store is as it was",
          arguments: StoreUnderTest.fileBacked)
    func badOptions(store: StoreUnderTest) throws {
        let url = try store.storeURL()
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.v1)
            let written = try coordinator.addPersistentStore(type: store.type, at: url)
            try coordinator.remove(written)
        }
        let before = storeFileBytes(url)
        var description = ContainerStoreDescription(type: store.type, url: url)
        description.mappingModelURLs = [URL(fileURLWithPath: "/no/such/Migrations")]
        #expect(throws: MappingModelError.unreadable(file: "/no/such/Migrations", reason: "no such file or folder")) {
            try PersistentStoreCoordinator(managedObjectModel: Self.v3).addPersistentStore(type: store.type, at: url, options: description.options)
        }
        description.mappingModelURLs = []
        description.modelBundleURL = URL(fileURLWithPath: "/no/such/School.xcdatamodeld")
        #expect {
            try PersistentStoreCoordinator(managedObjectModel: Self.v3).addPersistentStore(type: store.type, at: url, options: description.options)
        } throws: { error in
            "\(error)".contains("/no/such/School.xcdatamodeld")
        }
        #expect(storeFileBytes(url) == before)
    }
}
