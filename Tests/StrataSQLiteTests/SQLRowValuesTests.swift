import Foundation
import Strata
@testable @_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// Dictionary fetches that neither group nor ask for distinct results: the SQLite store reads
/// just the asked columns of the matching rows in one `SELECT`, exactly as reading the rows whole
/// gives them, or leaves the fetch to the rows.
@Suite("SQLite store: dictionary fetches read only their columns")
struct SQLRowValuesTests {
    /// The values request a context makes for `request`, and the store's plan for it.
    static func plan(_ store: TwoWayStore, _ request: FetchRequest<ManagedObject>) throws -> SQLRowValuesPlan? {
        guard let fetch = try? DictionaryFetch(request, model: SQLGroupingTests.model), let keys = fetch.storeKeys else { return nil }
        let entities = request.includesSubentities ? Set(["Sale", "WebSale"]) : ["Sale"]
        let rows = StoreFetchRequest(entityNames: entities, predicate: request.predicate, sortDescriptors: request.sortDescriptors,
                                     fetchOffset: request.fetchOffset, fetchLimit: request.fetchLimit)
        return try store.store.rowValuesPlan(for: StoreValuesRequest(fetch: rows, keys: keys))
    }

    static let keys = ["region", "units", "big", "flag", "price", "day", "weight", "cost", "shop"]

    @Test("Random dictionary fetches give the same dictionaries from their columns as from whole rows",
          arguments: [(UInt64(11), false), (12, true)])
    func randomAgreement(seed: UInt64, unusual: Bool) throws {
        let store = try SQLGroupingTests.store(seed: seed, count: 200, unusual: unusual)
        var random = SplitMix64(seed: seed &* 104_729)
        var planned = 0
        for round in 0..<100 {
            var request = FetchRequest(entityName: "Sale")
            var properties: [FetchProperty] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let key = Self.keys.randomElement(using: &random) ?? "region"
                if !properties.contains(where: { $0.name == key }) { properties.append(.keyPath(key)) }
            }
            if Int.random(in: 0..<6, using: &random) == 0 { properties.append(.keyPath("shop.name")) }   // through a to-one: rows
            if Int.random(in: 0..<6, using: &random) == 0 {
                properties.append(.expression(ExpressionDescription(name: "u", expression: .keyPath("units"), resultType: .double)))
            }
            request.propertiesToFetch = properties
            let predicates: [ObjectPredicate?] = [
                nil, try ObjectPredicate(format: "units > %d", 10), try ObjectPredicate(format: "region BEGINSWITH[cd] %@", "e"),
                try ObjectPredicate(format: "shop.name == %@", "shop 1"), try ObjectPredicate(format: "price > 1.5"),
            ]
            request.predicate = predicates.randomElement(using: &random) ?? nil
            let sortKeys = ["region", "units", "price", "day", "weight", "cost", "shop.name"]
            request.sortDescriptors = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                ObjectSortDescriptor(key: sortKeys.randomElement(using: &random) ?? "units", ascending: Bool.random(using: &random))
            }
            request.fetchOffset = [0, 0, 3].randomElement(using: &random) ?? 0
            request.fetchLimit = [0, 0, 5, 40].randomElement(using: &random) ?? 0
            request.includesSubentities = Int.random(in: 0..<4, using: &random) != 0
            let sql = SQLGroupingTests.answer(store, request, inSQL: true)
            let memory = SQLGroupingTests.answer(store, request, inSQL: false)
            #expect(sql == memory, "round \(round): \(request)\nSQL:    \(String(String.UnicodeScalarView(sql)))\nmemory: \(String(String.UnicodeScalarView(memory)))")
            if try Self.plan(store, request) != nil { planned += 1 }
        }
        #expect(planned >= 40, "only \(planned) of 100 fetches read their columns")
    }

    @Test("The statement reads the asked columns only, with the fetch's condition, order and range")
    func statementShape() throws {
        let store = try SQLGroupingTests.store(seed: 5, count: 20)
        var request = FetchRequest(entityName: "Sale")
        request.propertiesToFetch = ["region", "shop", .expression(ExpressionDescription(name: "r", expression: .keyPath("region"),
                                                                                          resultType: .string))]
        request.predicate = try ObjectPredicate(format: "units > %d", 7)
        request.sortDescriptors = [ObjectSortDescriptor(key: "units")]
        request.fetchLimit = 4
        let plan = try #require(try Self.plan(store, request))
        #expect(plan.select.sql.hasPrefix("SELECT t0.Z_ENT, t0.ZREGION, t0.ZSHOP FROM ZSALE t0 WHERE"))
        #expect(plan.select.sql.contains("ORDER BY t0.ZUNITS ASC"))
        #expect(plan.select.sql.hasSuffix("LIMIT ? OFFSET ?"))
        #expect(plan.select.parameters.contains(.integer(7)))
        let rows = try ManagedObjectContext(coordinator: store.coordinator).fetchDictionaries(request)
        #expect(rows.count == 4)
        #expect(rows.allSatisfy { ($0["r"] as? String) == ($0["region"] as? String) })
        // Through a relationship, or the object itself: the rows are read whole.
        request.propertiesToFetch = ["shop.name"]
        #expect(try Self.plan(store, request) == nil)
        request.propertiesToFetch = [.expression(ExpressionDescription(name: "me", expression: .evaluatedObject, resultType: .objectID))]
        #expect(try Self.plan(store, request) == nil)
    }

    @Test("A value the column's type cannot hold leaves the fetch to the rows, which report it")
    func corruptValue() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("store.sqlite")
        let store = try TwoWayStore(model: SQLGroupingTests.model, url: url)
        for units in [Int32(1), 2] {
            let sale = try store.context.insertNewObject(forEntityName: "Sale")
            try sale.setValue(units, forKey: "units")
        }
        try store.context.save()
        let other = try SQLiteConnection(path: url.path, create: false)
        try other.run("UPDATE ZSALE SET ZUNITS = 'many' WHERE Z_PK = 2")
        var request = FetchRequest(entityName: "Sale")
        request.propertiesToFetch = ["units"]
        let plan = try #require(try Self.plan(store, request))
        #expect(try plan.run(on: other) == nil)
        let answer = String(String.UnicodeScalarView(SQLGroupingTests.answer(store, request, inSQL: true)))
        #expect(answer.contains("attribute 'units'"))
        #expect(SQLGroupingTests.answer(store, request, inSQL: false) == Array(answer.unicodeScalars))
    }
}
