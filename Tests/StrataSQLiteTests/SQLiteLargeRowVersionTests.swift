import Foundation
import Strata
@testable import StrataCore
import StrataTestSupport
import Testing

/// An object keeps its row's version in four bytes when it fits them, and in its relationship
/// state when it does not: a file may hold any 64-bit `Z_OPT`, and optimistic locking must see
/// the very version read.
@Suite("SQLite store: row versions beyond four bytes")
struct SQLiteLargeRowVersionTests {
    @Test("A version that does not fit four bytes is kept, saved one up, and still tells a conflict",
          arguments: [Int64(UInt32.max) - 1, Int64(UInt32.max), Int64(1) << 40, -7, Int64.max])
    func largeVersion(version: Int64) throws {
        let (_, url) = try SQLiteCachedRowTests.store(scores: [1])
        _ = try SQLiteShell.rows(url, "UPDATE ZBOOK SET Z_OPT = \(version)")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: SQLiteCachedRowTests.model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let writer = ManagedObjectContext(coordinator: coordinator)
        let stale = ManagedObjectContext(coordinator: coordinator)
        let book = try #require(try writer.fetch(FetchRequest(entityName: "Book")).first)
        let staleBook = try #require(try stale.fetch(FetchRequest(entityName: "Book")).first)
        #expect(book.committedVersion == version)
        // A to-one-free object that needs its state for the version alone still reads as before.
        #expect(try book.value(forKey: "title", as: String.self) == "1.0")

        try book.setValue("changed", forKey: "title")
        try writer.save()
        #expect(try SQLiteShell.rows(url, "SELECT Z_OPT, ZTITLE FROM ZBOOK") == ["\(version &+ 1)|changed"])
        #expect(book.committedVersion == version &+ 1)

        try staleBook.setValue(2.5, forKey: "score")
        #expect(staleBook.committedVersion == version)
        #expect(throws: StoreError.self) { try stale.save() }
        #expect(try SQLiteShell.rows(url, "SELECT Z_OPT, ZTITLE, ZSCORE FROM ZBOOK") == ["\(version &+ 1)|changed|1.0"])
    }
}
