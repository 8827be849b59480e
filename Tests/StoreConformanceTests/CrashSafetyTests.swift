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

/// "A save either lands whole or not at all": a process saving in a loop is killed (SIGKILL) at
/// random moments; the file it leaves must hold exactly one saved state. An SQLite store is also
/// killed while a second connection checkpoints its write-ahead log without pause.
///
/// 50 kills per store type; `STRATA_KILL_RUNS=1000 swift test --filter CrashSafety` is the long
/// form (docs/testing.md).
@Suite("Crash safety")
struct CrashSafetyTests {
    /// Kills per store type (and for the checkpointing SQLite store): `STRATA_KILL_RUNS`, else 50.
    static let runsPerStoreType = KillRuns.count(default: 50)

    /// The model `StoreSaveLoop` writes.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Item") { Attribute("index", .integer64) }
            EntityDescription("Counter") { Attribute("value", .integer64) }
        }
    }

    /// Folders where the build puts executables next to the test binary.
    static var searchedFolders: [URL] { BuiltExecutables.searchedFolders }

    /// The built `StoreSaveLoop` executable.
    static func saveLoopExecutable() -> URL? {
        searchedFolders.map { $0.appendingPathComponent("StoreSaveLoop") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// When the kill comes.
    enum KillMoment: CustomStringConvertible {
        case immediately
        case afterLaunch(milliseconds: Int)
        case afterFirstSave(milliseconds: Int)

        var description: String {
            switch self {
            case .immediately: "right after launch"
            case .afterLaunch(let ms): "\(ms) ms after launch"
            case .afterFirstSave(let ms): "\(ms) ms after the first 'saved' line"
            }
        }
    }

    @Test("a store killed while saving holds exactly one saved state", arguments: StoreUnderTest.fileBacked)
    func killWhileSaving(store: StoreUnderTest) throws {
        let executable = try #require(Self.saveLoopExecutable(), """
            StoreSaveLoop is not built next to the test binary; looked in \
            \(Self.searchedFolders.map(\.path).joined(separator: ", "))
            """)
        var generator = SystemRandomNumberGenerator()
        for run in 0..<Self.runsPerStoreType {
            let moment: KillMoment = switch run % 5 {
            case 0: .immediately
            case 1, 3: .afterLaunch(milliseconds: Int.random(in: 20...300, using: &generator))
            default: .afterFirstSave(milliseconds: Int.random(in: 20...300, using: &generator))
            }
            _ = try killAndCheck(store: store, executable: executable, moment: moment, run: run)
        }
    }

    @Test("an SQLite store killed while its log is checkpointed holds exactly one saved state")
    func killWhileCheckpointing() throws {
        let executable = try #require(Self.saveLoopExecutable(), """
            StoreSaveLoop is not built next to the test binary; looked in \
            \(Self.searchedFolders.map(\.path).joined(separator: ", "))
            """)
        let store = try #require(StoreUnderTest.fileBacked.first { $0.type == .sqlite })
        var generator = SystemRandomNumberGenerator()
        var checkpointed = 0
        for run in 0..<Self.runsPerStoreType {
            // Mostly after the first save, when the checkpoints run beside the saves.
            let moment: KillMoment = run % 5 == 0
                ? .afterLaunch(milliseconds: Int.random(in: 20...300, using: &generator))
                : .afterFirstSave(milliseconds: Int.random(in: 0...300, using: &generator))
            let lines = try killAndCheck(store: store, executable: executable, moment: moment, run: run, checkpointing: true)
            if lines.contains(where: { $0.hasPrefix("checkpoints ") && $0 != "checkpoints 0" }) { checkpointed += 1 }
        }
        // The kills fell among checkpoints: most runs had checkpointed before they were killed.
        #expect(checkpointed * 2 >= Self.runsPerStoreType, "only \(checkpointed) of \(Self.runsPerStoreType) runs checkpointed")
    }

    /// Runs the save loop, kills it at `moment`, checks the store it left, and returns the lines
    /// the loop printed.
    private func killAndCheck(store: StoreUnderTest, executable: URL, moment: KillMoment, run: Int,
                              checkpointing: Bool = false) throws -> [Substring] {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.\(store.type.rawValue.lowercased())")
        let label = "\(store)\(checkpointing ? " checkpointing" : "") run \(run), killed \(moment)"

        let process = Process()
        process.executableURL = executable
        process.arguments = [store.type.rawValue, url.path] + (checkpointing ? ["--checkpoint"] : [])
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()

        var printed = Data()
        switch moment {
        case .immediately:
            break
        case .afterLaunch(let milliseconds):
            usleep(useconds_t(milliseconds * 1000))
        case .afterFirstSave(let milliseconds):
            while !printed.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }   // end of output: the process ended by itself
                printed += chunk
            }
            usleep(useconds_t(milliseconds * 1000))
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        printed += output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationReason == .uncaughtSignal else {
            Issue.record("\(label): StoreSaveLoop exited by itself (status \(process.terminationStatus)): \(stderr)")
            return []
        }

        // The last k the writer reported saved: the store must hold it, or the save after it.
        let lines = String(decoding: printed, as: UTF8.self).split(separator: "\n")
        let reported = lines.compactMap { $0.hasPrefix("saved ") ? Int64($0.dropFirst(6)) : nil }
        #expect(reported == Array(stride(from: Int64(1), through: Int64(reported.count), by: 1)), "\(label): \(lines)")
        let lastReported = reported.last ?? 0

        // Nothing but the store (with its sidecars) and, possibly, the killed writer's temporary file.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let sidecars = Set(store.sidecarSuffixes.map { url.lastPathComponent + $0 })
        let leftovers = names.filter { $0 != url.lastPathComponent && !sidecars.contains($0) }
        for name in leftovers {
            #expect(name.hasPrefix(".\(url.lastPathComponent).") && name.hasSuffix(".tmp"), "\(label): leftover \(name)")
        }
        #expect(leftovers.count <= 1, "\(label): \(leftovers)")

        guard FileManager.default.fileExists(atPath: url.path) else {
            #expect(lastReported == 0, "\(label): no store file after \(lastReported) saves")
            return lines
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: store.type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let counters = try context.fetch(FetchRequest(entityName: "Counter"))
        #expect(counters.count <= 1, "\(label): \(counters.count) counters")
        let saved = try counters.first.map { try $0.value(forKey: "value") as? Int64 ?? -1 } ?? 0
        let items = try context.fetch(FetchRequest(entityName: "Item"))
            .map { try $0.value(forKey: "index") as? Int64 ?? -1 }
            .sorted()
        #expect(items == Array(stride(from: Int64(1), through: saved, by: 1)),
                "\(label): Counter.value is \(saved) but the items are \(items)")
        #expect(saved == lastReported || saved == lastReported + 1,
                "\(label): the store holds save \(saved), the writer last reported save \(lastReported)")
        return lines
    }
}
