import Foundation
import Logging
import Strata
import StrataTestSupport
import Synchronization
import Testing
@_spi(StoreImplementation) import StrataCore
@testable import StrataSQLite

/// SQL debug output: each statement an SQLite store runs, through swift-log at `.debug`, with its
/// time and bound values; nothing at all while it is off.
///
/// Serialized: the tests set the process-wide ``SQLiteStore/sqlDebugLogger`` (and put it back).
/// Other tests opening stores meanwhile may log into the capture too, so each test reads only
/// the entries of its own file.
@Suite("SQL debug output", .serialized)
struct SQLDebugOutputTests {
    /// The entries a ``CapturingLogHandler`` was given.
    final class CapturedEntries: Sendable {
        private let entries = Mutex<[(level: Logger.Level, message: String, metadata: Logger.Metadata)]>([])

        /// Keeps one entry.
        func append(level: Logger.Level, message: String, metadata: Logger.Metadata) {
            entries.withLock { $0.append((level, message, metadata)) }
        }

        /// The entries about the database at `url`.
        func about(_ url: URL) -> [(level: Logger.Level, message: String, metadata: Logger.Metadata)] {
            entries.withLock { $0.filter { $0.metadata["sql.file"] == .string(url.path) } }
        }
    }

    /// A log handler that keeps every entry it is given.
    struct CapturingLogHandler: LogHandler {
        let entries: CapturedEntries
        var logLevel: Logger.Level
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            entries.append(level: event.level, message: event.message.description,
                           metadata: metadata.merging(event.metadata ?? [:]) { $1 })
        }
    }

    /// Runs `body` with ``SQLiteStore/sqlDebugLogger`` logging into a capture at `level`, and
    /// returns the capture.
    private func capturing(at level: Logger.Level, _ body: () throws -> Void) rethrows -> CapturedEntries {
        let entries = CapturedEntries()
        let before = SQLiteStore.sqlDebugLogger
        SQLiteStore.sqlDebugLogger = Logger(label: "strata.sqlite.sql") { _ in CapturingLogHandler(entries: entries, logLevel: level) }
        defer { SQLiteStore.sqlDebugLogger = before }
        try body()
        return entries
    }

    /// Saves three students and fetches the one named `Ada` from a new SQLite store at `url`.
    private func saveAndFetch(at url: URL, longName: String = "Grace") throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.student())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        for (id, name) in [(Int64(1), "Ada"), (2, "Alan"), (3, longName)] {
            let student = try context.insertNewObject(forEntityName: "Student")
            try student.setValue(id, forKey: "id")
            try student.setValue(name, forKey: "name")
        }
        try context.save()
        var request = FetchRequest(entityName: "Student")
        request.predicate = try ObjectPredicate(format: "name == %@", "Ada")
        #expect(try ManagedObjectContext(coordinator: coordinator).fetch(request).count == 1)
    }

    @Test("at .debug, a save and a fetch log each statement with its bound values and its time")
    func statementsWithValues() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("debug.sqlite")
        let entries = try capturing(at: .debug) { try saveAndFetch(at: url) }.about(url)
        #expect(entries.allSatisfy { $0.level == .debug })
        #expect(entries.allSatisfy { $0.metadata["sql.milliseconds"].map { "\($0)".contains(".") } == true })
        let inserts = entries.filter { $0.message.hasPrefix("INSERT INTO ZSTUDENT") }
        #expect(inserts.count == 3, "\(entries.map(\.message))")
        #expect(inserts.contains { $0.message.contains("'Ada'") && !$0.message.contains("?") })
        #expect(entries.contains { $0.message.hasPrefix("SELECT") && $0.message.contains("ZSTUDENT") && $0.message.contains("'Ada'") },
                "\(entries.map(\.message))")
        #expect(entries.contains { $0.message.hasPrefix("BEGIN") } && entries.contains { $0.message == "COMMIT" })
        #expect(entries.allSatisfy { $0.metadata["sql.rows"] == nil })
    }

    @Test("at .trace, each entry also says how many rows the statement gave")
    func rowCounts() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("rows.sqlite")
        let entries = try capturing(at: .trace) {
            try saveAndFetch(at: url)
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.student())
            try coordinator.addPersistentStore(type: .sqlite, at: url)
            #expect(try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Student")).count == 3)
        }.about(url)
        let selects = entries.filter { $0.message.hasPrefix("SELECT") && $0.message.contains("FROM ZSTUDENT") }
        #expect(selects.contains { $0.metadata["sql.rows"] == "3" }, "\(selects.map { ($0.message, $0.metadata) })")
        #expect(selects.contains { $0.metadata["sql.rows"] == "1" })
    }

    @Test("a long text value is abbreviated, with its length")
    func longValues() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("long.sqlite")
        let long = String(repeating: "x", count: 10_000)
        let entries = try capturing(at: .debug) { try saveAndFetch(at: url, longName: long) }.about(url)
        let insert = try #require(entries.first { $0.message.hasPrefix("INSERT INTO ZSTUDENT") && $0.message.contains("xxx") })
        #expect(insert.message.contains("…' /* 10000 characters */"))
        #expect(insert.message.count < 500)
    }

    @Test("off (the logger above .debug): nothing is logged")
    func offLogsNothing() throws {
        try #require(SQLiteStore.sqlDebugEnvironmentLevel() == nil, "\(SQLiteStore.sqlDebugEnvironmentVariable) is set")
        let url = try TemporaryFolder.make().appendingPathComponent("quiet.sqlite")
        let entries = try capturing(at: .info) { try saveAndFetch(at: url) }
        #expect(entries.about(url).isEmpty)
        // Nothing is even traced: a connection opened while it is off has no log.
        #expect(SQLStatementLog.forConnection(to: url.path) == nil)
    }

    @Test("literals past the limit are cut, with their length; short ones and quotes are kept")
    func abbreviation() {
        let text = String(repeating: "é", count: 100)
        let hex = String(repeating: "0A", count: 50)
        let sql = "INSERT INTO T VALUES('it''s', '\(text)', X'\(hex)', x'0A', 42)"
        let cut = SQLStatementLog.abbreviatingLiterals(sql)
        #expect(cut == "INSERT INTO T VALUES('it''s', '\(String(repeating: "é", count: 64))…' /* 100 characters */, "
                + "X'\(String(hex.prefix(64)))…' /* 50 bytes */, x'0A', 42)")
        #expect(SQLStatementLog.abbreviatingLiterals("SELECT 'unterminated") == "SELECT 'unterminated'")
        #expect(SQLStatementLog.milliseconds(.microseconds(1_234_567)) == "1234.567")
        #expect(SQLStatementLog.milliseconds(.nanoseconds(5_000)) == "0.005")
    }

    // Here rather than with the other to-many writes: it reads the statements a save runs, and
    // setting the process-wide logger is what this suite runs one test at a time for.
    @Test("a save writes a foreign key from the to-many side only where the destination's row written whole lacks it")
    func toManyForeignKeysSkippedWhereWritten() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("written.sqlite")
        let entries = try capturing(at: .debug) {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try SQLiteToManyWriteTests.model())
            let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
            func id(_ entity: String, _ key: Int64) -> ManagedObjectID {
                ManagedObjectID(entityName: entity, storeIdentifier: store.identifier, primaryKey: key)
            }
            func book(_ key: Int64, by author: Int64? = nil) -> ObjectSnapshot {
                ObjectSnapshot(objectID: id("Book", key), attributes: ["title": .string("Book \(key)")],
                               toOne: author.map { ["author": id("Author", $0)] } ?? [:])
            }
            _ = try store.allocatePrimaryKeys(rootEntity: "Author", count: 1)
            _ = try store.allocatePrimaryKeys(rootEntity: "Book", count: 9)
            _ = try store.allocatePrimaryKeys(rootEntity: "Tag", count: 5)
            try store.save(StoreSaveRequest(inserted: [book(9)]))
            // Books 1, 2, 4, 3 and 6 carry their author in their own rows, out of key order past
            // the first two; book 5 does not; book 9 is an updated row that does; tag 5 has the
            // key of book 5 in another table, and carries its author.
            var request = StoreSaveRequest(inserted: [
                ObjectSnapshot(objectID: id("Author", 1), attributes: ["name": .string("Austen")],
                               toMany: ["books": (1...6).map { id("Book", $0) } + [id("Book", 9)], "tags": [id("Tag", 5)]]),
                book(1, by: 1), book(2, by: 1), book(4, by: 1), book(3, by: 1), book(5), book(6, by: 1),
                ObjectSnapshot(objectID: id("Tag", 5), attributes: ["label": .string("novel")], toOne: ["author": id("Author", 1)]),
            ])
            request.updated = [book(9, by: 1)]
            try store.save(request)
        }.about(url)
        let fromToMany = entries.map(\.message).filter { $0.hasPrefix("UPDATE Z") && $0.contains(" SET ZAUTHOR = ") && !$0.contains("Z_OPT") }
        #expect(fromToMany == ["UPDATE ZBOOK SET ZAUTHOR = 1 WHERE Z_PK = 5"], "\(entries.map(\.message))")
        #expect(try SQLiteShell.rows(url, "SELECT Z_PK || ':' || ifnull(ZAUTHOR, '-') FROM ZBOOK ORDER BY Z_PK")
                == ["1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "9:1"])
        #expect(try SQLiteShell.rows(url, "SELECT Z_PK || ':' || ifnull(ZAUTHOR, '-') FROM ZTAG ORDER BY Z_PK") == ["5:1"])
    }

    @Test("STRATA_SQL_DEBUG=1 in a fresh process logs each statement as written, with its time")
    func environmentVariable() throws {
        let executable = try #require(BuiltExecutables.url(named: "StoreSaveLoop"), "StoreSaveLoop is not built next to the test binary")
        let url = try TemporaryFolder.make().appendingPathComponent("env.sqlite")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["SQLite", url.path, "--items", "2"]
        process.environment = ProcessInfo.processInfo.environment.merging([SQLiteStore.sqlDebugEnvironmentVariable: "1"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(printed)")
        let lines = printed.split(separator: "\n")
        #expect(lines.contains { $0.contains("strata.sqlite.sql") && $0.contains("INSERT INTO ZITEM") && $0.contains("?") }, "\(printed)")
        #expect(lines.contains { $0.contains("sql.milliseconds=") }, "\(printed)")
    }
}
