import Foundation

/// How a benchmark runs each measured phase in a child process of its own (the same executable
/// with `--phase …`), which prints one `RESULT key=value …` line, so that each phase's peak
/// memory is its own.
public enum ChildProcess {
    /// This executable, to start again as a child.
    public static let executable = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0])

    /// Why a child gave no result: its exit status and everything it printed.
    public struct Failure: Error, CustomStringConvertible {
        /// The exit status (-1 when it could not be started).
        public var status: Int32
        /// What it printed, or why it could not be started.
        public var output: String
        public var description: String { "status \(status): \(output)" }
    }

    /// A new folder for the phases' files under the temporary folder, named `prefix-UUID`.
    public static func makeScratchFolder(prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs this executable with `arguments` and returns the fields of the `RESULT` line it
    /// printed.
    ///
    /// - Throws: ``Failure`` when it cannot be started, exits with a failure or prints no result.
    public static func resultFields(arguments: [String]) throws(Failure) -> [String: String] {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { throw Failure(status: -1, output: "cannot start \(executable.path): \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
              let fields = text.split(separator: "\n").lazy.compactMap({ resultFields(of: String($0)) }).first else {
            throw Failure(status: process.terminationStatus, output: text)
        }
        return fields
    }

    /// The `key=value` fields of a `RESULT` line; nil for any other line.
    public static func resultFields(of line: String) -> [String: String]? {
        guard line.hasPrefix("RESULT ") else { return nil }
        var fields: [String: String] = [:]
        for pair in line.dropFirst(7).split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }
}
