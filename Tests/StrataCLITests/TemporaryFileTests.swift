import Foundation
@testable import StrataCommands
import Testing

/// Temporary files a killed command left are removed by the next command writing the same
/// destination; a running process's are kept; reading a store leaves no files behind.
@Suite("strata temporary files and sidecars")
struct TemporaryFileTests {
    /// A process ID no process has: past the kernel's limit.
    static func deadPID() throws -> pid_t {
        let limit = (try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 4_194_304
        let pid = limit + 1
        try #require(kill(pid, 0) == -1 && errno == ESRCH)
        return pid
    }

    @Test("temporary names carry the writer's PID and are recognised only for their destination")
    func names() throws {
        let uuid = UUID().uuidString
        #expect(TemporaryFiles.writer(of: ".a.sqlite.42-\(uuid).strata-tmp", destinationName: "a.sqlite") == 42)
        #expect(TemporaryFiles.writer(of: ".a.sqlite.42-\(uuid).strata-tmp-wal", destinationName: "a.sqlite") == 42)
        #expect(TemporaryFiles.writer(of: "..a.sqlite.42-\(uuid).strata-tmp.\(uuid).tmp", destinationName: "a.sqlite") == 42)
        #expect(TemporaryFiles.writer(of: ".a.sqlite.42-\(uuid).strata-tmp", destinationName: "b.sqlite") == nil)
        #expect(TemporaryFiles.writer(of: ".a.sqlite.42-\(uuid).strata-tmp", destinationName: "a") == nil)
        #expect(TemporaryFiles.writer(of: ".a.sqlite.\(uuid).strata-tmp", destinationName: "a.sqlite") == nil)
        #expect(TemporaryFiles.writer(of: ".a.sqlite.42-\(uuid).strata-tmp-other", destinationName: "a.sqlite") == nil)
        #expect(TemporaryFiles.writer(of: "a.sqlite", destinationName: "a.sqlite") == nil)
    }

    @Test("the next conversion to a destination removes a dead writer's temporary files, keeps a live one's and others'")
    func staleTemporaryFiles() throws {
        let scratch = try Scratch()
        let dead = try Self.deadPID()
        let live = getpid()
        let stale = [".school.sqlite.\(dead)-\(UUID().uuidString).strata-tmp",
                     ".school.sqlite.\(dead)-\(UUID().uuidString).strata-tmp-wal",
                     "..school.sqlite.\(dead)-\(UUID().uuidString).strata-tmp.\(UUID().uuidString).tmp"]
        let kept = [".school.sqlite.\(live)-\(UUID().uuidString).strata-tmp",   // a running process's
                    ".other.sqlite.\(dead)-\(UUID().uuidString).strata-tmp",    // another destination's
                    ".school.sqlite.\(UUID().uuidString).strata-tmp"]           // no PID: not ours to judge
        for name in stale + kept { try scratch.write("leftover", to: name) }
        try scratch.succeed("convert-store", CLI.sampleStore, scratch.path("school.sqlite"), "--model", CLI.model)
        #expect(try scratch.listing() == (kept + ["school.sqlite"]).sorted())
        #expect(try scratch.read(scratch.path(kept[0])) == Data("leftover".utf8))
    }

    @Test("export --output removes a dead writer's temporary file of that output")
    func staleExportTemporary() throws {
        let scratch = try Scratch()
        let stale = ".out.json.\(try Self.deadPID())-\(UUID().uuidString).strata-tmp"
        try scratch.write("{", to: stale)
        try scratch.succeed("export", CLI.sampleStore, "--model", CLI.model, "--output", scratch.path("out.json"))
        #expect(try scratch.listing() == ["out.json"])
    }

    @Test("reading as root a store owned by another user leaves no file behind",
          .enabled(if: getuid() == 0, "needs root to chown the store to another user"),
          arguments: ["strata's store", "Apple's store with its log", "Apple's store with its log, no -shm"])
    func readingAnotherUsersStore(kind: String) throws {
        let scratch = try Scratch()
        let store: String
        var commands: [[String]]
        if kind == "strata's store" {
            store = scratch.path("school.sqlite")
            try scratch.succeed("convert-store", CLI.sampleStore, store, "--model", CLI.model)
            commands = [["inspect", store, "--model", CLI.model], ["export", store, "--model", CLI.model],
                        ["validate", store, "--model", CLI.model], ["query", store, "--model", CLI.model, "--entity", "Course"]]
        } else {
            // A write-ahead log with transactions in it, as a running app leaves: the store is
            // then read with SQLite's read-only open.
            store = try scratch.copyAppleStore("duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V3.sqlite")
            if kind.hasSuffix("no -shm") { try FileManager.default.removeItem(atPath: store + "-shm") }
            commands = [["inspect", store], ["export", store], ["validate", store], ["query", store, "--entity", "BookmarkEntity"]]
        }
        commands.append(["convert-store", store, scratch.root.appendingPathComponent("copy.xml").path] + commands[1].dropFirst(2))
        let before = try scratch.listing()
        #expect(chown(scratch.work.path, 65534, 65534) == 0)
        for name in before { #expect(chown(scratch.path(name), 65534, 65534) == 0) }
        for arguments in commands {
            let result = try scratch.run(arguments)
            #expect(result.status == 0, "\(result)")
            let after = try scratch.listing()
            #expect(after == before, "\(arguments.joined(separator: " ")) left \(Set(after).subtracting(before)), removed \(Set(before).subtracting(after))")
        }
    }
}
