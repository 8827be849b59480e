import BenchmarkSupport
import Foundation
import GRDBSQLite
import SQLiteBenchmarkSupport

/// The workload in hand-written SQL through the C API: prepared statements, one transaction per
/// write, the rules checked by the schema's `CHECK` constraints, the cascade by the foreign key.
enum RawEngine {
    static let personColumns = "id, name, email, age, score, joined, active"

    static func readPerson(_ s: OpaquePointer) -> PersonRow {
        PersonRow(id: sqlite3_column_int64(s, 0), name: columnText(s, 1), email: columnText(s, 2),
                  age: Int16(truncatingIfNeeded: sqlite3_column_int(s, 3)), score: sqlite3_column_double(s, 4),
                  joined: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(s, 5)), active: sqlite3_column_int(s, 6) != 0)
    }

    static func insert(_ db: RawDatabase, persons: [PersonRow], pets: [PetRow]) throws {
        try db.execute("BEGIN IMMEDIATE")
        let p = try db.prepare("INSERT INTO person (\(personColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(p) }
        for row in persons {
            sqlite3_bind_int64(p, 1, row.id)
            bindText(p, 2, row.name)
            bindText(p, 3, row.email)
            sqlite3_bind_int(p, 4, Int32(row.age))
            sqlite3_bind_double(p, 5, row.score)
            sqlite3_bind_double(p, 6, row.joined.timeIntervalSinceReferenceDate)
            sqlite3_bind_int(p, 7, row.active ? 1 : 0)
            try db.done(p)
        }
        let q = try db.prepare("INSERT INTO pet (id, name, species, weight, ownerId) VALUES (?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(q) }
        for row in pets {
            sqlite3_bind_int64(q, 1, row.id)
            bindText(q, 2, row.name)
            sqlite3_bind_int(q, 3, Int32(row.species))
            sqlite3_bind_double(q, 4, row.weight)
            sqlite3_bind_int64(q, 5, row.ownerId)
            try db.done(q)
        }
        try db.execute("COMMIT")
    }

    static func fetchAll(_ db: RawDatabase) throws -> (rows: Int, digest: UInt64) {
        var digest = Digest()
        for row in try db.rows("SELECT \(personColumns) FROM person", readPerson) { digest.sum(Digest.of(row)) }
        return (digest.rows, digest.value)
    }

    static let rangeSQL = "SELECT \(personColumns) FROM person WHERE age BETWEEN \(Workload.rangeLow) AND \(Workload.rangeHigh)"

    static func run(_ workload: Workload, file: URL, repeats: Int) throws -> RunRecord {
        var record = RunRecord()
        try? FileManager.default.removeItem(at: file)
        let persons = workload.personRows(), pets = workload.petRows()
        do {
            let db = try RawDatabase(path: file.path)
            try db.execute(PlainSchema.sql)
            let ((), seconds) = try timed { try insert(db, persons: persons, pets: pets) }
            record.record(.insert, seconds: seconds, rows: persons.count + pets.count)
        }
        let db = try RawDatabase(path: file.path)
        let (cold, coldSeconds) = try timed { try fetchAll(db) }
        record.record(.cold, seconds: coldSeconds, rows: cold.rows, digest: cold.digest)
        try record.repeated(.warm, times: repeats) { try fetchAll(db) }
        try record.repeated(.binary, times: repeats) {
            var digest = Digest()
            for row in try db.rows(rangeSQL + " ORDER BY name", readPerson) { digest.append(id: row.id, name: row.name) }
            return (digest.rows, digest.value)
        }
        try record.repeated(.localized, times: repeats) {
            var digest = Digest()
            let rows = try db.rows(rangeSQL, readPerson).sorted { Workload.localizedAscending($0.name, $1.name) }
            for row in rows { digest.append(id: row.id, name: row.name) }
            return (digest.rows, digest.value)
        }
        let (updated, updateSeconds) = try timed {
            try db.execute("BEGIN IMMEDIATE")
            let rows = try db.rows("SELECT \(personColumns) FROM person WHERE age < \(Workload.updatedBelow)", readPerson)
            let statement = try db.prepare("UPDATE person SET score = ?, active = ? WHERE id = ?")
            defer { sqlite3_finalize(statement) }
            for row in rows {
                let new = Workload.updated(row)
                sqlite3_bind_double(statement, 1, new.score)
                sqlite3_bind_int(statement, 2, new.active ? 1 : 0)
                sqlite3_bind_int64(statement, 3, new.id)
                try db.done(statement)
            }
            try db.execute("COMMIT")
            return rows.count
        }
        record.record(.update, seconds: updateSeconds, rows: updated)
        let (afterUpdate, countSeconds) = try timed { try db.scalar("SELECT count(*) FROM person") }
        record.record(.countUpdate, seconds: countSeconds, rows: afterUpdate)
        let (deleted, deleteSeconds) = try timed {
            try db.execute("BEGIN IMMEDIATE")
            try db.execute("DELETE FROM person WHERE age >= \(Workload.deletedFrom)")
            let changes = Int(sqlite3_changes(db.handle))
            try db.execute("COMMIT")
            return changes
        }
        record.record(.delete, seconds: deleteSeconds, rows: deleted)
        let (afterDelete, count2Seconds) = try timed {
            try db.scalar("SELECT count(*) FROM person") + db.scalar("SELECT count(*) FROM pet")
        }
        record.record(.countDelete, seconds: count2Seconds, rows: afterDelete)
        return record
    }

    /// Writes `count` persons (no pets) for the million fetch.
    static func millionSetup(_ workload: Workload, file: URL) throws {
        try? FileManager.default.removeItem(at: file)
        let db = try RawDatabase(path: file.path)
        try db.execute(PlainSchema.sql)
        try insert(db, persons: workload.personRows(), pets: [])
    }

    /// Reads every person into rows, as a plain fetch does.
    static func millionFetch(file: URL) throws -> Int {
        let db = try RawDatabase(path: file.path)
        let rows = try db.rows("SELECT \(personColumns) FROM person", readPerson)
        return withExtendedLifetime(rows) { rows.count }
    }
}
