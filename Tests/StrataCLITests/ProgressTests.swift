import Foundation
@testable import StrataCLI
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
        #expect(recorder.received == "\r\u{1B}[Kwriting [###-------------------------] 10% 10/100 objects, 10 objects/s")
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
}
