import BenchmarkSupport
import GRDBSQLite

/// A connection of SQLite's C API, opened as every engine of the SQLite benchmarks runs: WAL
/// mode, `synchronous = FULL`, foreign keys on. Closed when released.
public final class RawDatabase {
    /// The connection, for the C API's calls.
    public let handle: OpaquePointer

    /// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs.
    public static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Opens (creating) the database at `path`.
    public init(path: String) throws {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &opened, flags, nil) == SQLITE_OK, let opened else {
            sqlite3_close_v2(opened)
            throw BenchmarkError("cannot open \(path)")
        }
        handle = opened
        try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
    }

    deinit { sqlite3_close_v2(handle) }

    /// An error naming `what` with SQLite's message for the connection's last failure.
    public func failure(_ what: String) -> BenchmarkError {
        BenchmarkError("\(what): \(String(cString: sqlite3_errmsg(handle)))")
    }

    /// Runs `sql`, one or more statements that return no rows.
    public func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    /// A prepared statement of `sql`, for the caller to finalize.
    public func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure(sql) }
        return statement
    }

    /// Steps a statement that returns no rows, then resets it.
    public func done(_ statement: OpaquePointer) throws {
        guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("step") }
        sqlite3_reset(statement)
    }

    /// The integer in the first column of the first row of `sql`.
    public func scalar(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw failure(sql) }
        return Int(sqlite3_column_int64(statement, 0))
    }

    /// Every row of `sql`, each read by `read`.
    public func rows<T>(_ sql: String, _ read: (OpaquePointer) -> T) throws -> [T] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var result: [T] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: result.append(read(statement))
            case SQLITE_DONE: return result
            default: throw failure(sql)
            }
        }
    }
}
