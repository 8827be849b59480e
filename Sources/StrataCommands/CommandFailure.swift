import Foundation
import Strata

/// Why a command stopped: the lines to print on standard error and the exit status.
struct CommandFailure: Error {
    /// One line per problem, each naming the file and what is wrong.
    var lines: [String]
    /// The exit status: 2 for bad usage or input, 1 for validation failures.
    var exitCode: Int32

    /// A failure with one line.
    init(_ line: String, exitCode: Int32 = 2) {
        self.lines = [line]
        self.exitCode = exitCode
    }

    /// A failure with several lines.
    init(lines: [String], exitCode: Int32 = 2) {
        self.lines = lines
        self.exitCode = exitCode
    }
}

/// Writing to standard error.
enum Diagnostics {
    /// Prints `strata: <line>` on standard error.
    /// A progress bar still shown is cleared first: the command is over.
    static func error(_ line: String) {
        ProgressBar.finishActive()
        FileHandle.standardError.write(Data("strata: \(line)\n".utf8))
    }

    /// Prints `strata: warning: <line>` on standard error: something skipped, not a failure.
    /// While a progress bar is shown, the warning goes on a line of its own above it.
    static func warning(_ line: String) {
        let text = "strata: warning: \(line)"
        if ProgressBar.printAboveActive(text) { return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

extension CommandFailure {
    /// The failure for `error`, met working on `subject` (a file as the user named it): the
    /// error's own line when it names its file already, else `subject: error`.
    init(_ subject: String, _ error: any Error, exitCode: Int32 = 2) {
        if let storeError = error as? StoreError, let file = storeError.file, !file.isEmpty {
            self.init("\(storeError)", exitCode: exitCode)
        } else {
            self.init("\(subject): \(error)", exitCode: exitCode)
        }
    }
}

extension StoreError {
    /// The file the error's line starts with, when it starts with one.
    var file: String? {
        switch self {
        case .io(let file, _, _), .corruptStore(let file, _, _), .incompatibleModel(let file, _),
             .unusableName(let file, _):
            file
        case .invalidStoredValue(let problem): problem.file
        default: nil
        }
    }
}
