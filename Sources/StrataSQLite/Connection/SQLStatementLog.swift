internal import CSQLite
import Foundation
import Logging

/// SQL debug output for one connection: every statement it runs, logged at `.debug` when the
/// statement finishes, with its time and, by ``Detail``, its bound values and row count
/// (Core Data's `com.apple.CoreData.SQLDebug`; see `docs/sql-debug.md`).
///
/// It is SQLite's own trace hook (`sqlite3_trace_v2`), installed only on a connection opened
/// while the output is on: with it off nothing is installed, and running a statement costs
/// nothing more. Used only under the connection's lock, as the connection is.
final class SQLStatementLog {
    /// How much each statement's entry says.
    enum Detail: Int, Comparable {
        /// The SQL as written (with `?` for values) and the time it took.
        case statements = 1
        /// The SQL with its bound values in place of the `?`, long ones abbreviated.
        case boundValues = 2
        /// As ``boundValues``, and how many rows the statement gave.
        case rowCounts = 3

        static func < (lhs: Detail, rhs: Detail) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Where the entries go (at `.debug`).
    let logger: Logger
    /// What each entry says.
    let detail: Detail
    /// The database file, in each entry's metadata.
    let file: String
    /// When each running statement took its first step.
    private var started: [OpaquePointer: ContinuousClock.Instant] = [:]
    /// The rows each running statement has given (with ``Detail/rowCounts``).
    private var rows: [OpaquePointer: Int] = [:]

    /// A log writing to `logger` with `detail` for the database at `file`.
    init(logger: Logger, detail: Detail, file: String) {
        self.logger = logger
        self.detail = detail
        self.file = file
    }

    /// The log for a connection to `file` opened now, or nil while SQL debug output is off (see
    /// ``SQLiteStore/sqlDebugLogger``): the environment variable
    /// ``SQLiteStore/sqlDebugEnvironmentVariable`` sets the detail (and makes the logger log
    /// `.debug`); otherwise the logger's level does, `.debug` for bound values, `.trace` for
    /// row counts too.
    static func forConnection(to file: String) -> SQLStatementLog? {
        var logger = SQLiteStore.sqlDebugLogger
        let detail: Detail
        if let level = SQLiteStore.sqlDebugEnvironmentLevel() {
            detail = level
            if logger.logLevel > .debug { logger.logLevel = .debug }
        } else if logger.logLevel <= .debug {
            detail = logger.logLevel == .trace ? .rowCounts : .boundValues
        } else {
            return nil
        }
        return SQLStatementLog(logger: logger, detail: detail, file: file)
    }

    /// Installs the trace hook on `handle`; ``uninstall(from:)`` must run before this log goes.
    func install(on handle: OpaquePointer) {
        var events = SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE
        if detail >= .rowCounts { events |= SQLITE_TRACE_ROW }
        // Unmanaged: SQLite keeps a C pointer to the log; the connection owns the log and
        // removes the hook before it lets the log go.
        sqlite3_trace_v2(handle, UInt32(events), { event, context, statement, value in
            guard let context, let statement else { return 0 }
            Unmanaged<SQLStatementLog>.fromOpaque(context).takeUnretainedValue()
                .receive(event, statement: OpaquePointer(statement), value: value)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Removes the trace hook from `handle`.
    func uninstall(from handle: OpaquePointer) {
        sqlite3_trace_v2(handle, 0, nil, nil)
    }

    /// One trace event of SQLite's for `statement`.
    private func receive(_ event: UInt32, statement: OpaquePointer, value: UnsafeMutableRawPointer?) {
        switch Int32(event) {
        case SQLITE_TRACE_STMT:
            // Also sent as each trigger starts, with a comment (`-- TRIGGER …`) for text: the
            // statement's time runs from its first step.
            if let text = value?.assumingMemoryBound(to: UInt8.self), text[0] == UInt8(ascii: "-"), text[1] == UInt8(ascii: "-") {
                return
            }
            started[statement] = .now
            if detail >= .rowCounts { rows[statement] = 0 }
        case SQLITE_TRACE_ROW:
            // Only the statements this log saw start (SQLite's own, reading the schema, are not).
            rows[statement]? += 1
        case SQLITE_TRACE_PROFILE:
            finished(statement)
        default:
            break
        }
    }

    /// Logs `statement`, which is done, was reset or failed.
    private func finished(_ statement: OpaquePointer) {
        let duration = started.removeValue(forKey: statement).map { ContinuousClock.now - $0 } ?? .zero
        let count = rows.removeValue(forKey: statement)
        var sql = ""
        if detail >= .boundValues, let expanded = sqlite3_expanded_sql(statement) {
            sql = Self.abbreviatingLiterals(String(cString: expanded))
            sqlite3_free(expanded)
        } else if let text = sqlite3_sql(statement) {
            sql = String(cString: text)
        }
        var metadata: Logger.Metadata = [
            "sql.file": .string(file),
            "sql.milliseconds": .string(Self.milliseconds(duration)),
        ]
        if detail >= .rowCounts { metadata["sql.rows"] = .string(String(count ?? 0)) }
        logger.debug("\(sql)", metadata: metadata)
    }

    /// `duration` in milliseconds with three decimals.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
