import BenchmarkSupport
import Foundation
import GRDB

// GRDB records: the Codable row structs with FetchableRecord and PersistableRecord, on a
// DatabaseQueue in WAL mode. Dates are stored as seconds since 2001 (as the Strata store and the
// C API version store them) rather than GRDB's default text, so all three write the same values.
// The queue runs with `synchronous = FULL` like the other two (GRDB's WAL mode picks NORMAL).

extension AuthorRow: FetchableRecord, PersistableRecord {
    static let databaseTableName = "author"
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSinceReferenceDate }
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSinceReferenceDate }
}

extension BookRow: FetchableRecord, PersistableRecord {
    static let databaseTableName = "book"
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSinceReferenceDate }
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSinceReferenceDate }
}

enum GRDBEngine {
    static func open(_ file: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .wal
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        // GRDB's WAL mode sets `synchronous = NORMAL`; the other engines commit with FULL.
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return queue
    }

    static func run(_ phase: Phase, workload: Workload, file: URL) throws -> PhaseResult {
        switch phase {
        case .insert, .iterateSetup:
            try? FileManager.default.removeItem(at: file)
            let authors = workload.authorRows()
            let books = workload.bookRows()
            let queue = try open(file)
            try queue.write { db in try db.execute(sql: PlainSchema.sql) }
            let ((), seconds) = try timed {
                try queue.write { db in
                    for author in authors { try author.insert(db) }
                    for book in books { try book.insert(db) }
                }
            }
            return PhaseResult(seconds: seconds, objects: authors.count + books.count)

        case .fetchAll:
            let queue = try open(file)
            return try fastest(phase.repetitions) {
                let (authors, books) = try queue.read { db in (try AuthorRow.fetchAll(db), try BookRow.fetchAll(db)) }
                var sum = Checksum()
                for row in authors { sum.add(Checksum.of(row)) }
                for row in books { sum.add(Checksum.of(row)) }
                return (sum.rows, sum.value)
            }

        case .fetchIndexed:
            let queue = try open(file)
            return try fastest(phase.repetitions) {
                let books = try queue.read { db in
                    try BookRow.filter(Column("category") == Workload.fetchedCategory).order(Column("score")).fetchAll(db)
                }
                var sum = Checksum()
                for row in books { sum.append(Checksum.of(row)) }
                return (sum.rows, sum.value)
            }

        case .update:
            let queue = try open(file)
            let (changed, seconds) = try timed {
                try queue.write { db in
                    var books = try BookRow.filter(Column("category") == Workload.updatedCategory).fetchAll(db)
                    var authors = try AuthorRow.filter(Column("cohort") == Workload.updatedCohort).fetchAll(db)
                    for index in books.indices {
                        books[index].applyUpdate()
                        try books[index].update(db)
                    }
                    for index in authors.indices {
                        authors[index].applyUpdate()
                        try authors[index].update(db)
                    }
                    return books.count + authors.count
                }
            }
            return PhaseResult(seconds: seconds, objects: changed)

        case .delete:
            let queue = try open(file)
            let before = try queue.read { db in try AuthorRow.fetchCount(db) + BookRow.fetchCount(db) }
            let ((), seconds) = try timed {
                try queue.write { db in
                    // The records are deleted one by one; the foreign key's ON DELETE CASCADE
                    // removes their books.
                    for author in try AuthorRow.filter(Column("cohort") == Workload.deletedCohort).fetchAll(db) {
                        try author.delete(db)
                    }
                }
            }
            let after = try queue.read { db in try AuthorRow.fetchCount(db) + BookRow.fetchCount(db) }
            return PhaseResult(seconds: seconds, objects: before - after)

        case .count, .countWhere:
            let queue = try open(file)
            return try fastest(phase.repetitions) {
                let total = try queue.read { db in
                    phase == .count
                        ? try AuthorRow.fetchCount(db) + BookRow.fetchCount(db)
                        : try BookRow.filter(Column("category") == Workload.fetchedCategory).fetchCount(db)
                }
                return (total, UInt64(total))
            }

        case .group:
            let queue = try open(file)
            return try fastest(phase.repetitions) {
                try queue.read { db in
                    var sum = Checksum()
                    for row in try Row.fetchAll(db, sql: workload.groupSQL) {
                        sum.append(Checksum.group(category: row[0], count: row[1], lowestScore: row[2]))
                    }
                    return (sum.rows, sum.value)
                }
            }

        case .iterate:
            let queue = try open(file)
            return try fastest(phase.repetitions) {
                try queue.read { db in
                    var sum = Checksum()
                    let cursor = try BookRow.fetchCursor(db)
                    while var row = try cursor.next() {
                        row.authorId = nil   // the iteration reads attributes only
                        sum.add(Checksum.of(row))
                    }
                    return (sum.rows, sum.value)
                }
            }
        }
    }
}
