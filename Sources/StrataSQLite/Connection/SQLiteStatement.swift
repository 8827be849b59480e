internal import CSQLite
import Foundation

/// A prepared statement: bind values, step through rows, read columns. Owned by one
/// ``SQLiteConnection`` and used only under its lock.
final class SQLiteStatement {
    private let handle: OpaquePointer
    /// The SQL text.
    let sql: String
    private unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, sql: String, connection: SQLiteConnection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Resets the statement and binds `values` to its parameters `?1…?n`.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        guard Int(sqlite3_bind_parameter_count(handle)) == values.count else {
            throw connection.error(sql: sql, code: SQLITE_RANGE,
                                   message: "the statement takes \(sqlite3_bind_parameter_count(handle)) values, \(values.count) given")
        }
        for (offset, value) in values.enumerated() { try bind(value, at: offset) }
    }

    /// Binds `value` to the parameter at `offset` (0 for the first), leaving the others as they
    /// are: for a caller that binds every parameter itself after ``reset()``.
    func bind(_ value: SQLiteValue, at offset: Int) throws(SQLiteError) {
        let index = Int32(offset + 1)
        let result: Int32 = switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let integer): sqlite3_bind_int64(handle, index, integer)
        case .real(let real): sqlite3_bind_double(handle, index, real)
        case .text(let text): bindText(text, at: index)
        case .blob(let data): bindBlob(data, at: index)
        }
        guard result == SQLITE_OK else { throw connection.lastError(sql: sql, code: result) }
    }

    /// `SQLITE_STATIC`: SQLite reads bound text and blobs where they are, without a copy of its
    /// own; the bytes must stay where they are until the parameter is bound again or cleared.
    private static let inPlace = unsafeBitCast(0, to: sqlite3_destructor_type.self)

    /// Binds `text` to the parameter at `offset` (0 for the first) where its bytes are, without
    /// SQLite copying them (a `malloc`, a copy and a `free` a value), and calls `body`, which
    /// runs the statement; the caller calls ``clearBindings()`` once this returns or throws, so
    /// the binding does not outlive the bytes. An empty text is bound as ``bind(_:at:)`` binds it.
    func withBytes<R>(of text: String, boundAt offset: Int, _ body: () throws -> R) throws -> R {
        guard !text.isEmpty else {
            try bind(.text(text), at: offset)
            return try body()
        }
        var text = text
        return try text.withUTF8 { bytes in
            let result = bytes.withMemoryRebound(to: CChar.self) { characters in
                sqlite3_bind_text64(handle, Int32(offset + 1), characters.baseAddress, sqlite3_uint64(characters.count),
                                    Self.inPlace, UInt8(SQLITE_UTF8))
            }
            guard result == SQLITE_OK else { throw connection.lastError(sql: sql, code: result) }
            return try body()
        }
    }

    /// Binds `data` to the parameter at `offset` (0 for the first) where its bytes are, as
    /// `withBytes(of:boundAt:_:)` binds text, and calls `body`, which runs the statement; the
    /// caller then clears the bindings. Empty bytes are bound as ``bind(_:at:)`` binds them.
    func withBytes<R>(of data: Data, boundAt offset: Int, _ body: () throws -> R) throws -> R {
        guard !data.isEmpty else {
            try bind(.blob(data), at: offset)
            return try body()
        }
        return try data.withUnsafeBytes { bytes in
            let result = sqlite3_bind_blob64(handle, Int32(offset + 1), bytes.baseAddress, sqlite3_uint64(bytes.count), Self.inPlace)
            guard result == SQLITE_OK else { throw connection.lastError(sql: sql, code: result) }
            return try body()
        }
    }

    /// Sets every parameter to NULL (what `withBytes(of:boundAt:_:)` needs before
    /// the bytes it bound go).
    func clearBindings() { sqlite3_clear_bindings(handle) }

    /// Binds `text` to parameter `index` (1 for the first); returns SQLite's result code.
    private func bindText(_ text: String, at index: Int32) -> Int32 {
        guard !text.isEmpty else {
            return sqlite3_bind_text(handle, index, "", 0, Self.transient)   // empty text, not NULL
        }
        var text = text
        // With its byte count, so a NUL inside the text is data, not its end.
        return text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                sqlite3_bind_text64(handle, index, characters.baseAddress, sqlite3_uint64(characters.count),
                                    Self.transient, UInt8(SQLITE_UTF8))
            }
        }
    }

    /// Binds `data` to parameter `index` (1 for the first); returns SQLite's result code.
    private func bindBlob(_ data: Data, at index: Int32) -> Int32 {
        guard !data.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }   // an empty blob, not NULL
        return data.withUnsafeBytes { bytes in
            sqlite3_bind_blob64(handle, index, bytes.baseAddress, sqlite3_uint64(bytes.count), Self.transient)
        }
    }

    /// Runs the statement, with what was bound since ``reset()``, to its end.
    func runBound() throws(SQLiteError) {
        while try step() {}
    }

    /// Advances to the next row: true when there is one, false when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.lastError(sql: sql, code: code)
        }
    }

    /// Binds `values` and runs the statement to its end.
    func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    /// Binds `values` and calls `row` for each result row.
    func forEachRow(_ values: [SQLiteValue] = [], _ row: (SQLiteStatement) throws -> Void) throws {
        try bind(values)
        while try step() { try row(self) }
    }

    /// The number of result columns.
    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of result column `index`.
    func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The storage class of a value in a row: what SQLite stored, whatever the column declares.
    enum StorageClass {
        case integer, real, text, blob, null

        /// The storage class SQLite's fundamental datatype code `type` names: asked for every
        /// column of every row read, so made in place.
        @inline(__always)
        init(sqliteType type: Int32) {
            self = switch type {
            case SQLITE_INTEGER: .integer
            case SQLITE_FLOAT: .real
            case SQLITE_TEXT: .text
            case SQLITE_BLOB: .blob
            default: .null
            }
        }
    }

    /// The storage class of column `index` of the current row.
    func storageClass(_ index: Int) -> StorageClass {
        StorageClass(sqliteType: sqlite3_column_type(handle, Int32(index)))
    }

    /// Column `index` of the current row as SQLite holds it, to read its storage class and then
    /// its value with one call into SQLite: each `sqlite3_column_*` call checks the statement and
    /// the connection's error state again, which for a row of many columns costs more than
    /// reading them.
    func column(_ index: Int) -> SQLiteColumn {
        SQLiteColumn(value: sqlite3_column_value(handle, Int32(index)))
    }

    /// Whether column `index` of the current row is NULL.
    func isNull(_ index: Int) -> Bool { sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL }

    /// Column `index` as an integer.
    func int64(_ index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(index)) }

    /// Column `index` as a double.
    func double(_ index: Int) -> Double { sqlite3_column_double(handle, Int32(index)) }

    /// Column `index` as text (nil for NULL).
    func text(_ index: Int) -> String? {
        guard let pointer = sqlite3_column_text(handle, Int32(index)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Column `index` as bytes (nil for NULL).
    func blob(_ index: Int) -> Data? {
        let column = Int32(index)
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: pointer, count: count)
    }

    /// Column `index` in its own storage class.
    func value(_ index: Int) -> SQLiteValue {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: .integer(int64(index))
        case SQLITE_FLOAT: .real(double(index))
        case SQLITE_TEXT: .text(text(index) ?? "")
        case SQLITE_BLOB: .blob(blob(index) ?? Data())
        default: .null
        }
    }

    /// Releases locks and cursors so the statement can wait in the cache.
    func reset() { sqlite3_reset(handle) }
}
