import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `strata migrate`: the plan of a dry run, a migration in place and to another file, data loss
/// refused, and a migration killed at random moments leaving the old store or the new one.
@Suite("strata migrate")
struct MigrateCommandTests {
    /// The bundle of V1, V2 and V3 (current), written into `scratch`.
    static func bundle(in scratch: Scratch) throws -> String {
        let chain = try MigrationModels.chain()
        let bundle = try ModelBundle(versions: Dictionary(uniqueKeysWithValues: chain.map { ($0.name, $0.model) }), currentVersionName: "V3")
        let url = scratch.work.appendingPathComponent("School.xcdatamodeld", isDirectory: true)
        try bundle.write(to: url)
        return url.path
    }

    /// A V1 store of `type` in `scratch`.
    static func v1Store(_ type: String, in scratch: Scratch, students: Int = 5) throws -> String {
        let path = scratch.path("school.\(type)")
        try MigrationModels.writeV1Store(type: try #require(StoreType.named(type)), at: URL(fileURLWithPath: path), students: students)
        return path
    }

    @Test("--dry-run prints each step and what it changes, and writes nothing", arguments: CLI.writableTypes)
    func dryRun(type: String) throws {
        let scratch = try Scratch()
        let model = try Self.bundle(in: scratch)
        let store = try Self.v1Store(type, in: scratch)
        let before = try scratch.read(store)
        let result = try scratch.succeed("migrate", store, "--model", model, "--dry-run")
        #expect(result.stdout.contains("version V1; migrating to V3"))
        #expect(result.stdout.contains("1. V1 → V2: inferred"))
        #expect(result.stdout.contains("entity 'Employee' renamed to 'Employee2'"))
        #expect(result.stdout.contains("Student: property 'height' added"))
        #expect(result.stdout.contains("2. V2 → V3: inferred"))
        #expect(result.stdout.contains("Employee2: property 'name' renamed to 'fullName'"))
        #expect(try scratch.read(store) == before)
    }

    @Test("a store migrates in place, or into --output leaving the store as it is", arguments: CLI.writableTypes)
    func migrates(type: String) throws {
        let scratch = try Scratch()
        let model = try Self.bundle(in: scratch)
        let store = try Self.v1Store(type, in: scratch)
        let before = try scratch.read(store)
        let copy = scratch.path("copy.\(type)")
        try scratch.succeed("migrate", store, "--model", model, "--to-version", "V2", "--output", copy)
        #expect(try scratch.read(store) == before)
        try expectVersion(copy, type: type, model: MigrationModels.v2(), employeeKey: "name")
        let result = try scratch.succeed("migrate", store, "--model", model)
        #expect(result.stdout.contains("migrated from V1 to V3 in 2 step(s)"))
        try expectVersion(store, type: type, model: MigrationModels.v3(), employeeKey: "fullName")
        #expect(try scratch.succeed("migrate", store, "--model", model).stdout.contains("nothing to migrate"))
        #expect(try scratch.listing().filter { $0.contains("strata-tmp") }.isEmpty)
    }

    @Test("a migration that drops data is refused without --allow-loss")
    func refusesLoss() throws {
        let scratch = try Scratch()
        let store = try Self.v1Store("sqlite", in: scratch)
        let reduced = try ModelBundle(versions: ["V1": try MigrationModels.v1(), "V2": try ManagedObjectModel {
            EntityDescription("Student") { Attribute("name", .string) }
        }], currentVersionName: "V2")
        let model = scratch.work.appendingPathComponent("Reduced.xcdatamodeld", isDirectory: true)
        try reduced.write(to: model)
        let before = try scratch.read(store)
        let refused = try scratch.run("migrate", store, "--model", model.path)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("entity 'Employee' removed"))
        #expect(refused.stderr.contains("Student: property 'age' removed"))
        #expect(try scratch.read(store) == before)
        let allowed = try scratch.run("migrate", store, "--model", model.path, "--allow-loss")
        #expect(allowed.status == 0)
        #expect(allowed.stderr.contains("warning: \(store): entity 'Employee' removed"))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try #require(reduced.versions["V2"]))
        try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: store))
        #expect(try ManagedObjectContext(coordinator: coordinator).count(for: FetchRequest(entityName: "Student")) == 5)
    }

    /// The objc.io Moody fixture: its model bundle and its four mapping models.
    static let moody = CLI.repositoryRoot.appendingPathComponent("Tests/StrataMigrationTests/Fixtures/objcio__core-data/Migrations/Migrations")

    /// A Moody 1 store of `type` in `scratch`: one continent (150), one country (276), two moods.
    static func moody1Store(_ type: String, in scratch: Scratch) throws -> String {
        let bundle = try ModelBundle(at: moody.appendingPathComponent("Moody.xcdatamodeld"))
        let path = scratch.path("moody.\(type)")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try #require(bundle.versions["Moody"]))
        let store = try coordinator.addPersistentStore(type: try #require(StoreType.named(type)), at: URL(fileURLWithPath: path))
        let context = ManagedObjectContext(coordinator: coordinator)
        let now = Date(timeIntervalSinceReferenceDate: 700_000_000)
        let continent = try context.insertNewObject(forEntityName: "Continent")
        try continent.setValue(Int16(150), forKey: "numericISO3166Code")
        try continent.setValue(now, forKey: "updatedAt")
        let country = try context.insertNewObject(forEntityName: "Country")
        try country.setValue(Int16(276), forKey: "numericISO3166Code")
        try country.setValue(now, forKey: "updatedAt")
        try country.setValue(continent, forKey: "continent")
        for index in 0..<2 {
            let mood = try context.insertNewObject(forEntityName: "Mood")
            try mood.setValue(now.addingTimeInterval(Double(index)), forKey: "date")
            try mood.setValue("mood-\(index)", forKey: "remoteIdentifier")
            try mood.setValue(country, forKey: "country")
        }
        try context.save()
        try coordinator.remove(store)
        return path
    }

    @Test("--mapping: --dry-run shows each step mapped (with its mapping model) or inferred", arguments: CLI.writableTypes)
    func dryRunWithMapping(type: String) throws {
        let scratch = try Scratch()
        let store = try Self.moody1Store(type, in: scratch)
        let before = try scratch.read(store)
        let result = try scratch.succeed("migrate", store, "--model", Self.moody.appendingPathComponent("Moody.xcdatamodeld").path,
                                         "--to-version", "Moody 3",
                                         "--mapping", Self.moody.appendingPathComponent("Moody 2-Moody 3.xcmappingmodel").path,
                                         "--mapping", Self.moody.appendingPathComponent("Moody 5-Moody 6.xcmappingmodel").path,
                                         "--dry-run")
        #expect(result.stdout.contains("1. Moody → Moody 2: inferred"))
        #expect(result.stdout.contains("Mood: property 'remoteIdentifier' renamed to 'remoteID'"))
        #expect(result.stdout.contains("2. Moody 2 → Moody 3: mapped (Moody 2-Moody 3)"))
        #expect(result.stdout.contains("   - MoodToMood: Mood → Mood"))
        #expect(!result.stdout.contains("Moody 5-Moody 6"))
        #expect(try scratch.read(store) == before)
        let missing = try scratch.run("migrate", store, "--model", Self.moody.appendingPathComponent("Moody.xcdatamodeld").path,
                                      "--mapping", scratch.path("nowhere.xcmappingmodel"), "--dry-run")
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("nowhere.xcmappingmodel"))
    }

    @Test("--mapping: a folder of mapping models runs those that fit; a policy not linked in fails, the store as it was",
          arguments: CLI.writableTypes)
    func migratesWithMapping(type: String) throws {
        let scratch = try Scratch()
        let store = try Self.moody1Store(type, in: scratch)
        let bundlePath = Self.moody.appendingPathComponent("Moody.xcdatamodeld").path
        let before = try scratch.read(store)
        let refused = try scratch.run("migrate", store, "--model", bundlePath, "--mapping", Self.moody.path)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("Country5ToCountry6Policy"))
        #expect(try scratch.read(store) == before)

        let result = try scratch.succeed("migrate", store, "--model", bundlePath, "--to-version", "Moody 5", "--mapping", Self.moody.path)
        #expect(result.stdout.contains("migrated from Moody to Moody 5 in 4 step(s)"))
        let bundle = try ModelBundle(at: URL(fileURLWithPath: bundlePath))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try #require(bundle.versions["Moody 5"]))
        try coordinator.addPersistentStore(type: try #require(StoreType.named(type)), at: URL(fileURLWithPath: store))
        let context = ManagedObjectContext(coordinator: coordinator)
        let moods = try context.fetch(FetchRequest(entityName: "Mood", sortDescriptors: [ObjectSortDescriptor(key: "date")]))
        #expect(try moods.map { try $0.value(forKey: "remoteID") as? String } == ["mood-0", "mood-1"])
        #expect(try moods.map { try $0.value(forKeyPath: "country.numericISO3166Code") as? Int16 } == [276, 276])
        #expect(try moods.map { try $0.value(forKeyPath: "country.isoContinent") as? Int16 } == [150, 150])
        #expect(try scratch.listing().filter { $0.contains("strata-tmp") }.isEmpty)
    }

    /// Checks the store at `path` is of `model`'s version and holds the V1 store's data.
    func expectVersion(_ path: String, type: String, model: ManagedObjectModel, employeeKey: String,
                       students: Int = 5, label: String = "") throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: try #require(StoreType.named(type)), at: URL(fileURLWithPath: path))
        let context = ManagedObjectContext(coordinator: coordinator)
        let employees = try context.fetch(FetchRequest(entityName: "Employee2", sortDescriptors: [ObjectSortDescriptor(key: employeeKey)]))
        #expect(try employees.map { try $0.value(forKey: employeeKey) as? String } == ["Ada", "Bob", "Cy"], "\(label)")
        #expect(try context.count(for: FetchRequest(entityName: "Student")) == students, "\(label)")
        let heights = try context.fetch(FetchRequest(entityName: "Student")).map { try $0.value(forKey: "height") as? Double }
        #expect(heights.allSatisfy { $0 == 180 }, "\(label)")
    }

    /// Kills per store type and plan; `STRATA_KILL_RUNS` scales it.
    static let runs = max(8, KillRuns.count(default: 40) / 5)

    @Test("a killed migration leaves the old store usable or the new one complete, never a mix",
          arguments: CLI.writableTypes, ["V2", "V3"])
    func killed(type: String, version: String) throws {
        let scratch = try Scratch()
        let model = try Self.bundle(in: scratch)
        let students = 20_000
        let original = try Self.v1Store(type, in: scratch, students: students)
        let target = version == "V2" ? try MigrationModels.v2() : try MigrationModels.v3()
        let employeeKey = version == "V2" ? "name" : "fullName"
        // How long a whole run takes.
        var duration = TimeInterval.infinity
        for attempt in 0..<2 {
            let timed = scratch.path("timed-\(attempt).\(type)")
            try FileManager.default.copyItem(atPath: original, toPath: timed)
            let started = Date()
            try scratch.succeed("migrate", timed, "--model", model, "--to-version", version)
            duration = min(duration, Date().timeIntervalSince(started))
            try expectVersion(timed, type: type, model: target, employeeKey: employeeKey, students: students)
        }
        var killed = 0
        var generator = SystemRandomNumberGenerator()
        for run in 0..<Self.runs {
            let folder = scratch.work.appendingPathComponent("run-\(run)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = folder.appendingPathComponent("school.\(type)").path
            try FileManager.default.copyItem(atPath: original, toPath: store)
            let before = try scratch.read(store)
            let delay = Double.random(in: 0...(duration * 0.9), using: &generator)
            let label = "\(type) to \(version) run \(run), killed after \(Int(delay * 1000)) ms of \(Int(duration * 1000))"
            let process = Process()
            process.executableURL = try CLI.executable()
            process.arguments = ["migrate", store, "--model", model, "--to-version", version]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killed += 1 }

            let storeType = try #require(StoreType.named(type))
            let hashes = StoreMetadataKey.versionHashes(in: try storeType.readMetadata(at: URL(fileURLWithPath: store)))
            if try MigrationModels.v1().isCompatible(withVersionHashes: hashes) {
                // The old store: byte for byte (an SQLite transaction cut short leaves only log
                // frames that were never committed), and it opens with V1.
                #expect(try scratch.read(store) == before, "\(label): the old store's file changed")
                let coordinator = PersistentStoreCoordinator(managedObjectModel: try MigrationModels.v1())
                try coordinator.addPersistentStore(type: storeType, at: URL(fileURLWithPath: store))
                #expect(try ManagedObjectContext(coordinator: coordinator).count(for: FetchRequest(entityName: "Student")) == students, "\(label)")
            } else {
                #expect(target.isCompatible(withVersionHashes: hashes), "\(label): the store is of neither version")
                try expectVersion(store, type: type, model: target, employeeKey: employeeKey, students: students, label: label)
            }
        }
        #expect(killed > 0, "no run was killed")
    }
}
