import ArgumentParser
import Foundation
import Strata

/// `strata`: inspect, convert, export, import, validate and query stores from the shell.
@main
struct StrataTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Inspect, convert, export, import, validate and query Strata and Core Data stores.",
        subcommands: [Inspect.self, ConvertStore.self, Export.self, Import.self, Validate.self, Query.self, Check.self]
    )

    /// Runs the command line. Exit status: 0 success, 1 validation failures found, 2 bad usage
    /// or bad input; every error is one line on standard error.
    static func main() {
        StoreType.registerBuiltInTypes()
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            Diagnostics.error("\(message(for: error)) (see 'strata help')")
            Foundation.exit(2)
        }
        do {
            var runnable = command
            try runnable.run()
        } catch let failure as CommandFailure {
            for line in failure.lines { Diagnostics.error(line) }
            Foundation.exit(failure.exitCode)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            Diagnostics.error(String(describing: error))
            Foundation.exit(2)
        }
    }
}
