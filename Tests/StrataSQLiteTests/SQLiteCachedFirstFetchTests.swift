import Foundation
import Strata
@testable @_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// Fetches read cached-first: after a fetch of a table that found nearly every row in the
/// coordinator's cache, the next reads only keys and versions in SQL, takes the rows cached at
/// those versions, and reads the others whole by key.
@Suite("SQLite store: a fetch over rows the cache holds reads keys first")
struct SQLiteCachedFirstFetchTests {
    /// Whether `sql` is the statement of a cached-first read of books: keys and versions (and
    /// perhaps a BLOB check), no values.
    static func readsKeysOnly(_ sql: String) -> Bool {
        guard let from = sql.range(of: " FROM ") else { return false }
        let selected = sql[..<from.lowerBound]
        return selected.hasPrefix("SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT") && !selected.contains("ZTITLE")
    }
    /// The statement that reads the rows a cached-first read did not find in the cache.
    static let byKey = "WHERE Z_PK IN ("

    /// A store of `count` books scored 0, 1, 2, … and titled by their scores ("0.0", "1.0", …),
    /// keys 1, 2, 3, ….
    static func store(count: Int) throws -> (store: TwoWayStore, url: URL) {
        try SQLiteCachedRowTests.store(scores: (0..<count).map(Double.init))
    }

    /// The titles a fresh context of `store` fetches with `request`, and the statements it ran.
    static func fetch(_ request: FetchRequest<ManagedObject>, _ store: TwoWayStore) throws -> (titles: [String], sql: [String]) {
        let context = ManagedObjectContext(coordinator: store.coordinator)
        let (titles, sql) = try statementsRun(on: store.store) {
            try context.fetch(request).map { try #require(try $0.value(forKey: "title", as: String.self)) }
        }
        return (titles, sql)
    }

    /// The titles the store reads for `request` without the cache: what a fetch must give.
    static func uncached(_ request: FetchRequest<ManagedObject>, _ store: TwoWayStore) throws -> [String] {
        try store.store.fetch(StoreFetchRequest(
            entityNames: ["Book"], predicate: request.predicate, sortDescriptors: request.sortDescriptors,
            fetchOffset: request.fetchOffset, fetchLimit: request.fetchLimit))
        .map { snapshot -> String in
            guard case .string(let title)? = snapshot.attributes["title"] else { return "<no title>" }
            return title
        }
    }

    /// Books scored 100 or more, highest first: sorted in SQL, the order checked for numbers
    /// stored as BLOBs after reading, all rows handed on at once.
    static var byScore: FetchRequest<ManagedObject> {
        FetchRequest(entityName: "Book", predicate: try? ObjectPredicate(format: "score >= 100"),
                     sortDescriptors: [ObjectSortDescriptor(key: "score", ascending: false)])
    }
    /// Every book by title: handed on in runs of rows as they are read.
    static var byTitle: FetchRequest<ManagedObject> {
        FetchRequest(entityName: "Book", sortDescriptors: [ObjectSortDescriptor(key: "title")])
    }

    @Test("The fetch after one that found its rows cached reads keys and versions only, and gives the same rows")
    func warmFetchReadsKeys() throws {
        let (store, _) = try Self.store(count: 500)
        let expected = try Self.uncached(Self.byScore, store)
        #expect(expected.count == 400)

        // The first fetch finds nothing cached, the second everything: both read whole rows.
        for _ in 0..<2 {
            let (titles, sql) = try Self.fetch(Self.byScore, store)
            #expect(titles == expected)
            #expect(!sql.contains { Self.readsKeysOnly($0) })
        }
        let (titles, sql) = try Self.fetch(Self.byScore, store)
        #expect(titles == expected)
        #expect(sql.contains { Self.readsKeysOnly($0) && $0.contains("ORDER BY") })
        #expect(!sql.contains { $0.contains(Self.byKey) }, "every row was cached")
        #expect(try !store.store.withConnection { $0.connection.isInTransaction }, "the read transaction ended")
    }

    @Test("Rows another program changed, added or deleted are read by key, in the fetch's order, across runs of rows",
          arguments: ["score", "title"])
    func changedRowsReadByKey(sortKey: String) throws {
        let request = sortKey == "score" ? Self.byScore : Self.byTitle
        let (store, url) = try Self.store(count: 2_600)
        for _ in 0..<2 { _ = try Self.fetch(request, store) }

        // A new version for every 7th row, a new row, a deleted row; one row changed at its
        // version (which a cached-first fetch, like any fetch over the cache, does not see).
        try SQLiteStrayRowCountTests.write("UPDATE ZBOOK SET ZTITLE = 'changed ' || ZTITLE, Z_OPT = Z_OPT + 1 WHERE Z_PK % 7 = 0", to: url)
        try SQLiteStrayRowCountTests.write(
            "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZSCORE) SELECT max(Z_PK) + 1, Z_ENT, 1, 'added', 150.5 FROM ZBOOK", to: url)
        try SQLiteStrayRowCountTests.write("DELETE FROM ZBOOK WHERE Z_PK = 1500", to: url)

        let expected = try Self.uncached(request, store)
        let (titles, sql) = try Self.fetch(request, store)
        #expect(sql.contains { Self.readsKeysOnly($0) })
        #expect(sql.contains { $0.contains(Self.byKey) })
        #expect(titles == expected)
        #expect(titles.contains("added"))
        #expect(!titles.contains("1499.0"), "the deleted row (key 1500) is gone")
        #expect(expected.filter { $0.hasPrefix("changed ") }.count > 300)
    }

    @Test("A range in SQL holds in a cached-first fetch")
    func range() throws {
        let (store, _) = try Self.store(count: 300)
        var ranged = Self.byTitle
        ranged.fetchOffset = 40
        ranged.fetchLimit = 100
        for _ in 0..<2 { _ = try Self.fetch(Self.byTitle, store) }
        let (titles, sql) = try Self.fetch(ranged, store)
        #expect(sql.contains { Self.readsKeysOnly($0) && $0.contains("LIMIT") })
        #expect(titles == Array(try Self.uncached(Self.byTitle, store)[40..<140]))
    }

    @Test("A number stored as a BLOB in a sort key, in a row taken from the cache, is ordered as memory orders it")
    func numbersInBlobs() throws {
        let (store, _) = try Self.store(count: 200)
        let byScore = FetchRequest(entityName: "Book", sortDescriptors: [ObjectSortDescriptor(key: "score")])
        for _ in 0..<2 { _ = try Self.fetch(byScore, store) }

        // −0.0 is stored as a BLOB, which SQL orders after every number; memory orders it as 0.
        let context = ManagedObjectContext(coordinator: store.coordinator)
        let first = try #require(try context.fetch(FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "score == 5"))).first)
        try first.setValue(-0.0, forKey: "score")
        try first.setValue("minus zero", forKey: "title")
        try context.save()

        // The changed row is read by key once, then taken from the cache with the others.
        for pass in 0..<2 {
            let (titles, sql) = try Self.fetch(byScore, store)
            #expect(sql.contains { Self.readsKeysOnly($0) })
            #expect(Array(titles.prefix(3)) == ["0.0", "minus zero", "1.0"], "pass \(pass)")
            #expect(titles.count == 200)
            if pass == 1 { #expect(!sql.contains { $0.contains(Self.byKey) }, "every row was cached") }
        }
    }

    @Test("A cached-first fetch that found few rows cached turns the next fetch of the table back to whole rows")
    func turnsBack() throws {
        let (store, _) = try Self.store(count: 1_000)
        let low = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "score < 200"))
        let high = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "score >= 600"))
        let middle = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "score >= 300 AND score < 500"))
        for _ in 0..<2 { _ = try Self.fetch(low, store) }

        // The high rows are not cached: read by key, and the table is no longer read cached-first.
        let (titles, sql) = try Self.fetch(high, store)
        #expect(titles == (600..<1_000).map { "\(Double($0))" })
        #expect(sql.contains { Self.readsKeysOnly($0) })
        #expect(sql.contains { $0.contains(Self.byKey) })
        let (middleTitles, middleSQL) = try Self.fetch(middle, store)
        #expect(middleTitles == (300..<500).map { "\(Double($0))" })
        #expect(!middleSQL.contains { Self.readsKeysOnly($0) })
    }

    @Test("A fetch of few rows leaves the choice as it was")
    func fewRowsTellNothing() throws {
        let (store, url) = try Self.store(count: 300)
        let all = FetchRequest(entityName: "Book")
        for _ in 0..<2 { _ = try Self.fetch(all, store) }
        // Ten rows another program added, none of them cached: too few to turn the table back.
        try SQLiteStrayRowCountTests.write("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10)
            INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZSCORE)
            SELECT 1000 + i, (SELECT Z_ENT FROM ZBOOK LIMIT 1), 1, 'new ' || i, 1000 + i FROM n
            """, to: url)
        let (newTitles, newSQL) = try Self.fetch(FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "score >= 1000")), store)
        #expect(newTitles.count == 10)
        #expect(newSQL.contains { $0.contains(Self.byKey) })
        let (titles, sql) = try Self.fetch(all, store)
        #expect(titles.count == 310)
        #expect(sql.contains { Self.readsKeysOnly($0) })
    }
}
