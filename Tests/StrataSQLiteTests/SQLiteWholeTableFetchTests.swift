import Foundation
import Strata
@testable @_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// A fetch of every row of a table reserves room for its rows from the table's highest key:
/// keys far apart, or a key as high as a file can hold, change nothing in what it returns.
@Suite("SQLite store: fetching whole tables")
struct SQLiteWholeTableFetchTests {
    static let model: ManagedObjectModel = {
        do {
            return try ManagedObjectModel {
                EntityDescription("Book") {
                    Attribute("title", .string)
                }
            }
        } catch {
            preconditionFailure("the test model is valid: \(error)")
        }
    }()

    @Test("Rows with keys far apart, up to Int64.max, come back whole and in key order",
          arguments: [Int64(1_000), Int64(1) << 40, Int64.max])
    func sparseKeys(highest: Int64) throws {
        let url = try TemporaryFolder.make().appendingPathComponent("store.sqlite")
        let seeded = try TwoWayStore(model: Self.model, url: url)
        for title in ["a", "b"] {
            try seeded.context.insertNewObject(forEntityName: "Book").setValue(title, forKey: "title")
        }
        try seeded.context.save()
        // Another program writes a row with a far key.
        let other = try SQLiteConnection(path: url.path, create: false)
        guard case .integer(let entity) = try other.scalar("SELECT Z_ENT FROM ZBOOK LIMIT 1") else {
            Issue.record("no entity code")
            return
        }
        try other.run("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (\(highest), \(entity), 1, 'far')")

        let reader = try TwoWayStore(model: Self.model, url: url)
        let rows = try reader.store.fetch(reader.request("Book", nil))
        #expect(rows.map(\.objectID.primaryKey) == [1, 2, highest])
        #expect(rows.map { $0.attributes["title"] } == [.string("a"), .string("b"), .string("far")])
        let objects = try reader.context.fetch(FetchRequest(entityName: "Book"))
        #expect(try objects.map { try $0.value(forKey: "title", as: String.self) } == ["a", "b", "far"])
    }
}
