import Foundation
import Strata
import StrataTestSupport
import Testing

/// What grouping a dictionary fetch means, on every store, wherever the store computes it (the
/// SQLite store in SQL, the others in memory): groups in the order of their first object, keyed
/// by that object's values, told apart as stored values are; sums that overflow; unsaved changes.
@Suite("Grouping")
struct GroupingTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Sale") {
                Attribute("region", .string)
                Attribute("units", .integer64)
                Attribute("price", .double)
            }
        }
    }

    /// Saves one sale per row and returns a fresh context on the store.
    static func seed(_ store: StoreUnderTest, _ rows: [(String?, Int64?, Double?)]) throws -> ManagedObjectContext {
        let context = try store.makeContext(model: model())
        for (region, units, price) in rows {
            try context.insert("Sale", ["region": region, "units": units, "price": price])
        }
        try context.save()
        return context.freshContext()
    }

    static func request(groupBy key: String, _ expressions: [(String, FetchExpression, AttributeType)]) -> FetchRequest<ManagedObject> {
        var request = FetchRequest(entityName: "Sale")
        request.propertiesToFetch = [.keyPath(key)] + expressions.map {
            .expression(ExpressionDescription(name: $0.0, expression: $0.1, resultType: $0.2))
        }
        request.propertiesToGroupBy = [.keyPath(key)]
        return request
    }

    @Test("Two spellings of one string are two groups, each keyed by its own spelling, in the order of their first object",
          arguments: StoreUnderTest.all)
    func spellings(store: StoreUnderTest) throws {
        let context = try Self.seed(store, [("e\u{301}-east", 1, nil), ("\u{E9}-east", 2, nil), ("north", 3, nil),
                                            ("\u{E9}-east", 4, nil), ("e\u{301}-east", 5, nil)])
        let rows = try context.fetchDictionaries(Self.request(groupBy: "region", [("total", .sum("units"), .integer64)]))
        let keys = rows.map { ($0["region"] as? String).map { Array($0.unicodeScalars) } ?? [] }
        #expect(keys == ["e\u{301}-east", "\u{E9}-east", "north"].map { Array($0.unicodeScalars) })
        #expect(rows.map { $0["total"] as? Int64 } == [6, 6, 3])   // 1 + 5, 2 + 4, 3
    }

    @Test("An integer sum that overflows becomes a double; NaN, −0.0 and 0.0 group as stored values",
          arguments: StoreUnderTest.all)
    func unusualNumbers(store: StoreUnderTest) throws {
        let context = try Self.seed(store, [("a", Int64.max - 1, 0.0), ("a", Int64.max - 1, -0.0), ("b", 5, .nan),
                                            ("b", 1, 0.0), ("c", nil, .nan)])
        var total = FetchRequest(entityName: "Sale")
        total.propertiesToFetch = [.expression(ExpressionDescription(name: "total", expression: .sum("units"), resultType: .double))]
        #expect(try context.fetchDictionaries(total).first?["total"] as? Double == Double(Int64.max - 1) * 2 + 6)

        let byPrice = try context.fetchDictionaries(Self.request(groupBy: "price", [("n", .count(), .integer64)]))
        let prices = byPrice.map { ($0["price"] as? Double).map { $0.isNaN ? "nan" : "\($0)" } ?? "nil" }
        #expect(prices == ["0.0", "-0.0", "nan"])   // one NaN bit pattern: one group
        #expect(byPrice.map { $0["n"] as? Int64 } == [2, 1, 2])

        var highest = FetchRequest(entityName: "Sale")
        highest.propertiesToFetch = [.expression(ExpressionDescription(name: "top", expression: .max("units"), resultType: .integer64))]
        #expect(try context.fetchDictionaries(highest).first?["top"] as? Int64 == Int64.max - 1)
    }

    @Test("Unsaved inserts, changes and deletes are grouped with the saved objects unless the request leaves them out",
          arguments: StoreUnderTest.all)
    func unsavedChanges(store: StoreUnderTest) throws {
        let context = try Self.seed(store, [("a", 1, nil), ("a", 2, nil), ("b", 3, nil)])
        var request = Self.request(groupBy: "region", [("total", .sum("units"), .integer64)])
        #expect(try context.fetchDictionaries(request).map { $0["total"] as? Int64 } == [3, 3])

        let sales = try context.fetch(FetchRequest(entityName: "Sale", sortDescriptors: [ObjectSortDescriptor(key: "units")]))
        try sales[0].setValue(Int64(10), forKey: "units")
        try context.delete(sales[2])
        try context.insert("Sale", ["region": "c", "units": Int64(7)])
        #expect(try context.fetchDictionaries(request).map { $0["total"] as? Int64 } == [12, 7])

        request.includesPendingChanges = false
        #expect(try context.fetchDictionaries(request).map { $0["total"] as? Int64 } == [3, 3])
    }

    @Test("Groups are filtered by the having predicate, sorted, made distinct and only then ranged",
          arguments: StoreUnderTest.all)
    func arrangement(store: StoreUnderTest) throws {
        let context = try Self.seed(store, [("b", 1, 1), ("a", 2, 1), ("c", 3, 2), ("a", 4, 2), ("b", 5, 3), ("c", 6, nil),
                                            ("d", 7, 3), (nil, 8, 1)])
        var request = Self.request(groupBy: "region", [("total", .sum("units"), .integer64), ("n", .count(), .integer64)])
        request.havingPredicate = try ObjectPredicate(format: "n > 1 OR region == nil")
        request.sortDescriptors = [ObjectSortDescriptor(key: "total", ascending: false)]
        func totals(_ request: FetchRequest<ManagedObject>) throws -> [String] {
            try context.fetchDictionaries(request).map { "\($0["region"] as? String ?? "nil") \($0["total"] as? Int64 ?? -1)" }
        }
        // b 6, a 6, c 9, d 7 (one sale: left out), nil 8; ties keep the order of their first sale.
        #expect(try totals(request) == ["c 9", "nil 8", "b 6", "a 6"])
        request.fetchOffset = 1
        request.fetchLimit = 2
        #expect(try totals(request) == ["nil 8", "b 6"])

        // Distinct results: grouped by region and price, shown by price alone, made distinct, then ranged.
        var prices = FetchRequest(entityName: "Sale")
        prices.propertiesToFetch = ["price"]
        prices.propertiesToGroupBy = ["region", "price"]
        prices.returnsDistinctResults = true
        prices.sortDescriptors = [ObjectSortDescriptor(key: "price")]
        prices.fetchOffset = 1
        let shown = try context.fetchDictionaries(prices).map { ($0["price"] as? Double).map { "\($0)" } ?? "nil" }
        #expect(shown == ["1.0", "2.0", "3.0"])   // nil, 1, 2, 3 after distinct; the first skipped

        // Distinct values without aggregates, sorted by what they read and ranged.
        var regions = FetchRequest(entityName: "Sale")
        regions.propertiesToFetch = ["region"]
        regions.returnsDistinctResults = true
        regions.sortDescriptors = [ObjectSortDescriptor(key: "region", ascending: false)]
        regions.fetchLimit = 3
        #expect(try context.fetchDictionaries(regions).map { $0["region"] as? String ?? "nil" } == ["d", "c", "b"])
    }

    @Test("Dictionaries of a few columns, without grouping, keep the fetch's predicate, order and range",
          arguments: StoreUnderTest.all)
    func columnsInOrderAndRange(store: StoreUnderTest) throws {
        let context = try Self.seed(store, [("b", 1, 1.5), ("a", 2, nil), ("c", 3, 2.5), ("a", 4, 0.5), (nil, 5, 3.5)])
        var request = FetchRequest(entityName: "Sale")
        request.propertiesToFetch = ["units", .expression(ExpressionDescription(name: "where", expression: .keyPath("region"),
                                                                                 resultType: .string))]
        request.predicate = try ObjectPredicate(format: "units > %d", 1)
        request.sortDescriptors = [ObjectSortDescriptor(key: "price", ascending: false)]
        request.fetchOffset = 1
        request.fetchLimit = 2
        // units > 1 by price descending: 5 (3.5), 3 (2.5), 4 (0.5), 2 (nil); skip one, keep two.
        let rows = try context.fetchDictionaries(request)
        #expect(rows.map { $0["units"] as? Int64 } == [3, 4])
        #expect(rows.map { $0["where"] as? String } == ["c", "a"])
        #expect(rows.map { Set($0.storedValues.keys) } == [["units", "where"], ["units", "where"]])
    }
}
