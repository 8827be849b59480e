internal import CSQLite
import Foundation

/// One column of a statement's current row, as SQLite holds it (an unprotected
/// `sqlite3_value`): valid until the statement steps, resets or is finalised, and read under
/// the connection's lock like the statement itself. Connections are opened without SQLite's own
/// mutex, so reading an unprotected value needs no lock of SQLite's.
struct SQLiteColumn {
    let value: OpaquePointer?

    /// The storage class of the value: what SQLite stored, whatever the column declares.
    var storageClass: SQLiteStatement.StorageClass { SQLiteStatement.StorageClass(sqliteType: sqlite3_value_type(value)) }

    /// Whether the value is NULL.
    var isNull: Bool { sqlite3_value_type(value) == SQLITE_NULL }

    /// The value as an integer.
    var int64: Int64 { sqlite3_value_int64(value) }

    /// The value as a double.
    var double: Double { sqlite3_value_double(value) }

    /// The value as text; empty for NULL.
    var text: String {
        guard let pointer = sqlite3_value_text(value) else { return "" }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The value, a BLOB, as bytes.
    var blobBytes: Data {
        let count = Int(sqlite3_value_bytes(value))
        guard count > 0, let pointer = sqlite3_value_blob(value) else { return Data() }
        return Data(bytes: pointer, count: count)
    }
}
