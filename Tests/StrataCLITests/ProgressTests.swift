import Foundation
@testable import StrataCommands
import Testing

/// The progress bar: drawn only on a terminal, with counts and a rate; warnings on lines of
/// their own above it.
@Suite("strata progress", .serialized)
struct ProgressTests {
    /// What a sink received, and a clock the test moves.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        private var time = 0.0

        var received: String { lock.withLock { text } }
        func append(_ more: String) { lock.withLock { text += more } }
        func advance(_ seconds: Double) { lock.withLock { time += seconds } }
        var now: Double { lock.withLock { time } }
        func clear() { lock.withLock { text = "" } }
    }

    static func bar(_ recorder: Recorder, terminal: Bool = true) -> ProgressBar {
        ProgressBar("writing", sink: ProgressBar.Sink(isTerminal: terminal) { recorder.append($0) }, now: { recorder.now })
    }

    @Test("the bar shows the share, the counts and the rate")
    func rendering() {
        #expect(ProgressBar.text(label: "writing", unit: "objects", done: 500, total: 1000, elapsed: 2)
                == "writing [###############---------------] 50% 500/1000 objects, 250 objects/s")
        #expect(ProgressBar.text(label: "reading", unit: "objects", done: 3000, total: nil, elapsed: 1.5)
                == "reading 3000 objects, 2000 objects/s")
        let recorder = Recorder()
        let bar = Self.bar(recorder)
        recorder.advance(1)
        bar.update(10, of: 100)
        #expect(recorder.received == "\r\u{1B}[Kwriting [###---------------------------] 10% 10/100 objects, 10 objects/s")
        bar.finish()
        #expect(recorder.received.hasSuffix("\r\u{1B}[K"))
    }

    @Test("a warning clears the bar's line, prints on its own line, and the bar is drawn again")
    func warningAboveTheBar() throws {
        let recorder = Recorder()
        let bar = Self.bar(recorder)
        recorder.advance(1)
        bar.update(40, of: 100)
        recorder.clear()
        Diagnostics.warning("something skipped")
        let text = recorder.received
        let expectedBar = "writing [############------------------] 40% 40/100 objects, 40 objects/s"
        #expect(text == "\r\u{1B}[Kstrata: warning: something skipped\n\r\u{1B}[K" + expectedBar, "\(text.debugDescription)")
        bar.finish()
        // Every warning line starts at the line's beginning, after the bar's line was cleared.
        for line in text.split(separator: "\n") where line.contains("warning") {
            #expect(line.hasPrefix("\r\u{1B}[Kstrata: warning: "))
        }
    }

    @Test("a step without counts shows its text alone; the next update draws the bar over it")
    func textOnly() {
        let recorder = Recorder()
        let bar = Self.bar(recorder)
        bar.show("checking standard input (120 bytes) against the model")
        #expect(recorder.received == "\r\u{1B}[Kchecking standard input (120 bytes) against the model")
        recorder.clear()
        bar.update(0, of: 10)
        #expect(recorder.received.hasPrefix("\r\u{1B}[Kwriting [-"))
        bar.finish()
        #expect(recorder.received.hasSuffix("\r\u{1B}[K"))

        // A warning during such a step goes above it, and the text comes back.
        let other = Recorder()
        let second = Self.bar(other)
        second.show("x")
        Diagnostics.warning("w")
        #expect(other.received == "\r\u{1B}[Kx\r\u{1B}[Kstrata: warning: w\n\r\u{1B}[Kx", "\(other.received.debugDescription)")
        second.finish()
    }

    @Test("redraws are limited by time unless the share changes")
    func throttled() {
        let recorder = Recorder()
        let bar = Self.bar(recorder)
        bar.update(1, of: 1000)
        let first = recorder.received
        bar.update(2, of: 1000)
        bar.update(3, of: 1000)
        #expect(recorder.received == first, "redrawn within the interval")
        recorder.advance(ProgressBar.redrawInterval)
        bar.update(4, of: 1000)
        #expect(recorder.received.hasSuffix("4/1000 objects, 40 objects/s"))
        bar.finish()
    }

    @Test("nothing is drawn when the sink is not a terminal, and warnings go straight through")
    func notATerminal() {
        let recorder = Recorder()
        let bar = Self.bar(recorder, terminal: false)
        bar.update(5, of: 10)
        #expect(recorder.received.isEmpty)
        bar.printAbove("strata: warning: x")
        #expect(recorder.received == "strata: warning: x\n")
        bar.finish()
    }

    @Test("commands piped to a file write no progress bytes on standard error")
    func pipedCommandsStayClean() throws {
        let scratch = try Scratch()
        let store = scratch.path("school.sqlite")
        for arguments in [["convert-store", CLI.sampleStore, store, "--model", CLI.model],
                          ["export", store, "--model", CLI.model, "--output", scratch.path("out.json")],
                          ["import", CLI.sampleDocument, scratch.path("imported.binary"), "--model", CLI.model],
                          ["validate", store, "--model", CLI.model],
                          ["query", store, "--model", CLI.model, "--entity", "Person", "--format", "table"]] {
            let result = try scratch.run(arguments)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(!result.stdout.contains("\r") && !result.stdout.contains("\u{1B}"), "\(result)")
        }
    }

    @Test("on a terminal, a conversion draws its progress on standard error and clears it; standard output stays clean")
    func onATerminal() throws {
        let pty = try #require(PseudoTerminal.open(), "no pseudo-terminal")
        let master = pty.master
        defer { close(master) }
        let slavePath = pty.terminalPath
        let terminal = try #require(FileHandle(forWritingAtPath: slavePath))
        let scratch = try Scratch()
        let store = scratch.path("school.sqlite")
        let outURL = scratch.root.appendingPathComponent("terminal.out")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let process = Process()
        process.executableURL = try CLI.executable()
        process.arguments = ["convert-store", CLI.sampleStore, store, "--model", CLI.model]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = terminal
        try process.run()
        process.waitUntilExit()
        try terminal.close()
        #expect(process.terminationStatus == 0)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        while true {
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { break }
            received.append(contentsOf: buffer[..<count])
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.contains("\r\u{1B}[Kwriting ["), "\(text.debugDescription)")
        #expect(text.contains("/12 objects, "), "\(text.debugDescription)")
        #expect(text.contains(" objects/s"), "\(text.debugDescription)")
        #expect(text.hasSuffix("\r\u{1B}[K"), "the bar was not cleared: \(text.debugDescription)")
        let output = String(decoding: try Data(contentsOf: outURL), as: UTF8.self)
        #expect(output.hasPrefix("\(store): 12 objects converted"), "\(output)")
        #expect(!output.contains("\u{1B}"))
    }
}

/// A pseudo-terminal for the tests, through the C library's functions looked up at run time
/// (Swift's Glibc module does not declare the X/Open ones).
enum PseudoTerminal {
    private typealias OpenPT = @convention(c) (Int32) -> Int32
    private typealias Grant = @convention(c) (Int32) -> Int32
    private typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    /// A new pseudo-terminal's controlling side and the path of its terminal side.
    static func open() -> (master: Int32, terminalPath: String)? {
        let library = UnsafeMutableRawPointer(bitPattern: 0)
        guard let openpt = dlsym(library, "posix_openpt").map({ unsafeBitCast($0, to: OpenPT.self) }),
              let grant = dlsym(library, "grantpt").map({ unsafeBitCast($0, to: Grant.self) }),
              let unlock = dlsym(library, "unlockpt").map({ unsafeBitCast($0, to: Grant.self) }),
              let name = dlsym(library, "ptsname").map({ unsafeBitCast($0, to: Name.self) }) else { return nil }
        let master = openpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { return nil }
        guard grant(master) == 0, unlock(master) == 0, let path = name(master) else {
            close(master)
            return nil
        }
        return (master, String(cString: path))
    }
}
