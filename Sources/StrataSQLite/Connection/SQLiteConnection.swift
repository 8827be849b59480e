internal import CSQLite
import Foundation

/// One open SQLite database: the thin layer every SQLite store call goes through.
///
/// WAL journal mode and a busy timeout let several coordinators and processes share a file;
/// statements are prepared once and cached by their SQL; every failure becomes a
/// ``SQLiteError`` with the SQL and SQLite's message. Not thread-safe: the store keeps it behind
/// a lock.
final class SQLiteConnection {
    /// The `sqlite3` handle; nil only after a failed open.
    private(set) var handle: OpaquePointer?
    /// The database file.
    let path: String
    private var statements: [String: SQLiteStatement] = [:]
    /// The file this connection opened (nil for a file that did not exist before a read-only
    /// open), so that the last reading connection to close removes the `-shm` they made.
    private var opening: SQLiteSidecarFiles.Opening?
    /// Whether the connection only reads (``AccessMode/readOnly`` or ``AccessMode/queryOnly``).
    private var onlyReads = false
    /// SQL debug output, when it was on as the connection opened (nil: off, nothing traced).
    private let statementLog: SQLStatementLog?

    /// How many prepared statements the cache keeps before it starts afresh.
    static let statementCacheLimit = 512

    /// How long a call waits for another connection's lock before failing with `SQLITE_BUSY`.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// How a connection may touch its file.
    enum AccessMode {
        /// Reads and writes, creating the file when `create`; the journal is switched to WAL.
        case readWrite(create: Bool)
        /// SQLite's read-only open: nothing is written to the database or its write-ahead log.
        /// (SQLite creates a `-shm` beside a WAL database that has none; the last connection
        /// removes it again when it closes, see ``SQLiteSidecarFiles``.)
        case readOnly
        /// Opened for writing but with `PRAGMA query_only`: SQL changes nothing, and the journal
        /// mode is left as it is. As the last connection of a WAL database it removes the
        /// `-wal` and `-shm` files it needed, as any SQLite connection does.
        case queryOnly
    }

    /// Opens (or, with `create`, creates) the database at `path`.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is not a database.
    convenience init(path: String, create: Bool = true, readOnly: Bool = false) throws(SQLiteError) {
        try self.init(path: path, mode: readOnly ? .readOnly : .readWrite(create: create))
    }

    /// Opens the database at `path` in `mode`.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is not a database.
    init(path: String, mode: AccessMode) throws(SQLiteError) {
        self.path = path
        statementLog = SQLStatementLog.forConnection(to: path)
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readWrite(let create): flags |= SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .queryOnly: flags |= SQLITE_OPEN_READWRITE
        }
        if case .readWrite = mode {} else {
            onlyReads = true
            opening = SQLiteSidecarFiles.shared.opened(path, writes: false)
        }
        var opened: OpaquePointer?
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        handle = opened
        guard result == SQLITE_OK, opened != nil else {
            let error = lastError(sql: nil, code: result)
            sqlite3_close_v2(opened)
            handle = nil
            throw error
        }
        if !onlyReads { opening = SQLiteSidecarFiles.shared.opened(path, writes: true) }
        sqlite3_extended_result_codes(opened, 1)
        if let statementLog, let opened { statementLog.install(on: opened) }
        sqlite3_busy_timeout(opened, Self.busyTimeoutMilliseconds)
        if case .queryOnly = mode { try execute("PRAGMA query_only = 1") }
        // Reading the schema is the first thing that notices a file that is not a database.
        try execute("SELECT count(*) FROM sqlite_master")
        // WAL with synchronous FULL: a committed save survives a power loss, whatever default
        // the system's SQLite was built with.
        if case .readWrite = mode { try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL") }
    }

    deinit {
        statements.removeAll()
        // A statement still alive in a caller's hands keeps the database open after the close
        // (a zombie connection): its `-shm` is then left to SQLite.
        let closesNow = handle.map { sqlite3_next_stmt($0, nil) == nil } ?? true
        // A statement that outlives the connection must not call into the log after it goes.
        if let statementLog, let handle { statementLog.uninstall(from: handle) }
        sqlite3_close_v2(handle)
        if let opening { SQLiteSidecarFiles.shared.closed(opening, removing: onlyReads && closesNow) }
    }

    /// The error for a failed call, with SQLite's message for this connection.
    func lastError(sql: String?, code: Int32) -> SQLiteError {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
        return SQLiteError(file: path, sql: sql, code: extended != 0 ? extended : code, message: message)
    }

    /// An error of our own making, in SQLite's terms.
    func error(sql: String?, code: Int32, message: String) -> SQLiteError {
        SQLiteError(file: path, sql: sql, code: code, message: message)
    }

    /// Runs one or more SQL statements that take no values (schema, pragmas).
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard result == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(result))
            throw SQLiteError(file: path, sql: sql, code: handle.map { sqlite3_extended_errcode($0) } ?? result, message: text)
        }
    }

    /// The prepared statement for `sql`, from the cache when it was prepared before.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var prepared: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard result == SQLITE_OK, let prepared else { throw lastError(sql: sql, code: result) }
        let statement = SQLiteStatement(handle: prepared, sql: sql, connection: self)
        // Translated fetches make a statement per predicate shape: keep the cache bounded. A
        // statement still in use lives on in its caller's hands and is finalized after it.
        if statements.count >= Self.statementCacheLimit { statements.removeAll(keepingCapacity: true) }
        statements[sql] = statement
        return statement
    }

    /// Runs `sql` with `values`.
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        try statement(sql).run(values)
    }

    /// The rows of `sql` with `values`, each read by `row`.
    func rows<T>(_ sql: String, _ values: [SQLiteValue] = [], _ row: (SQLiteStatement) throws -> T) throws -> [T] {
        let statement = try statement(sql)
        var result: [T] = []
        try statement.forEachRow(values) { result.append(try row($0)) }
        statement.reset()
        return result
    }

    /// The first column of the first row of `sql`, or nil when there is no row.
    func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        let statement = try statement(sql)
        try statement.bind(values)
        defer { statement.reset() }
        return try statement.step() ? statement.value(0) : nil
    }

    /// The rowid of the last insert.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// `BEGIN IMMEDIATE` takes the write lock at once, so two writers queue on the busy timeout
    /// instead of failing half-way.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(beginning: "BEGIN IMMEDIATE", body)
    }

    /// Runs `body` in one read transaction, so that every statement it runs reads the same
    /// state of the file: a deferred `BEGIN` (the first read takes the read lock), committed when
    /// `body` returns. Inside a transaction already open, `body` runs in that one.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard !isInTransaction else { return try body() }
        return try transaction(beginning: "BEGIN", body)
    }

    /// Runs `body` between `begin` and `COMMIT`, rolled back when it throws.
    private func transaction<T>(beginning begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` inside a savepoint: released when it returns, rolled back to when it throws
    /// (the enclosing transaction goes on).
    func savepoint<T>(_ name: String, _ body: () throws -> T) throws -> T {
        let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        try execute("SAVEPOINT \(quoted)")
        do {
            let result = try body()
            try execute("RELEASE \(quoted)")
            return result
        } catch {
            try? execute("ROLLBACK TO \(quoted)")
            try? execute("RELEASE \(quoted)")
            throw error
        }
    }
}
