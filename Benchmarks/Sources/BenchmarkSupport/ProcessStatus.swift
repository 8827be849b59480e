import Foundation

/// The benchmark process's memory, from `/proc/self/status` (0 where there is no /proc).
public enum ProcessStatus {
    /// VmHWM: the peak resident size so far, in KiB.
    public static func peakKiB() -> Int { field("VmHWM:") }

    /// VmRSS: the current resident size, in KiB.
    public static func residentKiB() -> Int { field("VmRSS:") }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
