import BenchmarkSupport
import Foundation
import GRDBSQLite

/// A read-only connection of SQLite's C API on the store's file.
final class RawConnection {
    let handle: OpaquePointer

    init(path: String) throws {
        var opened: OpaquePointer?
        guard sqlite3_open_v2(path, &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let opened else {
            sqlite3_close_v2(opened)
            throw BenchmarkError("cannot open \(path)")
        }
        handle = opened
    }

    deinit { sqlite3_close_v2(handle) }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchmarkError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        return statement
    }

    /// The text of the first column of every row of `sql`.
    func texts(_ sql: String) throws -> [String] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var result: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            result.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
        return result
    }

    /// The clubs' join table and its student and club columns, read from the schema.
    func joinTable() throws -> (table: String, member: String, club: String) {
        guard let table = try texts("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\' "
                                    + "AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')").first else {
            throw BenchmarkError("no join table")
        }
        let columns = try texts("SELECT name FROM pragma_table_info('\(table)')")
        guard let member = columns.first(where: { $0.hasSuffix("MEMBERS") }),
              let club = columns.first(where: { $0.hasSuffix("CLUBS") }) else {
            throw BenchmarkError("join table \(table) has columns \(columns)")
        }
        return (table, member, club)
    }

    /// The students `condition` selects, each row's key, name and year read as an app reads
    /// them: how many, and the sum of their keys.
    func students(where condition: String) throws -> (rows: Int, keySum: Int) {
        let statement = try prepare("SELECT s.Z_PK, s.ZNAME, s.ZYEAR FROM ZSTUDENT s WHERE \(condition) ORDER BY s.Z_PK")
        defer { sqlite3_finalize(statement) }
        var rows = 0, keySum = 0, nameBytes = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            keySum += Int(sqlite3_column_int64(statement, 0))
            if let text = sqlite3_column_text(statement, 1) {
                let name = String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, 1))),
                                  as: UTF8.self)
                nameBytes &+= name.utf8.count
            }
            nameBytes &+= Int(sqlite3_column_int(statement, 2)) & 0
            rows += 1
        }
        return (rows, keySum)
    }
}

extension RawConnection {
    /// How many students `condition` selects.
    func count(where condition: String) throws -> Int {
        let statement = try prepare("SELECT count(*) FROM ZSTUDENT s WHERE \(condition)")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchmarkError("count: \(String(cString: sqlite3_errmsg(handle)))") }
        return Int(sqlite3_column_int64(statement, 0))
    }
}

