import Foundation

/// How many times the kill tests kill a process: `STRATA_KILL_RUNS` when set (the long form,
/// `STRATA_KILL_RUNS=1000 swift test --filter CrashSafety`), else each test's own default.
public enum KillRuns {
    /// The environment variable that sets the count.
    public static let variable = "STRATA_KILL_RUNS"

    /// `STRATA_KILL_RUNS` when it is a positive number, else `default`.
    public static func count(default defaultCount: Int) -> Int {
        guard let text = ProcessInfo.processInfo.environment[variable], let count = Int(text), count > 0 else {
            return defaultCount
        }
        return count
    }
}
