import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@testable @_spi(StoreImplementation) import StrataSQLite
import StrataTestSupport
import Testing

/// Batch requests with a predicate on the SQLite store select their rows inside the
/// `BEGIN IMMEDIATE` transaction that changes them, so that what another connection writes
/// before or during the request cannot be judged by a stale selection.
@Suite("SQLite batch requests select in their transaction")
struct SQLiteBatchTransactionTests {
    /// One entity, Student (ZSTUDENT): a name, a year and an optional note.
    private func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Student") {
                Attribute("name", .string, optional: false)
                Attribute("year", .integer16)
                Attribute("note", .string)
            }
        }
    }

    /// A new store holding students s1…s6 of years 1…6 (keys 1…6).
    private func newStore() throws -> (URL, SQLiteStore) {
        let url = try TemporaryFolder.make().appendingPathComponent("students.sqlite")
        let store = try SQLiteStore(description: StoreDescription(type: .sqlite, url: url, model: model()))
        let students: [[String: AttributeValue]] = (1...6).map { ["name": .string("s\($0)"), "year": .integer(Int64($0))] }
        _ = try store.executeBatch(.insert(StoreBatchInsert(entityName: "Student", objects: students)))
        return (url, store)
    }

    private var seniors: StoreFetchRequest {
        get throws { StoreFetchRequest(entityNames: ["Student"], predicate: try ObjectPredicate(format: "year >= 4")) }
    }

    @Test("the rows are selected after BEGIN IMMEDIATE and before COMMIT, predicates in SQL or in memory",
          arguments: [true, false])
    func selectionInsideTransaction(translatesQueries: Bool) throws {
        let (url, store) = try newStore()
        store.translatesQueries = translatesQueries
        let requests: [(StoreBatchRequest, change: String)] = [
            (.update(StoreBatchUpdate(selection: try seniors, values: ["note": .constant(.string("senior"))])), "UPDATE OR FAIL ZSTUDENT"),
            (.update(StoreBatchUpdate(selection: try seniors, values: ["note": .expression(.keyPath("name"))])), "UPDATE OR FAIL ZSTUDENT"),
            (.delete(StoreBatchDelete(target: .matching(try seniors))), "DELETE FROM ZSTUDENT"),
        ]
        for (request, change) in requests {
            let (result, sql) = try statementsRun(on: store) { try store.executeBatch(request) }
            #expect(result.objectIDs.compactMap(\.primaryKey).sorted() == [4, 5, 6])
            #expect(sql.first == "BEGIN IMMEDIATE", "nothing runs before the transaction: \(sql)")
            #expect(sql.last == "COMMIT")
            let selection = sql.firstIndex { $0.hasPrefix("SELECT") && $0.contains("FROM ZSTUDENT") }
            let changing = sql.firstIndex { $0.hasPrefix(change) }
            #expect(selection != nil && changing != nil, "\(sql)")
            if let selection, let changing { #expect(selection < changing, "the rows are selected before they change: \(sql)") }
        }
        #expect(try SQLiteShell.rows(url, "SELECT Z_PK FROM ZSTUDENT ORDER BY Z_PK") == ["1", "2", "3"])
    }

    @Test("an update waits for another connection's write transaction and judges the rows as that one left them")
    func waitsForAnotherWriter() throws {
        let (url, store) = try newStore()
        // Another connection takes the write lock: s6 leaves the selection, s2 joins it, s7 is new.
        let other = try SQLiteConnection(path: url.path, create: false)
        try other.execute("BEGIN IMMEDIATE")
        try other.run("UPDATE ZSTUDENT SET ZYEAR = 1 WHERE Z_PK = 6")
        try other.run("UPDATE ZSTUDENT SET ZYEAR = 8 WHERE Z_PK = 2")
        try other.run("INSERT INTO ZSTUDENT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZYEAR) VALUES (7, 1, 1, 's7', 9)")
        try other.run("UPDATE Z_PRIMARYKEY SET Z_MAX = 7 WHERE Z_NAME = 'Student'")

        let update = StoreBatchUpdate(selection: try seniors, values: ["note": .constant(.string("senior"))])
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        try StatementLog.tracing(store) { log in
            Thread {
                outcome.set(Result { try store.executeBatch(.update(update)) })
                finished.signal()
            }.start()
            // The update has started its transaction and waits for the lock (busy timeout).
            let deadline = Date().addingTimeInterval(60)
            while !log.sql.contains("BEGIN IMMEDIATE"), Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
            #expect(log.sql.contains("BEGIN IMMEDIATE"), "the update never began its transaction")
            try other.execute("COMMIT")
            if finished.wait(timeout: .now() + 60) == .timedOut { Issue.record("the update never finished") }
        }
        let result = try #require(try outcome.get())
        #expect(result.objectIDs.compactMap(\.primaryKey).sorted() == [2, 4, 5, 7])
        #expect(try SQLiteShell.rows(url, "SELECT Z_PK, Z_OPT, ifnull(ZNOTE, '-') FROM ZSTUDENT ORDER BY Z_PK")
            == ["1|1|-", "2|2|senior", "3|1|-", "4|2|senior", "5|2|senior", "6|1|-", "7|2|senior"])
    }
}

/// What a request run on another thread gave, kept under `lock` (hence `Sendable`).
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<StoreBatchResult, any Error>?

    /// Keeps the outcome.
    func set(_ result: Result<StoreBatchResult, any Error>) { lock.withLock { self.result = result } }

    /// The result, nil while there is none; the request's error is thrown.
    func get() throws -> StoreBatchResult? { try lock.withLock { result }?.get() }
}
