import Foundation
import StrataJSON
import StrataTestSupport
import Testing

/// What one run of the `strata` executable did.
struct CLIResult: CustomStringConvertible {
    /// The arguments after `strata`.
    var arguments: [String]
    /// The exit status.
    var status: Int32
    /// Everything written to standard output.
    var stdoutData: Data
    /// Everything written to standard error.
    var stderr: String

    /// Standard output as text.
    var stdout: String { String(decoding: stdoutData, as: UTF8.self) }

    /// The non-empty lines of standard error.
    var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// The non-empty lines of standard output.
    var outputLines: [String] { stdout.split(separator: "\n").map(String.init) }

    var description: String {
        "strata \(arguments.joined(separator: " ")) exited \(status)\n--- stdout:\n\(stdout.prefix(3000))\n--- stderr:\n\(stderr.prefix(3000))"
    }
}

/// Finding and running the built `strata` executable, and the sample files.
enum CLI {
    /// The repository root, from this file's path (Tests/StrataCLITests/CLISupport.swift).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Samples/RoundTrip.
    static let samples = repositoryRoot.appendingPathComponent("Samples/RoundTrip", isDirectory: true)
    /// The School model bundle.
    static let model = samples.appendingPathComponent("School.xcdatamodeld", isDirectory: true).path
    /// The School model's contents file.
    static let modelContents = samples.appendingPathComponent("School.xcdatamodeld/School.xcdatamodel/contents").path
    /// The sample XML store (12 objects).
    static let sampleStore = samples.appendingPathComponent("school.xml").path
    /// The export document the sample store was imported from.
    static let sampleDocument = samples.appendingPathComponent("school.json").path
    /// The SQLite stores Apple's Core Data wrote, in the `AppleStoreTests` target.
    static let appleStores = repositoryRoot.appendingPathComponent("Tests/AppleStoreTests/Fixtures", isDirectory: true)
    /// The sample store's UUID.
    static let sampleUUID = "5B7C2B9E-3F4A-4C1D-9E8F-0A1B2C3D4E5F"
    /// The refs of the sample's objects, in document order.
    static let sampleRefs = [
        "Course/p1", "Course/p2", "Course/p3", "Lesson/p1", "Lesson/p2", "Lesson/p3", "Lesson/p4",
        "Student/p1", "Student/p2", "Student/p3", "Teacher/p4", "Teacher/p5",
    ]
    /// The store types this build can write, by command-line name.
    static let writableTypes: [String] = ["xml", "binary", "sqlite"]

    /// Folders where the build puts executables next to the test binary.
    static var searchedFolders: [URL] { BuiltExecutables.searchedFolders }

    /// The built `strata` executable.
    static func executable() throws -> URL {
        try #require(
            searchedFolders.map { $0.appendingPathComponent("strata") }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "strata is not built next to the test binary; looked in \(searchedFolders.map(\.path).joined(separator: ", "))"
        )
    }
}

/// A fresh temporary folder for one test: `work` for the files the test and the tool write,
/// and a sibling folder for captured output, so a listing of `work` shows only store files.
final class Scratch {
    let root: URL
    let work: URL
    private let captures: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-cli-tests-\(UUID().uuidString)", isDirectory: true)
        work = root.appendingPathComponent("work", isDirectory: true)
        captures = root.appendingPathComponent("captures", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: captures, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The path of `name` in the work folder.
    func path(_ name: String) -> String { work.appendingPathComponent(name).path }

    /// Writes `data` to `name` in the work folder and returns its path.
    @discardableResult
    func write(_ data: Data, to name: String) throws -> String {
        let url = work.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    /// Writes `text` as UTF-8 to `name` in the work folder and returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String { try write(Data(text.utf8), to: name) }

    /// The contents of a file.
    func read(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Whether a file or folder exists at `path`.
    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// The names in the work folder (hidden ones included), sorted.
    func listing() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: work.path).sorted() }

    /// Runs `strata` with `arguments`, standard input empty, capturing both outputs in files.
    func run(_ arguments: [String]) throws -> CLIResult { try run(arguments, environment: [:], input: nil) }

    /// Runs `strata` with `arguments`, the variables `environment` added to the test's own,
    /// standard input read from the file `input` (empty when nil), capturing both outputs.
    func run(_ arguments: [String], environment: [String: String], input: String?) throws -> CLIResult {
        let process = try start(arguments, environment: environment, input: input)
        process.process.waitUntilExit()
        return try process.finish()
    }

    /// A started run of `strata`, finished with ``finish()`` after the process exits.
    struct StartedRun {
        let process: Process
        let arguments: [String]
        let out: FileHandle
        let err: FileHandle
        let outURL: URL
        let errURL: URL

        /// Waits for the process and returns what it did.
        func finish() throws -> CLIResult {
            process.waitUntilExit()
            try out.close()
            try err.close()
            return CLIResult(
                arguments: arguments,
                status: process.terminationStatus,
                stdoutData: try Data(contentsOf: outURL),
                stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
            )
        }
    }

    /// Starts `strata` as ``run(_:environment:input:)`` does, without waiting for it.
    func start(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> StartedRun {
        let executable = try CLI.executable()
        let id = UUID().uuidString
        let outURL = captures.appendingPathComponent("\(id).out")
        let errURL = captures.appendingPathComponent("\(id).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = work
        process.standardInput = try input.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) } ?? FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        try process.run()
        return StartedRun(process: process, arguments: arguments, out: out, err: err, outURL: outURL, errURL: errURL)
    }

    func run(_ arguments: String...) throws -> CLIResult { try run(arguments) }

    /// Runs `strata` and requires exit status 0 with nothing on standard error.
    @discardableResult
    func succeed(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try succeed(arguments, sourceLocation: sourceLocation)
    }

    /// Runs `strata` with `arguments` and requires exit status 0 with nothing on standard error.
    @discardableResult
    func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let result = try run(arguments)
        try #require(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
        return result
    }

    /// Copies an SQLite store Apple's Core Data wrote (a path below `Tests/AppleStoreTests/Fixtures`)
    /// with its `-wal` and `-shm` into the work folder, and returns the copy's path: a fixture
    /// is never opened in place.
    func copyAppleStore(_ fixture: String) throws -> String {
        try SQLiteStoreCopy.copy(CLI.appleStores.appendingPathComponent(fixture), into: work).path
    }

    /// `strata export STORE --model MODEL` as text; requires success.
    func export(_ store: String, model: String = CLI.model, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try succeed("export", store, "--model", model, sourceLocation: sourceLocation).stdout
    }
}

/// Checks a run failed with exit status `status` and exactly one line on standard error,
/// starting `strata: ` and holding every one of `fragments`; nothing on standard output.
func expectOneLineFailure(_ result: CLIResult, status: Int32 = 2, mentioning fragments: [String],
                          sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
    #expect(result.errorLines.count == 1, "expected one line on stderr: \(result)", sourceLocation: sourceLocation)
    #expect(result.errorLines.allSatisfy { $0.hasPrefix("strata: ") }, "\(result)", sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(result.stderr.contains(fragment), "stderr lacks \"\(fragment)\": \(result)", sourceLocation: sourceLocation)
    }
    #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
}

/// The `objects` part of an export document: from its `"objects"` line to the end.
func objectsSection(_ export: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Substring {
    let range = try #require(export.range(of: "\n  \"objects\": ["), "no objects member in:\n\(export.prefix(2000))",
                             sourceLocation: sourceLocation)
    return export[range.lowerBound...]
}

/// The `store` line of an export document.
func storeLine(_ export: String) -> Substring? {
    export.split(separator: "\n").first { $0.hasPrefix("  \"store\": ") }
}

extension JSONValue {
    /// The member `key` of an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The elements of an array.
    var elements: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The text of a string.
    var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The member names of an object, in order.
    var memberNames: [String]? {
        guard case .object(let members) = self else { return nil }
        return Array(members.keys)
    }
}

/// The refs of the objects of an export document or a query's array.
func refs(ofObjects json: JSONValue) -> [String] {
    let objects = json["objects"]?.elements ?? json.elements ?? []
    return objects.compactMap { $0["ref"]?.stringValue }
}
