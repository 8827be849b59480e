import ArgumentParser
import Foundation
import Strata

/// `strata`: inspect, convert, export, import, validate and query stores from the shell.
struct StrataTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Inspect, convert, export, import, validate, query and check Strata and Core Data stores, extract their models, and write Swift classes for models.",
        version: StrataVersion.current,
        subcommands: [Inspect.self, ConvertStore.self, Migrate.self, Export.self, Import.self, Validate.self, Query.self, ModelCommand.self,
                      Check.self, Codegen.self]
    )

    /// Runs the command line. Exit status: 0 success (help and `--version` included, printed on
    /// standard output), 1 validation failures found, 2 bad usage or bad input; every error is
    /// one line on standard error.
    static func main() {
        runCommandLine(Array(CommandLine.arguments.dropFirst()))
    }

    /// Runs the command line `arguments` (without the tool's name) and exits.
    static func runCommandLine(_ arguments: [String]) -> Never {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            finish(with: error, whileParsing: true)
        }
        do {
            var runnable = command
            try runnable.run()
        } catch {
            finish(with: error, whileParsing: false)
        }
        Foundation.exit(0)
    }

    /// Ends the command after `error`: help and version requests print on standard output
    /// (exit 0), a command's failure prints its lines, a usage error one line pointing at
    /// `strata help` (exit 2), any other error its description (exit 2).
    private static func finish(with error: any Error, whileParsing: Bool) -> Never {
        switch error {
        case let failure as CommandFailure:
            for line in failure.lines { Diagnostics.error(line) }
            Foundation.exit(failure.exitCode)
        case let code as ExitCode:
            Foundation.exit(code.rawValue)
        default:
            // Help and --version (CleanExit, from parsing or from `strata help`'s run) print as
            // argument-parser prints them: on standard output, exit status 0.
            if error is CleanExit || exitCode(for: error) == .success { exit(withError: error) }
            if whileParsing || error is ArgumentParser.ValidationError {
                Diagnostics.error("\(message(for: error)) (see 'strata help')")
            } else {
                Diagnostics.error(String(describing: error))
            }
            Foundation.exit(2)
        }
    }
}
