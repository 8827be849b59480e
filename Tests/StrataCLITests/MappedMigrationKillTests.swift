import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataMigration
import StrataTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `strata migrate --mapping` killed (SIGKILL) at random moments while a mapping model runs:
/// the store is the old one, byte for byte with the files beside it, or the new one complete.
@Suite("strata migrate --mapping, killed")
struct MappedMigrationKillTests {
    /// V1 → V2 of ``MigrationModels`` as a mapping model: `Employee` becomes `Employee2`
    /// (relationships carried both ways), students get their `height` from a constant.
    static func mapping() throws -> MappingModel {
        func instances(_ mapping: String, _ key: String) -> MappingExpression {
            MappingExpression.DestinationInstances(entityMappingName: mapping, sourceInstances: .keyPath(.variable("source"), key)).expression
        }
        return try MappingModel(entityMappings: [
            EntityMapping(name: "EmployerToEmployer", sourceEntityName: "Employer", destinationEntityName: "Employer",
                          attributeMappings: [PropertyMapping(name: "name")],
                          relationshipMappings: [PropertyMapping(name: "employees", valueExpression: instances("EmployeeToEmployee2", "employees"))]),
            EntityMapping(name: "EmployeeToEmployee2", sourceEntityName: "Employee", destinationEntityName: "Employee2",
                          attributeMappings: [PropertyMapping(name: "name"), PropertyMapping(name: "age")],
                          relationshipMappings: [PropertyMapping(name: "whereIWork", valueExpression: instances("EmployerToEmployer", "whereIWork"))]),
            EntityMapping(name: "StudentToStudent", sourceEntityName: "Student", destinationEntityName: "Student",
                          attributeMappings: [PropertyMapping(name: "name"), PropertyMapping(name: "age"),
                                              PropertyMapping(name: "height", valueExpression: .constant(.double(180)))]),
        ]).resolved(source: MigrationModels.v1(), destination: MigrationModels.v2())
    }

    /// The store's file and the files SQLite keeps beside it (its log and journal), by suffix.
    static func storeFiles(_ path: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal", "-journal"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { files[suffix] = data }
        }
        return files
    }

    /// Kills per store type: 50 in all by default; `STRATA_KILL_RUNS` scales it.
    static let runs = max(17, KillRuns.count(default: 50) / 3)

    @Test("a mapped step killed at any moment leaves the old store byte for byte or the new one complete",
          arguments: CLI.writableTypes)
    func killed(type: String) throws {
        let scratch = try Scratch()
        let model = try MigrateCommandTests.bundle(in: scratch)
        let cdm = scratch.path("V1-V2.cdm")
        try Self.mapping().compiledArchive().write(to: URL(fileURLWithPath: cdm))
        let students = 10_000
        let original = try MigrateCommandTests.v1Store(type, in: scratch, students: students)
        let arguments = ["--model", model, "--to-version", "V2", "--mapping", cdm]
        let target = try MigrationModels.v2()
        let storeType = try #require(StoreType.named(type))
        let plan = try scratch.succeed(["migrate", original, "--dry-run"] + arguments)
        #expect(plan.stdout.contains("1. V1 → V2: mapped (V1-V2)"))

        // How long a whole run takes.
        var duration = TimeInterval.infinity
        for attempt in 0..<2 {
            let timed = scratch.path("timed-\(attempt).\(type)")
            try FileManager.default.copyItem(atPath: original, toPath: timed)
            let started = Date()
            try scratch.succeed(["migrate", timed] + arguments)
            duration = min(duration, Date().timeIntervalSince(started))
            try MigrateCommandTests().expectVersion(timed, type: type, model: target, employeeKey: "name", students: students)
        }
        var killed = 0
        var old = 0
        var generator = SystemRandomNumberGenerator()
        for run in 0..<Self.runs {
            let folder = scratch.work.appendingPathComponent("run-\(run)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = folder.appendingPathComponent("school.\(type)").path
            for (suffix, data) in Self.storeFiles(original) { try data.write(to: URL(fileURLWithPath: store + suffix)) }
            let before = Self.storeFiles(store)
            let delay = Double.random(in: 0...(duration * 0.95), using: &generator)
            let label = "\(type) run \(run), killed after \(Int(delay * 1000)) ms of \(Int(duration * 1000))"
            let process = Process()
            process.executableURL = try CLI.executable()
            process.arguments = ["migrate", store] + arguments
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killed += 1 }

            let hashes = StoreMetadataKey.versionHashes(in: try storeType.readMetadata(at: URL(fileURLWithPath: store)))
            if try MigrationModels.v1().isCompatible(withVersionHashes: hashes) {
                old += 1
                // The old store: its file and the files beside it byte for byte; it opens with V1.
                #expect(Self.storeFiles(store) == before, "\(label): the old store's files changed")
                let coordinator = PersistentStoreCoordinator(managedObjectModel: try MigrationModels.v1())
                try coordinator.addPersistentStore(type: storeType, at: URL(fileURLWithPath: store), options: [StoreOption.readOnly: .bool(true)])
                #expect(try ManagedObjectContext(coordinator: coordinator).count(for: FetchRequest(entityName: "Student")) == students, "\(label)")
            } else {
                #expect(target.isCompatible(withVersionHashes: hashes), "\(label): the store is of neither version")
                try MigrateCommandTests().expectVersion(store, type: type, model: target, employeeKey: "name", students: students, label: label)
                let employees = try Self.employers(store, type: storeType, model: target)
                #expect(employees == ["Acme": ["Ada", "Bob"], "Initech": ["Cy"]], "\(label)")
            }
        }
        #expect(killed > 0, "no run was killed")
        #expect(old > 0, "no run was killed before the new store replaced the old one")
    }

    /// Each employer's employees' names, sorted.
    static func employers(_ path: String, type: StoreType, model: ManagedObjectModel) throws -> [String: [String]] {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: URL(fileURLWithPath: path), options: [StoreOption.readOnly: .bool(true)])
        let context = ManagedObjectContext(coordinator: coordinator)
        var result: [String: [String]] = [:]
        for employer in try context.fetch(FetchRequest(entityName: "Employer")) {
            let employees = try employer.value(forKey: "employees") as? Set<ManagedObject> ?? []
            result[try employer.value(forKey: "name") as? String ?? ""] = try employees.map { try $0.value(forKey: "name") as? String ?? "" }.sorted()
        }
        return result
    }
}
