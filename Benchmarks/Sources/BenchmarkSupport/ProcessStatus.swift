import Foundation

/// The benchmark process's memory, from `/proc/self/status` (0 where there is no /proc).
public enum ProcessStatus {
    /// VmHWM: the peak resident size so far, in KiB.
    public static func peakKiB() -> Int { field("VmHWM:") }

    /// VmRSS: the current resident size, in KiB.
    public static func residentKiB() -> Int { field("VmRSS:") }

    /// Sets the peak resident size (VmHWM) back to the current one (Linux: `5` written to
    /// `/proc/self/clear_refs`), so that the next ``peakKiB()`` is the peak since this call.
    /// Returns false where that cannot be done.
    @discardableResult
    public static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
