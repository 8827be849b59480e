import CSQLite
import Foundation
@testable import StrataSQLite

/// The statements a traced connection ran, in order, as SQLite's statement trace reports them
/// (`SQLITE_TRACE_STMT`: once per run of a statement, with its SQL as written).
///
/// The trace calls back on whichever thread runs the statement, so the list is kept under
/// `lock`, which is what makes the class `Sendable`.
final class StatementLog: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []

    /// The statements recorded so far.
    var sql: [String] { lock.withLock { statements } }

    /// Records one statement.
    func append(_ statement: String) { lock.withLock { statements.append(statement) } }

    /// Records every statement the connection of `store` starts while `body` runs, on any thread.
    static func tracing<T>(_ store: SQLiteStore, _ body: (StatementLog) throws -> T) throws -> T {
        let log = StatementLog()
        let handle = try store.withConnection { $0.connection.handle }
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
            guard let context, let statement, let sql = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
            Unmanaged<StatementLog>.fromOpaque(context).takeUnretainedValue().append(String(cString: sql))
            return 0
        }, Unmanaged.passUnretained(log).toOpaque())
        defer { sqlite3_trace_v2(handle, 0, nil, nil) }
        return try withExtendedLifetime(log) { try body(log) }
    }
}

/// The SQL of every statement `store`'s connection starts while `body` runs, in order.
func statementsRun<T>(on store: SQLiteStore, _ body: () throws -> T) throws -> (result: T, sql: [String]) {
    try StatementLog.tracing(store) { log in
        let result = try body()
        return (result, log.sql)
    }
}
