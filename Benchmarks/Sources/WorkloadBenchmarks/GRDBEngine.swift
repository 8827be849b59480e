import BenchmarkSupport
import Foundation
import GRDB

// GRDB records on a DatabaseQueue in WAL mode, set to `synchronous = FULL` like the other two
// engines (GRDB's WAL mode picks NORMAL); dates as seconds since 2001, as the others store them.

extension PersonRow: FetchableRecord, PersistableRecord {
    static let databaseTableName = "person"
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSinceReferenceDate }
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSinceReferenceDate }
}

extension PetRow: FetchableRecord, PersistableRecord {
    static let databaseTableName = "pet"
}

/// The workload with GRDB records: inserts and updates record by record, fetches through the
/// query interface, the delete as one request (the foreign key cascades).
enum GRDBEngine {
    static func open(_ file: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .wal
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return queue
    }

    static let age = Column("age")
    static var range: QueryInterfaceRequest<PersonRow> {
        PersonRow.filter(age >= Workload.rangeLow && age <= Workload.rangeHigh)
    }

    static func fetchAll(_ queue: DatabaseQueue) throws -> (rows: Int, digest: UInt64) {
        var digest = Digest()
        for row in try queue.read({ db in try PersonRow.fetchAll(db) }) { digest.sum(Digest.of(row)) }
        return (digest.rows, digest.value)
    }

    static func run(_ workload: Workload, file: URL, repeats: Int) throws -> RunRecord {
        var record = RunRecord()
        try? FileManager.default.removeItem(at: file)
        let persons = workload.personRows(), pets = workload.petRows()
        do {
            let queue = try open(file)
            try queue.write { db in try db.execute(sql: PlainSchema.sql) }
            let ((), seconds) = try timed {
                try queue.write { db in
                    for person in persons { try person.insert(db) }
                    for pet in pets { try pet.insert(db) }
                }
            }
            record.record(.insert, seconds: seconds, rows: persons.count + pets.count)
        }
        let queue = try open(file)
        let (cold, coldSeconds) = try timed { try fetchAll(queue) }
        record.record(.cold, seconds: coldSeconds, rows: cold.rows, digest: cold.digest)
        try record.repeated(.warm, times: repeats) { try fetchAll(queue) }
        try record.repeated(.binary, times: repeats) {
            var digest = Digest()
            for row in try queue.read({ db in try range.order(Column("name")).fetchAll(db) }) { digest.append(id: row.id, name: row.name) }
            return (digest.rows, digest.value)
        }
        try record.repeated(.localized, times: repeats) {
            var digest = Digest()
            let rows = try queue.read { db in try range.fetchAll(db) }.sorted { Workload.localizedAscending($0.name, $1.name) }
            for row in rows { digest.append(id: row.id, name: row.name) }
            return (digest.rows, digest.value)
        }
        let (updated, updateSeconds) = try timed {
            try queue.write { db in
                let rows = try PersonRow.filter(age < Workload.updatedBelow).fetchAll(db)
                for row in rows { try Workload.updated(row).update(db) }
                return rows.count
            }
        }
        record.record(.update, seconds: updateSeconds, rows: updated)
        let (afterUpdate, countSeconds) = try timed { try queue.read { db in try PersonRow.fetchCount(db) } }
        record.record(.countUpdate, seconds: countSeconds, rows: afterUpdate)
        let (deleted, deleteSeconds) = try timed {
            try queue.write { db in try PersonRow.filter(age >= Workload.deletedFrom).deleteAll(db) }
        }
        record.record(.delete, seconds: deleteSeconds, rows: deleted)
        let (afterDelete, count2Seconds) = try timed {
            try queue.read { db in try PersonRow.fetchCount(db) + PetRow.fetchCount(db) }
        }
        record.record(.countDelete, seconds: count2Seconds, rows: afterDelete)
        return record
    }

    /// Reads every person of a file the C API wrote into records.
    static func millionFetch(file: URL) throws -> Int {
        let queue = try open(file)
        let rows = try queue.read { db in try PersonRow.fetchAll(db) }
        return withExtendedLifetime(rows) { rows.count }
    }
}
