import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCore
@testable import StrataSQLite

/// A save writes the columns of the properties that changed: the rest of the row, and the
/// indexes on it, are left as they are.
@Suite("SQLite store: a save writes the changed columns")
struct SQLiteChangedColumnsTests {
    static let model: ManagedObjectModel = {
        do {
            return try SampleModels.shelves()
        } catch {
            preconditionFailure("the test model is valid: \(error)")
        }
    }()

    /// One column of the row `key` of `table`, read by another connection.
    static func column(_ name: String, of table: String, row key: Int64, at url: URL) throws -> SQLiteValue? {
        try SQLiteConnection(path: url.path, create: false).scalar("SELECT \(name) FROM \(table) WHERE Z_PK = ?", [.integer(key)])
    }

    @Test("a column another program changed without a new version survives a save of another property")
    func unchangedColumnsAreLeftAlone() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("store.sqlite")
        let store = try TwoWayStore(model: Self.model, url: url)
        let book = try store.context.insertNewObject(forEntityName: "Book")
        try book.setValue("First", forKey: "title")
        try book.setValue(Int32(3), forKey: "category")
        try book.setValue(1.5, forKey: "score")
        try store.context.save()
        let key = try #require(book.objectID.primaryKey)

        // Another program rewrites the category without raising Z_OPT, which Strata does not see.
        try SQLiteStrayRowCountTests.write("UPDATE ZBOOK SET ZCATEGORY = 9 WHERE Z_PK = \(key)", to: url)
        try book.setValue(2.5, forKey: "score")
        try store.context.save()

        #expect(try Self.column("ZSCORE", of: "ZBOOK", row: key, at: url) == .real(2.5))
        #expect(try Self.column("ZCATEGORY", of: "ZBOOK", row: key, at: url) == .integer(9), "the save wrote only the score")
        #expect(try Self.column("Z_OPT", of: "ZBOOK", row: key, at: url) == .integer(2))
        // What a store holds and a reader reads agree, the index on the category included.
        let found = try ManagedObjectContext(coordinator: store.coordinator)
            .count(for: FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "category == 9")))
        #expect(found == 1)
    }

    @Test("a changed to-one, a cleared value and a value set back are each written as they are")
    func changedPropertiesAreWritten() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("store.sqlite")
        let store = try TwoWayStore(model: Self.model, url: url)
        let shelf = try store.context.insertNewObject(forEntityName: "Shelf")
        let other = try store.context.insertNewObject(forEntityName: "Shelf")
        let book = try store.context.insertNewObject(forEntityName: "Book")
        try book.setValue("First", forKey: "title")
        try book.setValue(Int32(3), forKey: "category")
        try book.setValue(shelf, forKey: "shelf")
        try store.context.save()
        let key = try #require(book.objectID.primaryKey)

        try book.setValue(other, forKey: "shelf")
        try book.setValue(nil as String?, forKey: "title")
        try book.setValue(Int32(4), forKey: "category")
        try book.setValue(Int32(3), forKey: "category")   // set back: unchanged
        try store.context.save()

        #expect(try Self.column("ZSHELF", of: "ZBOOK", row: key, at: url) == .integer(try #require(other.objectID.primaryKey)))
        #expect(try Self.column("ZTITLE", of: "ZBOOK", row: key, at: url) == .null)
        #expect(try Self.column("ZCATEGORY", of: "ZBOOK", row: key, at: url) == .integer(3))
        #expect(try Self.column("Z_OPT", of: "ZBOOK", row: key, at: url) == .integer(2))

        // Another coordinator of the file reads the row as saved.
        let fresh = try TwoWayStore(model: Self.model, url: url)
        let read = try #require(try fresh.context.fetch(FetchRequest(entityName: "Book")).first)
        #expect(try read.value(forKey: "title") == nil)
        #expect(try read.value(forKey: "category", as: Int32.self) == 3)
        #expect(try read.value(forKey: "shelf", as: ManagedObject.self)?.objectID == other.objectID)
    }
}
