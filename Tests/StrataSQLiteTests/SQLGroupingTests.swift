import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// Dictionary fetches that group and aggregate: the SQLite store computes them in SQL
/// (`GROUP BY`, `count`, `sum`, `min`, `max`) exactly as grouping the rows in memory does, or
/// leaves them to memory.
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
            }
        } catch {
            preconditionFailure("the test model is valid: \(error)")
        }
    }()

    /// Precomposed and decomposed spellings of the same region: one group in Swift's eyes.
    static let regions: [String?] = ["north", "South", "\u{E9}-east", "e\u{301}-east", "west", nil]

    /// A store of `count` sales in 4 shops, values drawn from `seed`; with `unusual`, some prices
    /// are NaN or −0.0 and one `big` is near the top of Int64.
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
            let sale = try context.insertNewObject(forEntityName: "Sale")
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
    static func answer(_ store: TwoWayStore, _ request: FetchRequest, inSQL: Bool) -> [Unicode.Scalar] {
        store.store.translatesQueries = inSQL
        defer { store.store.translatesQueries = true }
        let context = ManagedObjectContext(coordinator: store.coordinator)
        do {
            return Array("\(try context.fetchDictionaries(request))".unicodeScalars)
        } catch {
            return Array("error: \(error)".unicodeScalars)
        }
    }

    /// One randomly drawn grouping fetch, and what SQL can compute of it.
    struct Drawn {
        var request: FetchRequest
        var grouping: StoreGroupingRequest
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
        if keys.contains("cost") { expectsSQL = false }

        var expressions: [ExpressionDescription] = []
        var aggregates: [StoreGroupingRequest.Aggregate] = []
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
                    aggregates.append(.init(.count, key: nil))
                } else {
                    expressions.append(ExpressionDescription(name: name, expression: .count(key), resultType: .integer64))
                    aggregates.append(.init(.count, key: key))
                    if type == .decimal { expectsSQL = false }
                }
            case .sum, .average:
                guard type != .date else { continue }   // sums need numbers
                let result: AttributeType = function == .average || !isInteger ? .double : .integer64
                expressions.append(ExpressionDescription(name: name, expression: .function(function, .keyPath(key)), resultType: result))
                aggregates.append(.init(function, key: key))
                if !isInteger { expectsSQL = false }
            case .min, .max:
                expressions.append(ExpressionDescription(name: name, expression: .function(function, .keyPath(key)),
                                                         resultType: type == .boolean ? .integer64 : type))
                aggregates.append(.init(function, key: key))
                if type == .decimal || type == .boolean { expectsSQL = false }
            }
        }
        if expressions.isEmpty {
            expressions.append(ExpressionDescription(name: "rows", expression: .count(), resultType: .integer64))
            aggregates.append(.init(.count, key: nil))
        }

        let predicates: [ObjectPredicate?] = [
            nil, try ObjectPredicate(format: "units > %d", 10), try ObjectPredicate(format: "region BEGINSWITH[cd] %@", "e"),
            try ObjectPredicate(format: "flag == YES AND big < 0"), try ObjectPredicate(format: "shop.name == %@", "shop 1"),
        ]
        var request = FetchRequest(entityName: "Sale")
        request.predicate = predicates.randomElement(using: &random) ?? nil
        request.propertiesToFetch = keys.map { .keyPath($0) } + expressions.map { .expression($0) }
        if !keys.isEmpty {
            request.propertiesToGroupBy = keys.map { .keyPath($0) }
            if Bool.random(using: &random) {
                request.sortDescriptors = [ObjectSortDescriptor(key: keys[0], ascending: Bool.random(using: &random))]
            }
            if Int.random(in: 0..<3, using: &random) == 0, let first = expressions.first {
                request.havingPredicate = try ObjectPredicate(format: "\(first.name) > 1")
            }
            if Int.random(in: 0..<3, using: &random) == 0 { request.fetchLimit = 3 }
        }
        request.returnsDistinctResults = Int.random(in: 0..<4, using: &random) == 0
        let grouping = StoreGroupingRequest(entityNames: ["Sale"], predicate: request.predicate, groupBy: keys, aggregates: aggregates)
        return Drawn(request: request, grouping: grouping, expectsSQL: expectsSQL)
    }

    @Test("Random grouping fetches give the same dictionaries in SQL as in memory, and go to SQL when their columns allow",
          arguments: [(UInt64(1), false), (2, false), (3, true), (4, true)])
    func randomAgreement(seed: UInt64, unusual: Bool) throws {
        let store = try Self.store(seed: seed, count: 300, unusual: unusual)
        var random = SplitMix64(seed: seed &* 7919)
        var planned = 0
        for round in 0..<120 {
            let drawn = try Self.draw(&random)
            let sql = Self.answer(store, drawn.request, inSQL: true)
            let memory = Self.answer(store, drawn.request, inSQL: false)
            #expect(sql == memory, "round \(round): \(drawn.request.propertiesToFetch ?? []) grouped by \(drawn.grouping.groupBy)\nSQL:    \(String(String.UnicodeScalarView(sql)))\nmemory: \(String(String.UnicodeScalarView(memory)))")
            let plan = try store.store.groupingPlan(for: drawn.grouping)
            #expect((plan != nil) == drawn.expectsSQL, "round \(round): \(drawn.grouping)")
            if plan != nil { planned += 1 }
        }
        #expect(planned >= 40, "only \(planned) of 120 fetches went to SQL")
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
        let groups = try #require(try store.store.groups(grouping))
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
        #expect(try store.store.groups(grouping) == [StoreGroup(key: [], aggregates: [.integer(0), .integer(0), nil, nil])])
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
