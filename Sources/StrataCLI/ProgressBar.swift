import Foundation

/// A progress bar on standard error, drawn only when standard error is a terminal, so logs and
/// pipes never see it.
final class ProgressBar {
    private let label: String
    private let isVisible: Bool
    private var lastDrawn = -1

    /// A bar labelled `label` (for example `exporting`).
    init(_ label: String) {
        self.label = label
        self.isVisible = isatty(STDERR_FILENO) == 1
    }

    /// Shows `done` of `total`.
    func update(_ done: Int, of total: Int) {
        guard isVisible, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(percent)% (\(done)/\(total))".utf8))
    }

    /// Clears the bar.
    func finish() {
        guard isVisible, lastDrawn >= 0 else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
