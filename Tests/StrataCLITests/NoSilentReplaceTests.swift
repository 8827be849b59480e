import Foundation
@testable import StrataCommands
import Testing

/// Without `--force`, no command replaces a file that exists, even one that appears while the
/// command runs: the final step is exclusive.
@Suite("strata never replaces a file silently")
struct NoSilentReplaceTests {
    /// The variable of the seam that creates the destination just before the final step.
    static let seam = [OutputFile.raceSeamVariable: "1"]

    @Test("a destination that appears before the final step is left as it is, exit 2, for every command that writes a file",
          arguments: ["convert-store", "import", "export", "query"])
    func destinationAppearing(command: String) throws {
        let scratch = try Scratch()
        let destination = scratch.path(command == "import" || command == "convert-store" ? "new.sqlite" : "out.json")
        let arguments: [String] = switch command {
        case "convert-store": ["convert-store", CLI.sampleStore, destination, "--model", CLI.model]
        case "import": ["import", CLI.sampleDocument, destination, "--model", CLI.model]
        case "export": ["export", CLI.sampleStore, "--model", CLI.model, "--output", destination]
        default: ["query", CLI.sampleStore, "--model", CLI.model, "--entity", "Course", "--output", destination]
        }
        let result = try scratch.run(arguments, environment: Self.seam, input: nil)
        expectOneLineFailure(result, mentioning: ["strata: \(destination): appeared while it was being written", "--force"])
        #expect(try scratch.read(destination) == Data("written by another program\n".utf8), "the other program's file was replaced")
        #expect(try scratch.listing() == [URL(fileURLWithPath: destination).lastPathComponent], "a temporary file was left behind")

        // With --force the same race replaces the file, as asked.
        let forced = try scratch.run(arguments + ["--force"], environment: Self.seam, input: nil)
        #expect(forced.status == 0, "\(forced)")
        #expect(try scratch.read(destination) != Data("written by another program\n".utf8))
        #expect(try scratch.listing() == [URL(fileURLWithPath: destination).lastPathComponent])
    }

    @Test("two conversions to one destination at once: exactly one succeeds, the other fails with exit 2",
          arguments: ["xml", "sqlite"])
    func concurrentConversions(type: String) throws {
        let scratch = try Scratch()
        for round in 0..<12 {
            let destination = scratch.path("race-\(round).\(type)")
            let arguments = ["convert-store", CLI.sampleStore, destination, "--model", CLI.model]
            let first = try scratch.start(arguments)
            let second = try scratch.start(arguments)
            let results = [try first.finish(), try second.finish()]
            let succeeded = results.filter { $0.status == 0 }
            let failed = results.filter { $0.status != 0 }
            #expect(succeeded.count == 1, "round \(round): \(results)")
            for failure in failed {
                #expect(failure.status == 2, "\(failure)")
                #expect(failure.errorLines.count == 1, "\(failure)")
                #expect(failure.stderr.contains("already exists") || failure.stderr.contains("appeared while it was being written"),
                        "\(failure)")
            }
            #expect(try scratch.export(destination).contains("\"Course/p1\""))
        }
        let listing = try scratch.listing()
        #expect(listing.allSatisfy { !$0.contains(".strata-tmp") }, "\(listing)")
    }

    @Test("export and query --output refuse an existing file without --force and replace it with it")
    func existingOutput() throws {
        let scratch = try Scratch()
        let output = try scratch.write("keep me\n", to: "out.json")
        for arguments in [["export", CLI.sampleStore, "--model", CLI.model, "--output", output],
                          ["query", CLI.sampleStore, "--model", CLI.model, "--entity", "Course", "--output", output]] {
            expectOneLineFailure(try scratch.run(arguments), mentioning: ["strata: \(output): already exists (pass --force to replace it)"])
            #expect(try scratch.read(output) == Data("keep me\n".utf8))
        }
        try scratch.succeed("export", CLI.sampleStore, "--model", CLI.model, "--output", output, "--force")
        #expect(String(decoding: try scratch.read(output), as: UTF8.self).contains("\"objects\""))
    }

    @Test("--force over an SQLite store with a write-ahead log removes the old log, which would be read into the new store")
    func forceOverStoreWithLog() throws {
        let scratch = try Scratch()
        let store = try scratch.copyAppleStore("duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V3.sqlite")
        #expect(try scratch.listing().contains { $0.hasSuffix("-wal") })
        try scratch.succeed("convert-store", CLI.sampleStore, store, "--model", CLI.model, "--force")
        #expect(try scratch.listing() == [URL(fileURLWithPath: store).lastPathComponent])
        #expect(try objectsSection(scratch.export(store)) == objectsSection(scratch.export(CLI.sampleStore)))
    }

    @Test("the exclusive move fails with destinationExists on an existing file and leaves both files")
    func exclusiveMove() throws {
        let scratch = try Scratch()
        let source = try scratch.write("new", to: "source")
        let existing = try scratch.write("old", to: "existing")
        do throws(ExclusiveRename.Failure) {
            try ExclusiveRename.moveWithoutReplacing(source, to: existing)
            Issue.record("moved over an existing file")
        } catch .destinationExists {
        } catch {
            Issue.record("expected destinationExists, got \(error)")
        }
        #expect(try scratch.read(existing) == Data("old".utf8))
        #expect(try scratch.read(source) == Data("new".utf8))
        try ExclusiveRename.moveWithoutReplacing(source, to: scratch.path("fresh"))
        #expect(try scratch.listing() == ["existing", "fresh"])
    }
}
