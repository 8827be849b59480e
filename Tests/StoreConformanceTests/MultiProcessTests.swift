import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// Several processes writing one SQLite store at once lose nothing: not new objects, and not
/// changes to the same objects, which optimistic locking on `Z_OPT` turns into merge conflicts
/// instead of lost updates. (The atomic file stores write their whole file per save and are for
/// one writing process; see docs/formats/.)
@Suite("Several processes on one store")
struct MultiProcessTests {
    /// Runs `StoreSaveLoop` on the SQLite store at `url` with `arguments` in `count` processes at
    /// once, waits for all of them, and returns what each printed (a writer that failed is
    /// recorded as a failed expectation).
    private func runSaveLoops(_ count: Int, on url: URL, arguments: [String]) throws -> [String] {
        let executable = try #require(CrashSafetyTests.saveLoopExecutable(), "StoreSaveLoop is not built next to the test binary")
        let writers = try (0..<count).map { _ in
            let process = Process()
            process.executableURL = executable
            process.arguments = ["SQLite", url.path] + arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            return (process, output, errors)
        }
        return writers.map { process, output, errors in
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "a writer failed: \(message)")
            return printed
        }
    }

    /// A context on the SQLite store at `url`, created (schema and all) when there is none yet.
    private func open(_ url: URL) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try CrashSafetyTests.model())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test("three processes each saving 40 objects one save at a time: all 120 land, with distinct keys")
    func concurrentWriters() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("shared.sqlite")
        // Create the store first, so the writers race on rows, not on creating the schema.
        _ = try open(url)
        _ = try runSaveLoops(3, on: url, arguments: ["--items", "40"])
        let context = try open(url)
        let items = try context.fetch(FetchRequest(entityName: "Item"))
        #expect(items.count == 120)
        #expect(Set(items.compactMap(\.objectID.primaryKey)) == Set(1...120))
        let indexes = try items.map { try $0.value(forKey: "index") as? Int64 ?? 0 }
        for index in Int64(1)...40 {
            #expect(indexes.filter { $0 == index }.count == 3, "item \(index) once per writer")
        }
    }

    @Test("three processes each adding 1 to the same four counters 200 times: every increment lands once, conflicts retried")
    func contestedCounters() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("counters.sqlite")
        let setup = try open(url)
        for _ in 0..<4 { try setup.insertNewObject(forEntityName: "Counter").setValue(Int64(0), forKey: "value") }
        try setup.save()

        // Each process saves counter k mod 4 at its k-th landed save, under the default merge
        // policy: a save over another process's newer version fails, is reset and made again.
        let reports = try runSaveLoops(3, on: url, arguments: ["--increments", "200"])
        var conflicts = 0
        for report in reports {
            let words = report.split(whereSeparator: \.isWhitespace)
            #expect(words.count == 4 && words[0] == "incremented" && words[1] == "200" && words[2] == "conflicts",
                    "a writer reported \(report)")
            conflicts += words.count == 4 ? Int(words[3]) ?? 0 : 0
        }

        let context = try open(url)
        let counters = try context.fetch(FetchRequest(entityName: "Counter"))
        let values = try counters.map { try $0.value(forKey: "value") as? Int64 ?? -1 }
        #expect(values.reduce(0, +) == 600, "nothing lost, nothing counted twice (\(conflicts) conflicts retried)")
        #expect(values == [150, 150, 150, 150], "50 increments of each counter by each process")
        // Z_OPT was 1 at the insert and rose once per landed save of the counter.
        #expect(try SQLiteShell.rows(url, "SELECT Z_OPT FROM ZCOUNTER ORDER BY Z_PK") == ["151", "151", "151", "151"])
    }
}
