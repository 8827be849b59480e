import Foundation
import Testing

/// `-` for standard output and input; `--output` into a FIFO (written as it is) and through a
/// symbolic link (its target replaced, the link kept).
@Suite("strata output targets")
struct OutputTargetTests {
    /// The file type bits of the file at `path`, not following a link.
    static func fileType(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    @Test("--output - writes to standard output, for export and query")
    func dashIsStandardOutput() throws {
        let scratch = try Scratch()
        let plain = try scratch.export(CLI.sampleStore)
        let dashed = try scratch.succeed("export", CLI.sampleStore, "--model", CLI.model, "--output", "-")
        #expect(dashed.stdout == plain)
        let query = try scratch.succeed("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Course")
        let dashedQuery = try scratch.succeed("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Course", "-o", "-")
        #expect(dashedQuery.stdout == query.stdout)
        #expect(try scratch.listing().isEmpty)
    }

    @Test("import - reads the document from standard input")
    func dashIsStandardInput() throws {
        let scratch = try Scratch()
        let store = scratch.path("from-stdin.binary")
        let result = try scratch.run(["import", "-", store, "--model", CLI.model], environment: [:], input: CLI.sampleDocument)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("\(store): 12 objects imported"), "\(result)")
        #expect(try objectsSection(scratch.export(store)) == objectsSection(scratch.export(CLI.sampleStore)))

        // Problems in a document read from standard input name it so.
        let bad = try scratch.write("{\"objects\": 3}", to: "bad.json")
        let refused = try scratch.run(["import", "-", scratch.path("bad.xml"), "--model", CLI.model], environment: [:], input: bad)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.errorLines.allSatisfy { $0.hasPrefix("strata: standard input: ") }, "\(refused)")
    }

    @Test("--output into a FIFO writes into it and leaves it a FIFO, without --force")
    func fifo() throws {
        let scratch = try Scratch()
        let fifo = scratch.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        // The sample's export fits in the pipe's buffer: the command ends before the test reads.
        try scratch.succeed("export", CLI.sampleStore, "--model", CLI.model, "--output", fifo)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(reader, &buffer, buffer.count)
            guard count > 0 else { break }
            received.append(contentsOf: buffer[..<count])
        }
        #expect(String(decoding: received, as: UTF8.self) == (try scratch.export(CLI.sampleStore)))
        #expect(Self.fileType(fifo) == S_IFIFO, "the FIFO was replaced")
        #expect(try scratch.listing() == ["pipe"])
    }

    @Test("--output through a symbolic link replaces the link's target and keeps the link")
    func symbolicLink() throws {
        let scratch = try Scratch()
        let target = try scratch.write("old\n", to: "target.json")
        let link = scratch.path("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.json")

        // An existing target needs --force, as a plain file does.
        expectOneLineFailure(try scratch.run("export", CLI.sampleStore, "--model", CLI.model, "--output", link),
                             mentioning: ["strata: \(link): already exists (pass --force to replace it)"])
        #expect(try scratch.read(target) == Data("old\n".utf8))

        try scratch.succeed("export", CLI.sampleStore, "--model", CLI.model, "--output", link, "--force")
        #expect(Self.fileType(link) == S_IFLNK, "the link was replaced by a file")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.json")
        #expect(String(decoding: try scratch.read(target), as: UTF8.self) == (try scratch.export(CLI.sampleStore)))

        // A link to a file that does not exist yet: the target is created.
        let dangling = scratch.path("dangling.json")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "made.json")
        try scratch.succeed("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Course", "--output", dangling)
        #expect(Self.fileType(dangling) == S_IFLNK)
        #expect(Self.fileType(scratch.path("made.json")) == S_IFREG)
        #expect(try scratch.listing() == ["dangling.json", "link.json", "made.json", "target.json"])
    }

    @Test("--output /dev/null and /dev/stdout are written to as they are, without --force")
    func devices() throws {
        let scratch = try Scratch()
        try scratch.succeed("export", CLI.sampleStore, "--model", CLI.model, "--output", "/dev/null")
        #expect(Self.fileType("/dev/null") == S_IFCHR)
        // Standard output is a file here: /dev/stdout leads to it through links, and is still
        // written to, not replaced.
        let result = try scratch.succeed("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Course", "--count", "--output", "/dev/stdout")
        #expect(result.stdout == "3\n")
    }

    @Test("a store is not written to standard output or a FIFO")
    func storeToStream() throws {
        let scratch = try Scratch()
        let fifo = scratch.path("pipe.xml")
        #expect(mkfifo(fifo, 0o600) == 0)
        expectOneLineFailure(try scratch.run("convert-store", CLI.sampleStore, fifo, "--model", CLI.model),
                             mentioning: ["strata: \(fifo): a store is written to a regular file"])
        #expect(Self.fileType(fifo) == S_IFIFO)
    }
}
