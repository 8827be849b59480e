import ArgumentParser
import Foundation
@testable import StrataCommands
import Testing

/// `strata --help`, `help`, every command's help and `--version`: printed on standard output,
/// exit status 0; usage errors stay one line with exit status 2.
@Suite("strata help and version")
struct HelpTests {
    /// Every command's name, from the tool's own list, so a new command is covered.
    static let commandNames: [String] = StrataTool.configuration.subcommands.map { $0._commandName }

    @Test("strata --help, -h and help print the overview with every command on standard output, exit 0",
          arguments: [["--help"], ["-h"], ["help"]])
    func overview(arguments: [String]) throws {
        let scratch = try Scratch()
        let result = try scratch.run(arguments)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("USAGE: strata"), "\(result)")
        for name in Self.commandNames {
            #expect(result.stdout.contains("  \(name) "), "the overview lacks \(name): \(result)")
        }
    }

    @Test("every command's help, three ways, prints its usage on standard output, exit 0")
    func everyCommand() throws {
        let scratch = try Scratch()
        #expect(Self.commandNames.count >= 6)
        for name in Self.commandNames {
            for arguments in [["help", name], [name, "--help"], [name, "-h"]] {
                let result = try scratch.run(arguments)
                #expect(result.status == 0, "\(result)")
                #expect(result.stderr.isEmpty, "\(result)")
                #expect(result.stdout.contains("USAGE: strata \(name)"), "\(result)")
                #expect(result.stdout.contains("OPTIONS:"), "\(result)")
            }
        }
    }

    @Test("strata --version prints the version on standard output, exit 0")
    func version() throws {
        let scratch = try Scratch()
        let result = try scratch.run(["--version"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout == StrataVersion.current + "\n", "\(result)")
        #expect(StrataTool.configuration.version == StrataVersion.current)
    }

    @Test("usage errors stay one line pointing at strata help, exit 2",
          arguments: [["bogus"], ["export"], ["query", "x.xml", "--bogus"], ["--bogus"]])
    func usageErrors(arguments: [String]) throws {
        let scratch = try Scratch()
        let result = try scratch.run(arguments)
        expectOneLineFailure(result, mentioning: ["(see 'strata help')"])
    }
}
