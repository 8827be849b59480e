import BenchmarkSupport
import Foundation
import Strata
import StrataMigration

// MappingMigrationBenchmarks [count] [--batch N] [--destination sqlite|xml|binary] [--keep]
//   Builds an SQLite store of `count` people (default 1,000,000) in 200 countries, then
//   migrates it with a mapping model (a policy function, a built-in function, a key path
//   through the to-one, a constant, a filter, the relationship given its inverse) into a new
//   store of the destination type (default SQLite), in a child process of its own; prints
//   objects per second and peak memory.
// MappingMigrationBenchmarks --phase build|migrate --count N [--batch N] [--destination T] DIR
//   Runs one phase and prints one RESULT line (what the parent runs).

let usage = """
    usage: MappingMigrationBenchmarks [count] [--batch N] [--destination sqlite|xml|binary] [--keep]
           MappingMigrationBenchmarks --phase build|migrate --count N [--batch N] [--destination T] DIR
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("MappingMigrationBenchmarks: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var count = 1_000_000
var batchSize = 5_000
var phase: String?
var keep = false
var destinationType = StoreType.sqlite
var positional: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    func number() -> Int {
        guard let text = arguments.first, let value = Int(text), value > 0 else { fail("\(argument) needs a number\n\(usage)") }
        arguments.removeFirst()
        return value
    }
    switch argument {
    case "--phase":
        guard !arguments.isEmpty else { fail(usage) }
        phase = arguments.removeFirst()
    case "--count": count = number()
    case "--batch": batchSize = number()
    case "--keep": keep = true
    case "--destination":
        guard let text = arguments.first, let type = StoreType.named(text) else { fail("--destination needs sqlite, xml or binary\n\(usage)") }
        arguments.removeFirst()
        destinationType = type
    case "-h", "--help": print(usage); exit(0)
    default:
        if argument.hasPrefix("-") { fail("unknown option \(argument)\n\(usage)") }
        positional.append(argument)
    }
}

// MARK: Child: one phase

if let phase {
    guard positional.count == 1 else { fail("--phase needs one DIR\n\(usage)") }
    let folder = URL(fileURLWithPath: positional[0])
    let source = folder.appendingPathComponent("people-v1.sqlite")
    let destination = folder.appendingPathComponent("people-v2.\(destinationType.rawValue.lowercased())")
    do {
        let start = Date()
        switch phase {
        case "build":
            try Workload.build(count: count, at: source)
            print("RESULT seconds=\(Date().timeIntervalSince(start)) peakKiB=\(ProcessStatus.peakKiB()) objects=\(count)")
        case "migrate":
            EntityMigrationPolicy.register(Workload.PersonPolicy.self, forName: "PersonPolicy")
            let manager = MigrationManager(sourceModel: Workload.source, destinationModel: Workload.destination)
            manager.batchSize = batchSize
            let setupPeak = ProcessStatus.peakKiB()
            try manager.migrateStore(from: source, type: .sqlite, mapping: Workload.mapping, to: destination, type: destinationType)
            let seconds = Date().timeIntervalSince(start)
            // Checked after the measurement: every kept person arrived, with its country.
            let coordinator = PersistentStoreCoordinator(managedObjectModel: Workload.destination)
            try coordinator.addPersistentStore(type: destinationType, at: destination, options: [StoreOption.readOnly: .bool(true)])
            let context = ManagedObjectContext(coordinator: coordinator)
            let migrated = try context.count(for: FetchRequest(entityName: "Person"))
            let related = try context.count(for: FetchRequest(entityName: "Person", predicate: ObjectPredicate(format: "country != nil")))
            let kept = try context.count(for: FetchRequest(entityName: "Person", predicate: ObjectPredicate(format: "heightCM < 240")))
            guard migrated == related, migrated == kept, migrated > count * 9 / 10 else {
                fail("migrated \(migrated) people, \(related) with a country, \(kept) under 2.4 m")
            }
            let fileBytes = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? 0
            print("RESULT seconds=\(seconds) peakKiB=\(ProcessStatus.peakKiB()) setupPeakKiB=\(setupPeak) objects=\(count) migrated=\(migrated) fileBytes=\(fileBytes)")
        default:
            fail("unknown phase \(phase)\n\(usage)")
        }
        exit(0)
    } catch {
        fail("\(phase): \(error)")
    }
}

// MARK: Parent

if let first = positional.first {
    guard positional.count == 1, let value = Int(first), value >= 1_000 else { fail("count must be a number ≥ 1000\n\(usage)") }
    count = value
}
let folder: URL
do {
    folder = try ChildProcess.makeScratchFolder(prefix: "strata-mapping-migration")
} catch {
    fail("cannot create a folder for the files: \(error)")
}
defer { if !keep { try? FileManager.default.removeItem(at: folder) } }

@MainActor func run(_ phase: String) -> [String: String] {
    do {
        return try ChildProcess.resultFields(arguments: ["--phase", phase, "--count", String(count), "--batch", String(batchSize),
                                                         "--destination", destinationType.rawValue, folder.path])
    } catch {
        fail("phase \(phase) failed (\(error))")
    }
}

let built = run("build")
FileHandle.standardError.write(Data("built \(count) people in \(built["seconds"] ?? "?") s\n".utf8))
let result = run("migrate")
let seconds = Double(result["seconds"] ?? "") ?? .nan
let peak = Double(result["peakKiB"] ?? "") ?? .nan
print(String(format: "mapping-model migration, SQLite → %@, %d objects (+%d countries), batch %d",
             destinationType.rawValue, count, Workload.countryCount, batchSize))
print(String(format: "  %.1f s   %.0f source objects/s   %@ migrated   peak RSS %.1f MiB   destination %.1f MB",
             seconds, Double(count) / seconds, result["migrated"] ?? "?", peak / 1024,
             (Double(result["fileBytes"] ?? "") ?? 0) / 1e6))
if keep { print("files kept in \(folder.path)") }
