import Foundation
import Strata
import StrataTestSupport
import Testing
@_spi(StoreImplementation) @testable import StrataCore
@testable import StrataSQLite

/// The persistent-history tables Strata writes are laid out as Core Data lays them out: the
/// same tables and indexes, the same `Z_PRIMARYKEY` rows, and rows whose columns hold the same
/// kinds of values, compared with the transaction Core Data wrote in CoreDataPlus's
/// `SampleModel2_V2.sqlite`.
@Suite("SQLite store: history tables in Core Data's layout")
struct SQLiteHistoryLayoutTests {
    /// The fixture Core Data wrote (one transaction of 126 inserts).
    static func coreDataFile() throws -> URL {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AppleStoreTests/Fixtures/alemar11__CoreDataPlus/Tests/Resources/SampleModel2/Fixtures/SampleModel2_V2.sqlite")
        let copy = try TemporaryFolder.make().appendingPathComponent("SampleModel2_V2.sqlite")
        try FileManager.default.copyItem(at: fixture, to: copy)
        return copy
    }

    /// A store Strata wrote with history on: a save of two inserts without author or context
    /// name (as the fixture's transaction), then an update and a delete.
    static func strataFile() throws -> URL {
        let url = try TemporaryFolder.make().appendingPathComponent("strata.sqlite")
        let model = try ManagedObjectModel {
            EntityDescription("Writer") {
                Attribute("alias", .string)
                Attribute("age", .integer16)
            }
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [StoreOption.persistentHistoryTracking: .bool(true)])
        let context = ManagedObjectContext(coordinator: coordinator)
        let ann = try context.insertNewObject(forEntityName: "Writer")
        try ann.setValue("ann", forKey: "alias")
        let bob = try context.insertNewObject(forEntityName: "Writer")
        try bob.setValue("bob", forKey: "alias")
        try context.save()
        try ann.setValue(Int16(40), forKey: "age")
        try context.save()
        try context.delete(bob)
        try context.save()
        return url
    }

    static func rows(_ sql: String, in url: URL) throws -> [[String]] {
        let connection = try SQLiteConnection(path: url.path, create: false, readOnly: true)
        return try connection.rows(sql) { row in (0..<row.columnCount).map { row.isNull($0) ? "NULL" : row.text($0) ?? "" } }
    }

    @Test("the tables and indexes are Core Data's, statement for statement")
    func schema() throws {
        let query = """
            SELECT type, name, tbl_name, sql FROM sqlite_master
            WHERE tbl_name IN ('ACHANGE', 'ATRANSACTION', 'ATRANSACTIONSTRING') ORDER BY type, name
            """
        let coreData = try Self.rows(query, in: Self.coreDataFile())
        #expect(coreData.count == 11)
        #expect(try Self.rows(query, in: Self.strataFile()) == coreData)
    }

    @Test("Z_PRIMARYKEY numbers the history tables as Core Data does")
    func primaryKeyRows() throws {
        let query = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT >= 16000 ORDER BY Z_ENT"
        let coreData = try Self.rows(query, in: Self.coreDataFile())
        #expect(coreData == [["16001", "CHANGE", "0"], ["16002", "TRANSACTION", "0"], ["16003", "TRANSACTIONSTRING", "0"]])
        #expect(try Self.rows(query, in: Self.strataFile()) == coreData)
    }

    @Test("a transaction's, an insert's and a string's rows hold what Core Data's hold, column by column")
    func rowKinds() throws {
        let (coreData, strata) = (try Self.coreDataFile(), try Self.strataFile())
        // Every column's kind of value, with the fixed columns' values.
        let transaction = """
            SELECT Z_PK, Z_ENT, typeof(Z_OPT), typeof(ZAUTHORTS), typeof(ZCONTEXTNAMETS), typeof(ZPROCESSIDTS),
            typeof(ZTIMESTAMP), typeof(ZAUTHOR), typeof(ZBUNDLEID), typeof(ZCONTEXTNAME), typeof(ZPROCESSID), typeof(ZQUERYGEN)
            FROM ATRANSACTION WHERE Z_PK = 1
            """
        #expect(try Self.rows(transaction, in: strata) == Self.rows(transaction, in: coreData))
        // The bundle identifier is a string's key where the program has one (Core Data's had).
        let bundle = try Self.rows("SELECT typeof(ZBUNDLEIDTS) FROM ATRANSACTION WHERE Z_PK = 1", in: strata)
        #expect(bundle == [[HistoryTransactionInfo.bundleIdentifier == nil ? "null" : "integer"]])

        let insert = """
            SELECT Z_ENT, typeof(Z_OPT), ZCHANGETYPE, typeof(ZENTITY), typeof(ZENTITYPK), ZTRANSACTIONID, typeof(ZCOLUMNS)
            FROM ACHANGE WHERE Z_PK = 1
            """
        #expect(try Self.rows(insert, in: strata) == Self.rows(insert, in: coreData))
        #expect(try Self.rows(insert, in: strata) == [["16001", "null", "0", "integer", "integer", "1", "null"]])

        let string = "SELECT Z_ENT, typeof(Z_OPT), typeof(ZNAME) FROM ATRANSACTIONSTRING ORDER BY Z_PK LIMIT 1"
        #expect(try Self.rows(string, in: strata) == Self.rows(string, in: coreData))

        // An update sets ZCOLUMNS (bit i of the i-th property by name: age, alias); a delete
        // leaves it NULL, as an insert does.
        let later = try Self.rows("SELECT ZCHANGETYPE, hex(ZCOLUMNS), typeof(Z_OPT) FROM ACHANGE WHERE Z_PK > 2 ORDER BY Z_PK", in: strata)
        #expect(later == [["1", "01", "null"], ["2", "", "null"]])
    }
}
