import Foundation
import Strata
@testable @_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// Dictionary fetches that group and aggregate, or ask for distinct results: the SQLite store
/// computes them in SQL (`GROUP BY`, `count`, `sum`, `min`, `max`, and around them `HAVING`,
/// `ORDER BY`, `LIMIT`, `OFFSET`) exactly as grouping the rows in memory does, or leaves them to
/// memory.
@Suite("SQLite store: grouping and aggregates in SQL")
struct SQLGroupingTests {
    static let model: ManagedObjectModel = {
        do {
            return try ManagedObjectModel {
                EntityDescription("Shop") {
                    Attribute("name", .string)
                    Relationship("sales", toMany: "Sale", inverse: "shop")
                }
                EntityDescription("Sale") {
                    Attribute("region", .string)
                    Attribute("units", .integer32)
                    Attribute("big", .integer64)
                    Attribute("flag", .boolean)
                    Attribute("price", .double)
                    Attribute("day", .date)
                    Attribute("weight", .float)
                    Attribute("cost", .decimal)
                    Relationship("shop", to: "Shop", inverse: "sales")
                }
                EntityDescription("WebSale", parent: "Sale") {
                    Attribute("site", .string)
                }
            }
        } catch {
            preconditionFailure("the test model is valid: \(error)")
        }
    }()

    /// Precomposed and decomposed spellings of the same region: one group in Swift's eyes.
    static let regions: [String?] = ["north", "South", "\u{E9}-east", "e\u{301}-east", "west", nil]

    /// A store of `count` sales in 4 shops (every third one a web sale, a sub-entity in the same
    /// table), values drawn from `seed`; with `unusual`, some prices are NaN or −0.0 and one
    /// `big` is near the top of Int64.
    static func store(seed: UInt64, count: Int, unusual: Bool = false) throws -> TwoWayStore {
        let store = try TwoWayStore(model: model)
        var random = SplitMix64(seed: seed)
        let context = store.context
        var shops: [ManagedObject] = []
        for index in 0..<4 {
            let shop = try context.insertNewObject(forEntityName: "Shop")
            try shop.setValue("shop \(index)", forKey: "name")
            shops.append(shop)
        }
        for index in 0..<count {
            let sale = try context.insertNewObject(forEntityName: index % 3 == 2 ? "WebSale" : "Sale")
            try sale.setValue(regions.randomElement(using: &random) ?? nil, forKey: "region")
            if Int.random(in: 0..<8, using: &random) != 0 { try sale.setValue(Int32.random(in: -5...40, using: &random), forKey: "units") }
            try sale.setValue(Int64.random(in: -1_000...1_000, using: &random), forKey: "big")
            try sale.setValue(Bool.random(using: &random), forKey: "flag")
            var price = Double(Int.random(in: 0...20, using: &random)) / 4
            if unusual, index % 7 == 3 { price = index % 2 == 0 ? .nan : -0.0 }
            try sale.setValue(price, forKey: "price")
            try sale.setValue(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...5, using: &random)) * 86_400), forKey: "day")
            try sale.setValue(Float(Int.random(in: 0...6, using: &random)) / 2, forKey: "weight")
            try sale.setValue(Decimal(Int.random(in: 0...9, using: &random)) / 10, forKey: "cost")
            if Int.random(in: 0..<5, using: &random) != 0 { try sale.setValue(shops.randomElement(using: &random), forKey: "shop") }
        }
        if unusual, count > 1 {
            let sales = try context.fetch(FetchRequest(entityName: "Sale"))
            try sales[0].setValue(Int64.max - 10, forKey: "big")
            try sales[1].setValue(Int64.max - 10, forKey: "big")
        }
        try context.save()
        return store
    }

    /// The results of a dictionary fetch, written out with their exact Unicode scalars (so that
    /// two spellings of one string differ), or the error.
    static func answer(_ store: TwoWayStore, _ request: FetchRequest<ManagedObject>, inSQL: Bool) -> [Unicode.Scalar] {
        store.store.translatesQueries = inSQL
        defer { store.store.translatesQueries = true }
        let context = ManagedObjectContext(coordinator: store.coordinator)
        do {
            return Array("\(try context.fetchDictionaries(request))".unicodeScalars)
        } catch {
            return Array("error: \(error)".unicodeScalars)
        }
    }

    /// One randomly drawn grouping or distinct fetch, and whether SQL can group it.
    struct Drawn {
        var request: FetchRequest<ManagedObject>
        /// Whether every column is of a kind SQL groups or aggregates exactly.
        var expectsSQL: Bool
    }

    static let groupKeys = ["region", "units", "flag", "price", "day", "weight", "shop", "cost"]
    static let numericKeys = ["units", "big", "flag", "price", "day", "weight", "cost"]

    static func draw(_ random: inout SplitMix64) throws -> Drawn {
        var expectsSQL = true
        var keys: [String] = []
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let key = groupKeys.randomElement(using: &random) ?? "region"
            if !keys.contains(key) { keys.append(key) }
        }
        // Floats do not group in SQL: two stored doubles can read as one float.
        if keys.contains("cost") || keys.contains("weight") { expectsSQL = false }
        var request = FetchRequest(entityName: "Sale")
        let predicates: [ObjectPredicate?] = [
            nil, try ObjectPredicate(format: "units > %d", 10), try ObjectPredicate(format: "region BEGINSWITH[cd] %@", "e"),
            try ObjectPredicate(format: "flag == YES AND big < 0"), try ObjectPredicate(format: "shop.name == %@", "shop 1"),
        ]
        request.predicate = predicates.randomElement(using: &random) ?? nil
        request.includesSubentities = Int.random(in: 0..<4, using: &random) != 0
        if Int.random(in: 0..<4, using: &random) == 0 {
            // Distinct results without aggregates: a grouping by every column read.
            if keys.isEmpty { keys = [groupKeys.randomElement(using: &random) ?? "region"] }
            expectsSQL = !keys.contains("cost") && !keys.contains("weight")
            request.propertiesToFetch = keys.map { .keyPath($0) }
            request.returnsDistinctResults = true
            if Bool.random(using: &random) {
                request.sortDescriptors = [ObjectSortDescriptor(key: keys.randomElement(using: &random) ?? "region",
                                                                ascending: Bool.random(using: &random))]
            }
            request.fetchOffset = Int.random(in: 0...2, using: &random)
            request.fetchLimit = [0, 3].randomElement(using: &random) ?? 0
            return Drawn(request: request, expectsSQL: expectsSQL)
        }

        var expressions: [ExpressionDescription] = []
        for index in 0..<Int.random(in: 1...3, using: &random) {
            let key = numericKeys.randomElement(using: &random) ?? "units"
            let type = model.entity(named: "Sale")?.attribute(named: key)?.type ?? .integer64
            let function = AggregateFunction.allCases.randomElement(using: &random) ?? .count
            let isInteger = [.integer32, .integer64, .boolean].contains(type)
            let name = "a\(index)"
            switch function {
            case .count:
                if Bool.random(using: &random) {
                    expressions.append(ExpressionDescription(name: name, expression: .count(), resultType: .integer64))
                } else {
                    expressions.append(ExpressionDescription(name: name, expression: .count(key), resultType: .integer64))
                    if type == .decimal { expectsSQL = false }
                }
            case .sum, .average:
                guard type != .date else { continue }   // sums need numbers
                let result: AttributeType = function == .average || !isInteger ? .double : .integer64
                expressions.append(ExpressionDescription(name: name, expression: .function(function, .keyPath(key)), resultType: result))
                // Booleans are not numbers to sum: the fetch throws, in SQL as in memory.
                if !isInteger || type == .boolean { expectsSQL = false }
            case .min, .max:
                expressions.append(ExpressionDescription(name: name, expression: .function(function, .keyPath(key)),
                                                         resultType: type == .boolean ? .integer64 : type))
                if type == .decimal || type == .boolean { expectsSQL = false }
            }
        }
        if expressions.isEmpty {
            expressions.append(ExpressionDescription(name: "rows", expression: .count(), resultType: .integer64))
        }

        // Sometimes a grouping key is left out of the results: distinct results are then made here.
        let shown = keys.count > 1 && Int.random(in: 0..<4, using: &random) == 0 ? Array(keys.dropLast()) : keys
        request.propertiesToFetch = shown.map { .keyPath($0) } + expressions.map { .expression($0) }
        if !keys.isEmpty {
            request.propertiesToGroupBy = keys.map { .keyPath($0) }
            let names = shown + expressions.map(\.name)
            var sorts: [ObjectSortDescriptor] = []
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                sorts.append(ObjectSortDescriptor(key: names.randomElement(using: &random) ?? keys[0], ascending: Bool.random(using: &random)))
            }
            request.sortDescriptors = sorts
            let first = expressions[0].name
            let havings = [
                nil, "\(first) > 1", "\(first) BETWEEN {2, 30}", "\(keys[0]) != nil", "NOT (\(first) < 3) OR \(keys[0]) == nil",
                "\(first) == 0 OR \(first) IN {1, 2, 3}",
            ]
            if let having = havings.randomElement(using: &random) ?? nil {
                request.havingPredicate = try ObjectPredicate(format: having)
            }
            request.fetchOffset = [0, 0, 1, 2].randomElement(using: &random) ?? 0
            request.fetchLimit = [0, 0, 3].randomElement(using: &random) ?? 0
        }
        request.returnsDistinctResults = Int.random(in: 0..<4, using: &random) == 0
        return Drawn(request: request, expectsSQL: expectsSQL)
    }

    /// What the context asks the store for a dictionary fetch, and the store's plan for it.
    static func plan(_ store: TwoWayStore, _ request: FetchRequest<ManagedObject>) throws -> SQLGroupingPlan? {
        let entities = request.includesSubentities ? Set(["Sale", "WebSale"]) : ["Sale"]
        // A request that does not fit the model throws before anything is grouped.
        guard let fetch = try? DictionaryFetch(request, model: model),
              let grouping = fetch.groupingRequest(entityNames: entities, predicate: request.predicate) else { return nil }
        return try store.store.groupingPlan(for: grouping)
    }

    @Test("Random grouping and distinct fetches give the same dictionaries in SQL as in memory, and go to SQL when their columns allow",
          arguments: [(UInt64(1), false), (2, false), (3, true), (4, true)])
    func randomAgreement(seed: UInt64, unusual: Bool) throws {
        let store = try Self.store(seed: seed, count: 300, unusual: unusual)
        var random = SplitMix64(seed: seed &* 7919)
        var planned = 0
        var arranged = 0
        for round in 0..<160 {
            let drawn = try Self.draw(&random)
            let sql = Self.answer(store, drawn.request, inSQL: true)
            let memory = Self.answer(store, drawn.request, inSQL: false)
            #expect(sql == memory, "round \(round): \(drawn.request)\nSQL:    \(String(String.UnicodeScalarView(sql)))\nmemory: \(String(String.UnicodeScalarView(memory)))")
            let plan = try Self.plan(store, drawn.request)
            #expect((plan != nil) == drawn.expectsSQL, "round \(round): \(drawn.request)")
            if let plan {
                planned += 1
                if plan.isArranged { arranged += 1 }
            }
        }
        #expect(planned >= 60, "only \(planned) of 160 fetches went to SQL")
        #expect(arranged >= 30, "only \(arranged) of 160 fetches were filtered, sorted and ranged in SQL")
    }

    @Test("Two spellings of one string are two groups, as values are told apart by their Unicode scalars")
    func spellings() throws {
        let store = try TwoWayStore(model: Self.model)
        for (index, region) in ["e\u{301}-east", "\u{E9}-east", "north", "\u{E9}-east", "e\u{301}-east"].enumerated() {
            let sale = try store.context.insertNewObject(forEntityName: "Sale")
            try sale.setValue(region, forKey: "region")
            try sale.setValue(Int32(index + 1), forKey: "units")
        }
        try store.context.save()
        var request = FetchRequest(entityName: "Sale")
        request.propertiesToFetch = ["region", .expression(ExpressionDescription(name: "total", expression: .sum("units"), resultType: .integer64))]
        request.propertiesToGroupBy = ["region"]
        let grouping = StoreGroupingRequest(entityNames: ["Sale"], groupBy: ["region"], aggregates: [.init(.sum, key: "units")])
        let groups = try #require(try store.store.groups(grouping)).groups
        let keys = groups.map { group -> [UInt32] in
            guard case .string(let text)? = group.key.first ?? nil else { return [] }
            return text.unicodeScalars.map(\.value)
        }
        #expect(keys == ["e\u{301}-east", "\u{E9}-east", "north"].map { $0.unicodeScalars.map(\.value) })
        let expected: [[AttributeValue?]] = [[.integer(6)], [.integer(6)], [.integer(3)]]   // 1 + 5, 2 + 4, 3
        #expect(groups.map(\.aggregates) == expected)
        #expect(Self.answer(store, request, inSQL: true) == Self.answer(store, request, inSQL: false))
    }

    @Test("Without grouping, an empty store still gives one group: count 0, sum 0, no average, no minimum")
    func emptyStore() throws {
        let store = try TwoWayStore(model: Self.model)
        let grouping = StoreGroupingRequest(entityNames: ["Sale"], groupBy: [], aggregates: [
            .init(.count, key: nil), .init(.sum, key: "units"), .init(.average, key: "units"), .init(.min, key: "price"),
        ])
        #expect(try store.store.groups(grouping)?.groups == [StoreGroup(key: [], aggregates: [.integer(0), .integer(0), nil, nil])])
    }

    @Test("An integer sum that overflows, a NaN and −0.0 are left to memory")
    func leftToMemory() throws {
        let store = try TwoWayStore(model: Self.model)
        for (big, price) in [(Int64.max - 1, 1.0), (Int64.max - 1, Double.nan), (5, -0.0)] {
            let sale = try store.context.insertNewObject(forEntityName: "Sale")
            try sale.setValue(big, forKey: "big")
            try sale.setValue(price, forKey: "price")
        }
        try store.context.save()
        // Planned (the columns allow it), but the values are what SQL cannot answer exactly.
        for grouping in [StoreGroupingRequest(entityNames: ["Sale"], groupBy: [], aggregates: [.init(.sum, key: "big")]),
                         StoreGroupingRequest(entityNames: ["Sale"], groupBy: [], aggregates: [.init(.max, key: "price")]),
                         StoreGroupingRequest(entityNames: ["Sale"], groupBy: ["price"], aggregates: [.init(.count, key: nil)])] {
            #expect(try store.store.groupingPlan(for: grouping) != nil)
            #expect(try store.store.groups(grouping) == nil, "\(grouping)")
        }
        var request = FetchRequest(entityName: "Sale")
        request.propertiesToFetch = [.expression(ExpressionDescription(name: "total", expression: .sum("big"), resultType: .double))]
        let rows = try ManagedObjectContext(coordinator: store.coordinator).fetchDictionaries(request)
        #expect(rows.first?["total"] as? Double == Double(Int64.max - 1) * 2 + 5)
    }

    @Test("The grouping statement binds the predicate's values")
    func statementShape() throws {
        let store = try TwoWayStore(model: Self.model)
        let grouping = StoreGroupingRequest(entityNames: ["Sale"], predicate: try ObjectPredicate(format: "units > %d", 7),
                                            groupBy: ["region", "shop"], aggregates: [.init(.count, key: nil), .init(.max, key: "day")])
        let plan = try #require(try store.store.groupingPlan(for: grouping))
        #expect(plan.select.sql.contains("GROUP BY t0.ZREGION, t0.ZSHOP"))
        #expect(!plan.select.sql.contains("7"))
        #expect(plan.select.parameters.contains(.integer(7)))
        // Through a relationship, or grouping by the object itself: memory.
        #expect(try store.store.groupingPlan(for: StoreGroupingRequest(entityNames: ["Sale"], groupBy: ["shop.name"], aggregates: [])) == nil)
        #expect(try store.store.groupingPlan(for: StoreGroupingRequest(entityNames: ["Sale", "Shop"], groupBy: [], aggregates: [])) == nil)
    }
}

/// The arrangement of groups (`HAVING`, `ORDER BY`, `LIMIT`, `OFFSET`) in SQL.
@Suite("SQLite store: groups filtered, sorted and ranged in SQL")
struct SQLGroupArrangementTests {
    /// Sales of units 1…12 over regions a, b, c (region of sale `i`: `i % 3`), one without a region.
    static func store() throws -> TwoWayStore {
        let store = try TwoWayStore(model: SQLGroupingTests.model)
        for index in 1...12 {
            let sale = try store.context.insertNewObject(forEntityName: index % 4 == 0 ? "WebSale" : "Sale")
            try sale.setValue(["a", "b", "c"][index % 3], forKey: "region")
            try sale.setValue(Int32(index), forKey: "units")
            try sale.setValue(Double(index) / 2, forKey: "price")
        }
        let stray = try store.context.insertNewObject(forEntityName: "Sale")
        try stray.setValue(Int32(100), forKey: "units")
        try store.context.save()
        return store
    }

    static func totals() -> FetchRequest<ManagedObject> {
        var request = FetchRequest(entityName: "Sale")
        request.propertiesToFetch = ["region", .expression(ExpressionDescription(name: "total", expression: .sum("units"), resultType: .integer64)),
                                     .expression(ExpressionDescription(name: "n", expression: .count(), resultType: .integer64))]
        request.propertiesToGroupBy = ["region"]
        return request
    }

    static func rows(_ store: TwoWayStore, _ request: FetchRequest<ManagedObject>) throws -> [String] {
        try ManagedObjectContext(coordinator: store.coordinator).fetchDictionaries(request).map { row in
            "\(row["region"] as? String ?? "nil") \(row["total"] as? Int64 ?? -1) \(row["n"] as? Int64 ?? -1)"
        }
    }

    @Test("Having, a sort by an aggregate and a range run in SQL, with the having's values bound")
    func arranged() throws {
        let store = try Self.store()
        var request = Self.totals()
        request.havingPredicate = try ObjectPredicate(format: "total > %d AND n >= 4", 21)
        request.sortDescriptors = [ObjectSortDescriptor(key: "total", ascending: false)]
        request.fetchLimit = 1
        request.fetchOffset = 1
        let plan = try #require(try SQLGroupingTests.plan(store, request))
        #expect(plan.isArranged)
        #expect(plan.select.sql.contains(" ORDER BY "))
        #expect(plan.select.sql.contains(" LIMIT ? OFFSET ?"))
        #expect(plan.select.parameters.contains(.integer(21)))
        #expect(!plan.select.sql.contains("21"))
        #expect(plan.select.sql.contains("UNION ALL"))   // one row of any unusual group, left out or not
        // a: 3+6+9+12 = 30, b: 1+4+7+10 = 22, c: 2+5+8+11 = 26; nil: 100 (one sale, n 1).
        #expect(try Self.rows(store, request) == ["c 26 4"])
        request.fetchLimit = 0
        request.fetchOffset = 0
        #expect(try Self.rows(store, request) == ["a 30 4", "c 26 4", "b 22 4"])
        store.store.translatesQueries = false
        #expect(try Self.rows(store, request) == ["a 30 4", "c 26 4", "b 22 4"])
    }

    @Test("A sort by a string key orders as memory does, ties in the order of the groups' first rows")
    func sortedByKey() throws {
        let store = try Self.store()
        var request = Self.totals()
        request.sortDescriptors = [ObjectSortDescriptor(key: "region", ascending: false)]
        #expect(try SQLGroupingTests.plan(store, request)?.isArranged == true)
        #expect(try Self.rows(store, request) == ["c 26 4", "b 22 4", "a 30 4", "nil 100 1"])
        request.sortDescriptors = [ObjectSortDescriptor(key: "n")]
        #expect(try Self.rows(store, request) == ["nil 100 1", "b 22 4", "c 26 4", "a 30 4"])
    }

    @Test("What SQL cannot say of the arrangement leaves all of it to memory, with the same answer")
    func leftToMemory() throws {
        let store = try Self.store()
        var request = Self.totals()
        request.propertiesToFetch = ["region", .expression(ExpressionDescription(name: "total", expression: .sum("units"), resultType: .integer16)),
                                     .expression(ExpressionDescription(name: "n", expression: .count(), resultType: .integer64))]
        request.fetchLimit = 2
        // A conversion (Integer 16) could throw for a group the range leaves out: not arranged.
        #expect(try SQLGroupingTests.plan(store, request)?.isArranged == false)
        var having = Self.totals()
        having.havingPredicate = try ObjectPredicate(format: "total > 22 AND region MATCHES %@", "[ac]")
        having.fetchLimit = 1
        let plan = try #require(try SQLGroupingTests.plan(store, having))
        #expect(plan.isArranged)   // MATCHES goes through the registered function
        #expect(try Self.rows(store, having) == ["c 26 4"])   // c's first sale (2) comes before a's (3)
        var unknown = Self.totals()
        unknown.havingPredicate = try ObjectPredicate(format: "price > 1")   // not a key of the results
        #expect(try SQLGroupingTests.plan(store, unknown)?.isArranged == false)
        let inSQL = SQLGroupingTests.answer(store, unknown, inSQL: true)
        #expect(inSQL == SQLGroupingTests.answer(store, unknown, inSQL: false))
    }

    @Test("A NaN in a group the range leaves out still sends the fetch to memory")
    func unusualOutsideTheRange() throws {
        let store = try Self.store()
        let sale = try store.context.insertNewObject(forEntityName: "Sale")
        try sale.setValue("z", forKey: "region")
        try sale.setValue(Double.nan, forKey: "price")
        try store.context.save()
        var request = FetchRequest(entityName: "Sale")
        request.propertiesToFetch = ["region", .expression(ExpressionDescription(name: "top", expression: .max("price"), resultType: .double))]
        request.propertiesToGroupBy = ["region"]
        request.sortDescriptors = [ObjectSortDescriptor(key: "region")]
        request.fetchLimit = 1
        let context = ManagedObjectContext(coordinator: store.coordinator)
        let entities: Set<String> = ["Sale", "WebSale"]
        let grouping = try #require(try DictionaryFetch(request, model: SQLGroupingTests.model)
            .groupingRequest(entityNames: entities, predicate: nil))
        #expect(grouping.arrangement?.limit == 1)
        #expect(try store.store.groups(grouping) == nil)
        let rows = try context.fetchDictionaries(request)
        #expect(rows.map { $0["region"] as? String } == [nil])
        #expect(SQLGroupingTests.answer(store, request, inSQL: true) == SQLGroupingTests.answer(store, request, inSQL: false))
    }

    @Test("Distinct results without aggregates are a grouping by what they read, ranged in SQL")
    func distinctValues() throws {
        let store = try Self.store()
        var request = FetchRequest(entityName: "Sale")
        request.propertiesToFetch = ["region"]
        request.returnsDistinctResults = true
        request.sortDescriptors = [ObjectSortDescriptor(key: "region", ascending: false)]
        request.fetchLimit = 2
        let plan = try #require(try SQLGroupingTests.plan(store, request))
        #expect(plan.isArranged)
        #expect(plan.select.sql.contains("GROUP BY t0.ZREGION"))
        let context = ManagedObjectContext(coordinator: store.coordinator)
        #expect(try context.fetchDictionaries(request).map { $0["region"] as? String } == ["c", "b"])
        // Sorted by what the results do not read: the rows are sorted and made distinct in memory.
        request.sortDescriptors = [ObjectSortDescriptor(key: "units")]
        #expect(try SQLGroupingTests.plan(store, request) == nil)
        #expect(try context.fetchDictionaries(request).map { $0["region"] as? String } == ["b", "c"])
    }

    @Test("A row of an entity the model does not know sends the grouping to memory, which reports the corrupt row")
    func unknownEntityRow() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("store.sqlite")
        let store = try TwoWayStore(model: SQLGroupingTests.model, url: url)
        let sale = try store.context.insertNewObject(forEntityName: "Sale")
        try sale.setValue("a", forKey: "region")
        try store.context.save()
        let other = try SQLiteConnection(path: url.path, create: false)
        try other.run("INSERT INTO ZSALE (Z_PK, Z_ENT, Z_OPT, ZREGION) VALUES (50, 99, 1, 'a')")
        // Sale and WebSale fill the table: no condition on Z_ENT reads the stray row.
        let request = Self.totals()
        let grouping = try #require(try DictionaryFetch(request, model: SQLGroupingTests.model)
            .groupingRequest(entityNames: ["Sale", "WebSale"], predicate: nil))
        #expect(try store.store.groupingPlan(for: grouping) != nil)
        #expect(try store.store.groups(grouping) == nil)
        let answer = String(String.UnicodeScalarView(SQLGroupingTests.answer(store, request, inSQL: true)))
        #expect(answer.contains("unknown Z_ENT 99"))
        #expect(SQLGroupingTests.answer(store, request, inSQL: false) == Array(answer.unicodeScalars))
    }
}
