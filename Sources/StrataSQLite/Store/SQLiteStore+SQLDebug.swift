import Foundation
import Logging
@_spi(StoreImplementation) import StrataCore

extension SQLiteStore {
    /// The logger of SQL debug output, set with ``sqlDebugLogger``; nil: a new
    /// `Logger(label: "strata.sqlite.sql")` of the logging system at each open.
    private static let sqlDebugLoggerSetting = LockedValue<Logger?>(nil)

    /// The logger that SQL debug output goes to: every statement an SQLite store runs, logged at
    /// `.debug` with its time and bound values when it finishes (Core Data's
    /// `com.apple.CoreData.SQLDebug`; see `docs/sql-debug.md`).
    ///
    /// The output is on for a store opened while this logger's level is `.debug` (statements,
    /// times, bound values) or `.trace` (and row counts), or while the environment variable
    /// ``sqlDebugEnvironmentVariable`` is set to 1, 2 or 3. By default it is a logger labelled
    /// `strata.sqlite.sql` from the logging system (`LoggingSystem.bootstrap`), whose level is
    /// `.info` unless the logging backend says otherwise: off. A store reads the setting when it
    /// opens its file; while it is off, running a statement costs nothing more.
    ///
    /// ```swift
    /// var logger = Logger(label: "strata.sqlite.sql")
    /// logger.logLevel = .debug
    /// SQLiteStore.sqlDebugLogger = logger
    /// ```
    public static var sqlDebugLogger: Logger {
        get { sqlDebugLoggerSetting.withLock { $0 } ?? Logger(label: "strata.sqlite.sql") }
        set { sqlDebugLoggerSetting.withLock { $0 = newValue } }
    }

    /// The environment variable that switches SQL debug output on for every store the process
    /// opens from then on (as Core Data's `-com.apple.CoreData.SQLDebug 1` does):
    /// `STRATA_SQL_DEBUG=1` logs each statement and its time, `2` also its bound values, `3` also
    /// the rows it gave. Entries go to ``sqlDebugLogger`` at `.debug`, whatever its level.
    public static let sqlDebugEnvironmentVariable = "STRATA_SQL_DEBUG"

    /// The detail ``sqlDebugEnvironmentVariable`` asks for: nil when it is not set or is `0`;
    /// a value above 3 asks for everything.
    static func sqlDebugEnvironmentLevel() -> SQLStatementLog.Detail? {
        guard let value = getenv(sqlDebugEnvironmentVariable).map({ String(cString: $0) }),
              let level = Int(value.trimmingCharacters(in: .whitespaces)), level > 0 else { return nil }
        return SQLStatementLog.Detail(rawValue: min(level, 3))
    }
}
