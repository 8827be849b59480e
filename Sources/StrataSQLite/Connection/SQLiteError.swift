/// A failed SQLite call: the file, the SQL, SQLite's result code and its message.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database file.
    public var file: String
    /// The SQL being run, when there was one.
    public var sql: String?
    /// SQLite's extended result code (`SQLITE_BUSY` is 5, `SQLITE_CONSTRAINT_UNIQUE` 2067, …).
    public var code: Int32
    /// SQLite's message.
    public var message: String

    /// Creates an error.
    public init(file: String, sql: String?, code: Int32, message: String) {
        self.file = file
        self.sql = sql
        self.code = code
        self.message = message
    }

    /// The primary result code (the low byte of ``code``).
    public var primaryCode: Int32 { code & 0xFF }

    /// `file: message (SQLite error N) in: SQL`.
    public var description: String {
        "\(file): \(message) (SQLite error \(code))" + (sql.map { " in: \($0)" } ?? "")
    }
}
