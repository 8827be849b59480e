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

/// "A command that writes a whole store never leaves half of one": `strata import` and
/// `strata convert-store` are killed (SIGKILL) at random moments while they write; the
/// destination is then absent, or complete (it opens, holds every object and the source's UUID),
/// and the source is unchanged byte for byte.
///
/// 10 kills per command and destination type; `STRATA_KILL_RUNS=1000` (the crash-safety long
/// form, docs/testing.md) makes it a fifth of that number.
@Suite("Crash safety of the tool's whole-store writes")
struct CLICrashSafetyTests {
    /// Kills per command and destination type.
    static let runsPerDestinationType = max(10, KillRuns.count(default: 50) / 5)
    /// The courses in the document, each with `lessonsPerCourse` lessons (an ordered to-many).
    static let courses = 150
    static let lessonsPerCourse = 10
    /// The store UUID of the document.
    static let uuid = "0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9"

    /// An export document of the School model large enough that writing it takes a while.
    static func document() -> String {
        var objects: [String] = []
        for course in 1...courses {
            let lessons = (1...lessonsPerCourse).map { "\"Lesson/p\(($0 - 1) * courses + course)\"" }
            let code = "ABC\(String(format: "%03d", course % 1000))"
            objects.append("""
                {"entity": "Course", "ref": "Course/p\(course)", "attributes": {"code": "\(code)", "credits": \(course % 10 + 1), \
                "isElective": \(course % 2 == 0), "title": "Course \(course) – ünïcödé & <markup>"}, \
                "relationships": {"lessons": [\(lessons.joined(separator: ", "))]}}
                """)
        }
        for lesson in 1...(courses * lessonsPerCourse) {
            objects.append("""
                {"entity": "Lesson", "ref": "Lesson/p\(lesson)", "attributes": {"minutes": \(lesson % 120).5, \
                "start": \(1_790_000_000 + lesson * 3600), "topic": "Topic \(lesson)"}, "relationships": {}}
                """)
        }
        return """
            {"format": "strata-export", "version": 1, "store": {"type": "XML", "uuid": "\(uuid)", "metadata": {}},
            "objects": [
            \(objects.joined(separator: ",\n"))
            ]}
            """
    }

    /// The arguments of the command that writes `destination`.
    enum Command: CustomStringConvertible {
        case `import`
        case convert

        var description: String { self == .import ? "import" : "convert-store" }
    }

    @Test("a killed import leaves no half-written store", arguments: CLI.writableTypes)
    func killImport(type: String) throws {
        try killWhileWriting(.import, type: type)
    }

    @Test("a killed convert-store leaves no half-written store", arguments: CLI.writableTypes)
    func killConvert(type: String) throws {
        try killWhileWriting(.convert, type: type)
    }

    /// Runs the command twice to the end to time it, then `runsPerDestinationType` times killed
    /// at a random moment within that time, checking source and destination after each.
    private func killWhileWriting(_ command: Command, type: String) throws {
        let scratch = try Scratch()
        let document = try scratch.write(Self.document(), to: "school.json")
        // convert-store reads a store of another type: each destination type gets its own source.
        let sourceType = CLI.writableTypes[(CLI.writableTypes.firstIndex(of: type)! + 1) % CLI.writableTypes.count]
        let source: String
        switch command {
        case .import:
            source = document
        case .convert:
            source = scratch.path("source.\(sourceType)")
            try scratch.succeed("import", document, source, "--model", CLI.model, "--type", sourceType)
        }
        let sourceBytes = try scratch.read(source)

        func arguments(_ destination: String) -> [String] {
            switch command {
            case .import: ["import", source, destination, "--model", CLI.model, "--type", type]
            case .convert: ["convert-store", source, destination, "--model", CLI.model, "--to-type", type]
            }
        }

        // Two full runs: how long the command takes (the shorter, as the machine's load varies),
        // and that its store passes the check.
        var duration = TimeInterval.infinity
        for attempt in 0..<2 {
            let timed = scratch.path("timed-\(attempt).\(type)")
            let started = Date()
            let full = try scratch.run(arguments(timed))
            duration = min(duration, Date().timeIntervalSince(started))
            try #require(full.status == 0, "\(full)")
            try checkComplete(timed, type: type, label: "\(command) to \(type), not killed")
        }

        var killed = 0
        var generator = SystemRandomNumberGenerator()
        for run in 0..<Self.runsPerDestinationType {
            let folder = scratch.work.appendingPathComponent("run-\(run)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("destination.\(type)").path
            let delay = Double.random(in: 0...(duration * 0.9), using: &generator)
            let label = "\(command) to \(type) run \(run), killed after \(Int(delay * 1000)) ms of \(Int(duration * 1000))"

            let process = Process()
            process.executableURL = try CLI.executable()
            process.arguments = arguments(destination)
            process.currentDirectoryURL = folder
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal {
                killed += 1
            } else {
                #expect(process.terminationStatus == 0, "\(label): exited \(process.terminationStatus)")
            }

            #expect(try scratch.read(source) == sourceBytes, "\(label): the source changed")
            let wal = URL(fileURLWithPath: source + "-wal")
            let walSize = (try? wal.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
            #expect(walSize == 0, "\(label): the source gained a write-ahead log of \(walSize) bytes")
            if FileManager.default.fileExists(atPath: destination) {
                try checkComplete(destination, type: type, label: label)
            }
        }
        // The kills fell while the command ran, not after it had ended (a run may end sooner
        // than the timed one when the machine's load drops, so not every kill lands).
        #expect(killed * 5 >= Self.runsPerDestinationType && killed > 0,
                "only \(killed) of \(Self.runsPerDestinationType) runs were killed")
    }

    /// Checks the store at `path` opens as a `type` store and holds the whole document.
    private func checkComplete(_ path: String, type: String, label: String) throws {
        let storeType = try #require(StoreType.named(type))
        let url = URL(fileURLWithPath: path)
        let model = try ModelBundle(at: URL(fileURLWithPath: CLI.model)).currentModel
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        do {
            let store = try coordinator.addPersistentStore(type: storeType, at: url)
            #expect(store.identifier == Self.uuid, "\(label): the destination's UUID is \(store.identifier)")
            let context = ManagedObjectContext(coordinator: coordinator)
            let courses = try context.count(for: FetchRequest(entityName: "Course"))
            let lessons = try context.count(for: FetchRequest(entityName: "Lesson"))
            #expect(courses == Self.courses && lessons == Self.courses * Self.lessonsPerCourse,
                    "\(label): the destination holds \(courses) courses and \(lessons) lessons")
        } catch {
            Issue.record("\(label): the destination does not open: \(error)")
        }
    }
}
