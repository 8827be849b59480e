import Foundation
import StrataTestSupport
import Synchronization
import Testing
@testable import StrataSQLite

@Suite("SQLite connection")
struct SQLiteConnectionTests {
    private func database() throws -> String {
        try TemporaryFolder.make().appendingPathComponent("test.sqlite").path
    }

    @Test("values of every storage class go in bound and come back unchanged")
    func roundTrip() throws {
        let connection = try SQLiteConnection(path: try database())
        try connection.execute("CREATE TABLE t (v)")
        let values: [SQLiteValue] = [
            .null, .integer(.min), .integer(.max), .real(-0.0), .real(.greatestFiniteMagnitude),
            .text(""), .text("a\u{0}b 'quoted' \"double\" 😀 e\u{301}"), .blob(Data()), .blob(Data([0, 1, 255])),
        ]
        for value in values { try connection.run("INSERT INTO t (v) VALUES (?)", [value]) }
        let back = try connection.rows("SELECT v FROM t ORDER BY rowid") { $0.value(0) }
        #expect(back == values)
        #expect(try connection.scalar("SELECT typeof(v) FROM t WHERE rowid = 8") == .text("blob"), "an empty blob is a blob, not NULL")
    }

    @Test("a column read through its value gives the storage class and value the statement's own readers give")
    func columnValues() throws {
        let connection = try SQLiteConnection(path: try database())
        try connection.execute("CREATE TABLE t (v)")
        let values: [SQLiteValue] = [
            .null, .integer(.min), .integer(7), .real(-0.0), .real(2.5), .text(""), .text("é 😀"), .blob(Data()), .blob(Data([0, 1, 255])),
        ]
        for value in values { try connection.run("INSERT INTO t (v) VALUES (?)", [value]) }
        // Each value is read only as its own storage class: reading it as another converts it
        // in place, after which SQLite leaves its type undefined.
        let read = try connection.rows("SELECT v FROM t ORDER BY rowid") { row -> (SQLiteStatement.StorageClass, SQLiteStatement.StorageClass, Bool, SQLiteValue) in
            let column = row.column(0)
            let storageClass = column.storageClass
            let read: SQLiteValue = switch storageClass {
            case .null: .null
            case .integer: .integer(column.int64)
            case .real: .real(column.double)
            case .text: .text(column.text)
            case .blob: .blob(column.blobBytes)
            }
            return (storageClass, row.storageClass(0), column.isNull, read)
        }
        #expect(read.map(\.3) == values)
        for (index, (storageClass, statementClass, isNull, value)) in read.enumerated() {
            #expect(storageClass == statementClass, "row \(index)")
            #expect(isNull == (value == .null), "row \(index)")
        }
        #expect(read.map(\.0) == [.null, .integer, .integer, .real, .real, .text, .text, .blob, .blob])
    }

    @Test("the journal mode is WAL and statements are prepared once")
    func walAndCache() throws {
        let connection = try SQLiteConnection(path: try database())
        #expect(try connection.scalar("PRAGMA journal_mode") == .text("wal"))
        let first = try connection.statement("SELECT 1")
        #expect(try connection.statement("SELECT 1") === first)
    }

    @Test("a transaction that throws rolls back everything; a savepoint that throws rolls back only itself")
    func transactions() throws {
        struct Stop: Error {}
        let connection = try SQLiteConnection(path: try database())
        try connection.execute("CREATE TABLE t (v INTEGER)")
        #expect(throws: Stop.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES (1)")
                throw Stop()
            }
        }
        #expect(try connection.scalar("SELECT count(*) FROM t") == .integer(0))
        try connection.transaction {
            try connection.run("INSERT INTO t VALUES (1)")
            try? connection.savepoint("inner") {
                try connection.run("INSERT INTO t VALUES (2)")
                throw Stop()
            }
            try connection.run("INSERT INTO t VALUES (3)")
        }
        #expect(try connection.rows("SELECT v FROM t ORDER BY v") { $0.int64(0) } == [1, 3])
        #expect(!connection.isInTransaction)
    }

    @Test("a read transaction reads one state of the file while another connection commits; inside a transaction it joins it")
    func readTransactions() throws {
        struct Stop: Error {}
        let path = try database()
        let reader = try SQLiteConnection(path: path)
        try reader.execute("CREATE TABLE t (v INTEGER)")
        try reader.run("INSERT INTO t VALUES (1)")
        let writer = try SQLiteConnection(path: path)
        let counts = try reader.readTransaction {
            let before = try reader.scalar("SELECT count(*) FROM t")
            try writer.run("INSERT INTO t VALUES (2)")
            return [before, try reader.scalar("SELECT count(*) FROM t")]
        }
        #expect(counts == [.integer(1), .integer(1)], "the second read saw the state the first read saw")
        #expect(!reader.isInTransaction)
        #expect(try reader.scalar("SELECT count(*) FROM t") == .integer(2))

        #expect(throws: Stop.self) { try reader.readTransaction { throw Stop() } }
        #expect(!reader.isInTransaction, "a read transaction that throws ends")
        try reader.transaction {
            try reader.run("INSERT INTO t VALUES (3)")
            let inside = try reader.readTransaction { try reader.scalar("SELECT count(*) FROM t") }
            #expect(inside == .integer(3), "the read joined the open transaction and saw its insert")
            #expect(reader.isInTransaction, "the enclosing transaction goes on")
        }
        #expect(try writer.scalar("SELECT count(*) FROM t") == .integer(3))
    }

    @Test("errors carry the file, the SQL, SQLite's code and message")
    func errors() throws {
        let path = try database()
        let connection = try SQLiteConnection(path: path)
        try connection.execute("CREATE TABLE t (v INTEGER UNIQUE)")
        try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
        do {
            try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
            Issue.record("inserted a duplicate")
        } catch {
            #expect(error.file == path)
            #expect(error.sql == "INSERT INTO t VALUES (?)")
            #expect(error.code == 2067, "SQLITE_CONSTRAINT_UNIQUE")
            #expect(error.primaryCode == 19, "SQLITE_CONSTRAINT")
            #expect(error.message.contains("UNIQUE constraint failed"))
        }
        #expect(throws: SQLiteError.self) { try connection.statement("SELEKT 1") }
        #expect(throws: SQLiteError.self) { try connection.run("SELECT ?", []) }
    }

    @Test("a file that is not a database, or a truncated one, is an error at open, not a crash")
    func notADatabase() throws {
        let folder = try TemporaryFolder.make()
        let text = folder.appendingPathComponent("text.sqlite")
        try Data("this is not a database, it is text that goes on for a while".utf8).write(to: text)
        #expect(throws: SQLiteError.self) { try SQLiteConnection(path: text.path) }

        let good = folder.appendingPathComponent("good.sqlite").path
        do {
            let connection = try SQLiteConnection(path: good)
            try connection.execute("PRAGMA journal_mode = DELETE; CREATE TABLE t (v); INSERT INTO t VALUES (randomblob(10000));")
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let truncated = folder.appendingPathComponent("truncated.sqlite")
        try bytes.prefix(100).write(to: truncated)
        #expect(throws: SQLiteError.self) { try SQLiteConnection(path: truncated.path) }
    }

    @Test("two connections to one file: a writer waits for the other's transaction instead of failing")
    func twoConnections() throws {
        let path = try database()
        let first = try SQLiteConnection(path: path)
        try first.execute("CREATE TABLE t (v INTEGER)")
        let second = try SQLiteConnection(path: path)
        try first.transaction { try first.run("INSERT INTO t VALUES (1)") }
        try second.transaction { try second.run("INSERT INTO t VALUES (2)") }
        #expect(try first.scalar("SELECT sum(v) FROM t") == .integer(3))
    }

    @Test("a writer on another thread waits on the busy timeout while a write transaction is open, then writes")
    func writerWaitsForOpenTransaction() throws {
        /// What the waiting writer's thread saw.
        final class Waiter: Sendable {
            let state = Locked<(startedBeforeCommit: Bool?, rowsSeen: Int64?, outcome: Result<Void, any Error>?)>((nil, nil, nil))
            let committed = Atomic<Bool>(false)
            let started = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
        }
        let path = try database()
        let holder = try SQLiteConnection(path: path)
        try holder.execute("CREATE TABLE t (v INTEGER)")
        // The holder takes the write lock and keeps it.
        try holder.execute("BEGIN IMMEDIATE")
        try holder.run("INSERT INTO t VALUES (1)")

        let waiter = Waiter()
        Thread {
            let outcome = Result<Void, any Error> {
                let second = try SQLiteConnection(path: path)
                waiter.state.withLock { $0.startedBeforeCommit = !waiter.committed.load(ordering: .sequentiallyConsistent) }
                waiter.started.signal()
                // BEGIN IMMEDIATE needs the lock the holder keeps: this waits, or fails with
                // SQLITE_BUSY without a busy timeout.
                try second.transaction {
                    let seen = try second.scalar("SELECT count(*) FROM t")
                    if case .integer(let count)? = seen { waiter.state.withLock { $0.rowsSeen = count } }
                    try second.run("INSERT INTO t VALUES (2)")
                }
            }
            waiter.state.withLock { $0.outcome = outcome }
            waiter.started.signal()   // in case the open failed before the first signal
            waiter.finished.signal()
        }.start()

        waiter.started.wait()
        Thread.sleep(forTimeInterval: 0.2)
        waiter.committed.store(true, ordering: .sequentiallyConsistent)
        try holder.execute("COMMIT")

        #expect(waiter.finished.wait(timeout: .now() + 60) == .success, "the second writer never finished")
        let seen = waiter.state.withLock { $0 }
        #expect(throws: Never.self) { try seen.outcome?.get() }
        #expect(seen.outcome != nil)
        #expect(seen.startedBeforeCommit == true, "the second writer tried while the first held the lock")
        // Its transaction began after the holder's commit: it saw the holder's row.
        #expect(seen.rowsSeen == 1)
        #expect(try holder.rows("SELECT v FROM t ORDER BY rowid") { $0.int64(0) } == [1, 2])
    }
}
