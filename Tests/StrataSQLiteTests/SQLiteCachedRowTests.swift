import Foundation
import Strata
@testable @_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// Fetches that take rows from the coordinator's row cache: a row read at the version the cache
/// holds is the cached row, its values not decoded again; a row at another version is read anew.
@Suite("SQLite store: fetches take rows cached at the version they read")
struct SQLiteCachedRowTests {
    static let model: ManagedObjectModel = {
        do {
            return try ManagedObjectModel {
                EntityDescription("Book") {
                    Attribute("title", .string)
                    Attribute("score", .double)
                }
            }
        } catch {
            preconditionFailure("the test model is valid: \(error)")
        }
    }()

    /// A saved store of books with `scores`, titled by their scores, at a file of its own.
    static func store(scores: [Double]) throws -> (store: TwoWayStore, url: URL) {
        let url = try TemporaryFolder.make().appendingPathComponent("store.sqlite")
        let store = try TwoWayStore(model: model, url: url)
        for score in scores {
            let book = try store.context.insertNewObject(forEntityName: "Book")
            try book.setValue("\(score)", forKey: "title")
            try book.setValue(score, forKey: "score")
        }
        try store.context.save()
        return (store, url)
    }

    /// The books' titles, by primary key, as a fresh context of `store`'s coordinator fetches them.
    static func titles(_ store: TwoWayStore) throws -> [Int64: String] {
        let context = ManagedObjectContext(coordinator: store.coordinator)
        var titles: [Int64: String] = [:]
        for book in try context.fetch(FetchRequest(entityName: "Book")) {
            titles[try #require(book.objectID.primaryKey)] = try book.value(forKey: "title", as: String.self)
        }
        return titles
    }

    @Test("A row at the cached version is the cached row; a row written at a new version is read anew")
    func versionDecides() throws {
        let (store, url) = try Self.store(scores: [1, 2, 3])
        #expect(try Self.titles(store) == [1: "1.0", 2: "2.0", 3: "3.0"])
        #expect(store.coordinator.cachedRowCount == 3)

        // Another program changes two rows, raising the version of one of them only.
        try SQLiteStrayRowCountTests.write("UPDATE ZBOOK SET ZTITLE = 'same version' WHERE Z_PK = 1", to: url)
        try SQLiteStrayRowCountTests.write("UPDATE ZBOOK SET ZTITLE = 'new version', Z_OPT = Z_OPT + 1 WHERE Z_PK = 2", to: url)

        let cachedRows = CachedRows(store.coordinator.rowCache, storeIdentifier: store.store.identifier)
        let rows = try store.store.fetch(StoreFetchRequest(entityNames: ["Book"]), reusing: cachedRows)
        #expect(rows.map { $0.attributes["title"] } == [.string("1.0"), .string("new version"), .string("3.0")])
        #expect(cachedRows.takenCount == 2)
        // Without the cache, the store reads every row as it is.
        let uncached = try store.store.fetch(StoreFetchRequest(entityNames: ["Book"]))
        #expect(uncached.map { $0.attributes["title"] } == [.string("same version"), .string("new version"), .string("3.0")])

        // A context's fetch takes the same rows, and the cache keeps the row read anew.
        #expect(try Self.titles(store) == [1: "1.0", 2: "new version", 3: "3.0"])
        #expect(store.coordinator.rowCache.snapshot(for: rows[1].objectID)?.attributes["title"] == .string("new version"))
    }

    @Test("Rows taken from the cache with numbers stored as BLOBs are ordered as memory orders them")
    func numbersInBlobs() throws {
        // −0.0 is stored as a BLOB, which SQL orders after every number; memory orders it as 0.
        let (store, _) = try Self.store(scores: [1, -0.0, -1])
        let byScore = FetchRequest(entityName: "Book", sortDescriptors: [ObjectSortDescriptor(key: "score")])
        func fetchedTitles() throws -> [String] {
            let context = ManagedObjectContext(coordinator: store.coordinator)
            return try context.fetch(byScore).map { try #require(try $0.value(forKey: "title", as: String.self)) }
        }
        #expect(try fetchedTitles() == ["-1.0", "-0.0", "1.0"])

        let cachedRows = CachedRows(store.coordinator.rowCache, storeIdentifier: store.store.identifier)
        let rows = try store.store.fetch(StoreFetchRequest(entityNames: ["Book"], sortDescriptors: byScore.sortDescriptors),
                                         reusing: cachedRows)
        #expect(cachedRows.takenCount == 3)
        #expect(rows.map { $0.attributes["title"] } == [.string("-1.0"), .string("-0.0"), .string("1.0")])
        #expect(try fetchedTitles() == ["-1.0", "-0.0", "1.0"])
    }
}
