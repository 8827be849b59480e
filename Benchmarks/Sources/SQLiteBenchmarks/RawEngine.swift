import BenchmarkSupport
import Foundation
import GRDBSQLite
import SQLiteBenchmarkSupport

/// The workload written straight against SQLite's C API: prepared statements, one transaction
/// per write phase, values read column by column into Swift values. The schema (shared with
/// GRDB) has the same indexes as the Strata store's: `category` and the to-one's column.
enum PlainSchema {
    static let sql = """
        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, cohort INTEGER NOT NULL, rating REAL NOT NULL,
                             verified INTEGER NOT NULL, born REAL NOT NULL, avatar BLOB NOT NULL);
        CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, category INTEGER NOT NULL, score REAL NOT NULL,
                           available INTEGER NOT NULL, published REAL NOT NULL, cover BLOB NOT NULL,
                           authorId INTEGER REFERENCES author(id) ON DELETE CASCADE);
        CREATE INDEX book_category ON book (category);
        CREATE INDEX book_authorId ON book (authorId);
        """
}

enum RawEngine {
    static let authorColumns = "id, name, cohort, rating, verified, born, avatar"
    static let bookColumns = "id, title, category, score, available, published, cover, authorId"

    static func readAuthor(_ s: OpaquePointer) -> AuthorRow {
        AuthorRow(id: sqlite3_column_int64(s, 0), name: columnText(s, 1), cohort: sqlite3_column_int(s, 2),
                  rating: sqlite3_column_double(s, 3), verified: sqlite3_column_int(s, 4) != 0,
                  born: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(s, 5)), avatar: columnBlob(s, 6))
    }

    static func readBook(_ s: OpaquePointer) -> BookRow {
        BookRow(id: sqlite3_column_int64(s, 0), title: columnText(s, 1), category: sqlite3_column_int(s, 2),
                score: sqlite3_column_double(s, 3), available: sqlite3_column_int(s, 4) != 0,
                published: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(s, 5)), cover: columnBlob(s, 6),
                authorId: sqlite3_column_type(s, 7) == SQLITE_NULL ? nil : sqlite3_column_int64(s, 7))
    }

    static func insert(_ db: RawDatabase, authors: [AuthorRow], books: [BookRow]) throws {
        try db.execute("BEGIN IMMEDIATE")
        let a = try db.prepare("INSERT INTO author (\(authorColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(a) }
        for row in authors {
            sqlite3_bind_int64(a, 1, row.id)
            bindText(a, 2, row.name)
            sqlite3_bind_int(a, 3, row.cohort)
            sqlite3_bind_double(a, 4, row.rating)
            sqlite3_bind_int(a, 5, row.verified ? 1 : 0)
            sqlite3_bind_double(a, 6, row.born.timeIntervalSinceReferenceDate)
            bindBlob(a, 7, row.avatar)
            try db.done(a)
        }
        let b = try db.prepare("INSERT INTO book (\(bookColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(b) }
        for row in books {
            sqlite3_bind_int64(b, 1, row.id)
            bindText(b, 2, row.title)
            sqlite3_bind_int(b, 3, row.category)
            sqlite3_bind_double(b, 4, row.score)
            sqlite3_bind_int(b, 5, row.available ? 1 : 0)
            sqlite3_bind_double(b, 6, row.published.timeIntervalSinceReferenceDate)
            bindBlob(b, 7, row.cover)
            if let author = row.authorId { sqlite3_bind_int64(b, 8, author) } else { sqlite3_bind_null(b, 8) }
            try db.done(b)
        }
        try db.execute("COMMIT")
    }

    static func run(_ phase: Phase, workload: Workload, file: URL) throws -> PhaseResult {
        switch phase {
        case .insert, .iterateSetup:
            try? FileManager.default.removeItem(at: file)
            let authors = workload.authorRows()
            let books = workload.bookRows()
            let db = try RawDatabase(path: file.path)
            try db.execute(PlainSchema.sql)
            let ((), seconds) = try timed { try insert(db, authors: authors, books: books) }
            return PhaseResult(seconds: seconds, objects: authors.count + books.count)

        case .fetchAll:
            let db = try RawDatabase(path: file.path)
            return try fastest(phase.repetitions) {
                let authors = try db.rows("SELECT \(authorColumns) FROM author", readAuthor)
                let books = try db.rows("SELECT \(bookColumns) FROM book", readBook)
                var sum = Checksum()
                for row in authors { sum.add(Checksum.of(row)) }
                for row in books { sum.add(Checksum.of(row)) }
                return (sum.rows, sum.value)
            }

        case .fetchIndexed:
            let db = try RawDatabase(path: file.path)
            return try fastest(phase.repetitions) {
                let books = try db.rows("SELECT \(bookColumns) FROM book WHERE category = \(Workload.fetchedCategory) ORDER BY score",
                                     readBook)
                var sum = Checksum()
                for row in books { sum.append(Checksum.of(row)) }
                return (sum.rows, sum.value)
            }

        case .update:
            let db = try RawDatabase(path: file.path)
            let (changed, seconds) = try timed {
                try db.execute("BEGIN IMMEDIATE")
                var books = try db.rows("SELECT \(bookColumns) FROM book WHERE category = \(Workload.updatedCategory)", readBook)
                var authors = try db.rows("SELECT \(authorColumns) FROM author WHERE cohort = \(Workload.updatedCohort)", readAuthor)
                let b = try db.prepare("UPDATE book SET title = ?, score = ? WHERE id = ?")
                defer { sqlite3_finalize(b) }
                for index in books.indices {
                    books[index].applyUpdate()
                    bindText(b, 1, books[index].title)
                    sqlite3_bind_double(b, 2, books[index].score)
                    sqlite3_bind_int64(b, 3, books[index].id)
                    try db.done(b)
                }
                let a = try db.prepare("UPDATE author SET rating = ?, verified = ? WHERE id = ?")
                defer { sqlite3_finalize(a) }
                for index in authors.indices {
                    authors[index].applyUpdate()
                    sqlite3_bind_double(a, 1, authors[index].rating)
                    sqlite3_bind_int(a, 2, authors[index].verified ? 1 : 0)
                    sqlite3_bind_int64(a, 3, authors[index].id)
                    try db.done(a)
                }
                try db.execute("COMMIT")
                return books.count + authors.count
            }
            return PhaseResult(seconds: seconds, objects: changed)

        case .delete:
            let db = try RawDatabase(path: file.path)
            let before = try db.scalar("SELECT count(*) FROM author") + db.scalar("SELECT count(*) FROM book")
            let ((), seconds) = try timed {
                try db.execute("BEGIN IMMEDIATE")
                let keys = try db.rows("SELECT id FROM author WHERE cohort = \(Workload.deletedCohort)") { sqlite3_column_int64($0, 0) }
                let d = try db.prepare("DELETE FROM author WHERE id = ?")
                defer { sqlite3_finalize(d) }
                for key in keys {
                    sqlite3_bind_int64(d, 1, key)
                    try db.done(d)
                }
                try db.execute("COMMIT")
            }
            let after = try db.scalar("SELECT count(*) FROM author") + db.scalar("SELECT count(*) FROM book")
            return PhaseResult(seconds: seconds, objects: before - after)

        case .count, .countWhere:
            let db = try RawDatabase(path: file.path)
            return try fastest(phase.repetitions) {
                let total = phase == .count
                    ? try db.scalar("SELECT count(*) FROM author") + db.scalar("SELECT count(*) FROM book")
                    : try db.scalar("SELECT count(*) FROM book WHERE category = \(Workload.fetchedCategory)")
                return (total, UInt64(total))
            }

        case .group:
            let db = try RawDatabase(path: file.path)
            return try fastest(phase.repetitions) {
                var sum = Checksum()
                for digest in try db.rows(workload.groupSQL, { s in
                    Checksum.group(category: sqlite3_column_int64(s, 0), count: sqlite3_column_int64(s, 1),
                                   lowestScore: sqlite3_column_double(s, 2))
                }) { sum.append(digest) }
                return (sum.rows, sum.value)
            }

        case .iterate:
            let db = try RawDatabase(path: file.path)
            return try fastest(phase.repetitions) {
                let sql = "SELECT \(bookColumns) FROM book"
                let s = try db.prepare(sql)
                defer { sqlite3_finalize(s) }
                var sum = Checksum()
                while true {
                    let step = sqlite3_step(s)
                    guard step == SQLITE_ROW else {
                        if step == SQLITE_DONE { break }
                        throw db.failure(sql)
                    }
                    var row = readBook(s)
                    row.authorId = nil   // the iteration reads attributes only
                    sum.add(Checksum.of(row))
                }
                return (sum.rows, sum.value)
            }
        }
    }
}
