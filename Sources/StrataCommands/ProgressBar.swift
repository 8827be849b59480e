import Foundation
import Strata

/// A progress line on standard error, drawn only when standard error is a terminal, so logs and
/// pipes never see it: `label [#####-----] 50% 5000/10000 objects, 12345 objects/s`, or without
/// a known total `label 5000 objects, 12345 objects/s`.
///
/// Warnings go above the bar, never on its line: while a bar is shown, ``Diagnostics`` hands
/// every warning to ``printAbove(_:)``, which clears the line, writes the warning and draws the
/// bar again. The bar redraws at most every ``redrawInterval`` seconds (and when its percentage
/// changes).
///
/// Thread safety: every member is touched only while `lock` is held; stores report progress
/// from the thread that runs the command.
final class ProgressBar: @unchecked Sendable {
    /// Where a bar writes, and whether that is a terminal.
    struct Sink: Sendable {
        /// Whether the sink is a terminal (a bar is drawn only then).
        var isTerminal: Bool
        /// Writes text.
        var write: @Sendable (String) -> Void

        /// Standard error.
        static var standardError: Sink {
            Sink(isTerminal: isatty(STDERR_FILENO) == 1) { FileHandle.standardError.write(Data($0.utf8)) }
        }
    }

    /// The shortest time between two redraws, in seconds.
    static let redrawInterval = 0.1
    /// The escape sequence that returns to the start of the line and clears it.
    static let clearLine = "\r\u{1B}[K"

    private let lock = NSLock()
    private var label: String
    private let unit: String
    private let sink: Sink
    private let now: @Sendable () -> Double
    private var started: Double
    private var done = 0
    private var total: Int?
    private var drawn: String?
    private var lastDrawTime = -Double.infinity
    private var lastPercent = -1

    /// The bar warnings are printed above; nil when none is shown.
    private nonisolated(unsafe) static var active: ProgressBar?
    private static let activeLock = NSLock()

    /// A bar labelled `label` (for example `exporting`) counting `unit`, writing to `sink`,
    /// reading the time (seconds) from `now`.
    init(_ label: String, unit: String = "objects", sink: Sink = .standardError,
         now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.label = label
        self.unit = unit
        self.sink = sink
        self.now = now
        self.started = now()
        if sink.isTerminal {
            Self.activeLock.withLock { Self.active = self }
        }
    }

    /// Shows `done` of `total` (nil: not known), under a new `label` when given (a new phase:
    /// its rate is counted from then).
    func update(_ done: Int, of total: Int?, label: String? = nil) {
        guard sink.isTerminal else { return }
        lock.withLock {
            let relabelled = label.map { $0 != self.label } ?? false
            if let label { self.label = label }
            // A new phase counts its own rate.
            if relabelled { started = now() }
            self.done = done
            self.total = total
            let time = now()
            let percent = total.map { $0 > 0 ? min(100, done * 100 / $0) : 100 } ?? -1
            guard relabelled || percent != lastPercent || time - lastDrawTime >= Self.redrawInterval else { return }
            lastPercent = percent
            lastDrawTime = time
            draw(at: time)
        }
    }

    /// Shows `text` alone on the bar's line (a step whose objects are not counted, such as
    /// reading a whole file), until the next update.
    func show(_ text: String) {
        guard sink.isTerminal else { return }
        lock.withLock {
            sink.write(Self.clearLine + text)
            drawn = text
            lastPercent = -1
            lastDrawTime = -Double.infinity
        }
    }

    /// Writes `line` (with its newline) above the bar: the bar's line is cleared first and the
    /// bar drawn again after.
    func printAbove(_ line: String) {
        lock.withLock {
            guard let drawn else {
                sink.write(line + "\n")
                return
            }
            sink.write(Self.clearLine + line + "\n" + Self.clearLine + drawn)
        }
    }

    /// Clears the bar; warnings go straight to standard error again.
    func finish() {
        Self.activeLock.withLock { if Self.active === self { Self.active = nil } }
        lock.withLock {
            guard drawn != nil else { return }
            sink.write(Self.clearLine)
            drawn = nil
        }
    }

    /// Writes `line` above the bar shown, if any; returns false when none is.
    static func printAboveActive(_ line: String) -> Bool {
        guard let bar = activeLock.withLock({ active }) else { return false }
        bar.printAbove(line)
        return true
    }

    /// Runs `work` with the stores' object-by-object reports (`StoreProgress`) shown on the
    /// bar: reading as a count, writing as a share of the total.
    func showingStoreProgress<T>(_ work: () throws -> T) rethrows -> T {
        guard sink.isTerminal else { return try work() }
        return try StoreProgress.$handler.withValue({ [self] event in
            update(event.done, of: event.total, label: event.phase == .reading ? "reading" : "writing")
        }, operation: work)
    }

    /// Clears the bar shown, if any (before an error ends the command).
    static func finishActive() {
        activeLock.withLock { active }?.finish()
    }

    /// The bar's text for `done` of `total` after `elapsed` seconds.
    static func text(label: String, unit: String, done: Int, total: Int?, elapsed: Double) -> String {
        let rate = elapsed > 0 ? Int((Double(done) / elapsed).rounded()) : 0
        let counts = "\(done)\(total.map { "/\($0)" } ?? "") \(unit), \(rate) \(unit)/s"
        guard let total else { return "\(label) \(counts)" }
        let percent = total > 0 ? min(100, done * 100 / total) : 100
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return "\(label) [\(bar)] \(percent)% \(counts)"
    }

    /// Draws the bar over its line (lock held).
    private func draw(at time: Double) {
        let text = Self.text(label: label, unit: unit, done: done, total: total, elapsed: time - started)
        sink.write(Self.clearLine + text)
        drawn = text
    }
}
