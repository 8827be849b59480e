import Foundation

/// The `sqlite3` shell, for tests that look at a store file from outside Strata.
public enum SQLiteShell {
    /// `sqlite3` exited with a failure.
    public struct Failure: Error, CustomStringConvertible {
        /// The SQL it ran.
        public var sql: String
        /// Its exit status.
        public var status: Int32
        /// What it said on standard error.
        public var message: String
        public var description: String { "sqlite3 failed (status \(status)) on \(sql): \(message)" }
    }

    /// Runs `sql` on `file` and returns the output lines (columns separated by `|`).
    public static func rows(_ file: URL, _ sql: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", file.path, sql]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(sql: sql, status: process.terminationStatus, message: String(decoding: message, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
