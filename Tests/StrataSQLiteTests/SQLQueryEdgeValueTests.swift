import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// Values where SQL and the in-memory evaluator are most likely to part: NaN, −0.0 and
/// infinities (stored as BLOBs or at the ends of the order), integers past 2^53, decimals of
/// more digits than a REAL keeps, strings that are canonically equivalent but not the same bytes
/// (KELVIN SIGN and K, é and e + U+0301), NULs in strings, empty data, sub-entities, a
/// many-to-many and an ordered to-many. Random predicates over them, and every sort, give the
/// same answer translated and in memory.
@Suite("SQLite fetches: edge values")
struct SQLQueryEdgeValueTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Item") {
                Attribute("name", .string)
                Attribute("text", .string, indexed: true)
                Attribute("small", .integer16)
                Attribute("big", .integer64, indexed: true)
                Attribute("real", .double)
                Attribute("single", .float)
                Attribute("amount", .decimal)
                Attribute("day", .date)
                Attribute("flag", .boolean)
                Attribute("bytes", .binaryData)
                Attribute("uid", .uuid)
                Attribute("link", .uri)
                Relationship("other", to: "Item", inverse: "others")
                Relationship("others", toMany: "Item", inverse: "other")
                Relationship("tags", toMany: "Tag", inverse: "items")
                Relationship("steps", toMany: "Step", inverse: "item", ordered: true)
            }
            EntityDescription("Special", parent: "Item") {
                Attribute("extra", .integer32)
            }
            EntityDescription("Tag") {
                Attribute("name", .string)
                Relationship("items", toMany: "Item", inverse: "tags")
            }
            EntityDescription("Step") {
                Attribute("name", .string)
                Attribute("rank", .integer32)
                Relationship("item", to: "Item", inverse: "steps")
            }
        }
    }

    static let doubles: [Double?] = [1.5, -0.0, 0.0, .nan, .infinity, -.infinity, nil, 0x1p53 + 2, 1e300, -2.5,
                                     .greatestFiniteMagnitude, Double(bitPattern: 0x7FF8_0000_0000_0ABC), 0.1, 1]
    static let floats: [Float?] = [1.5, -0.0, .nan, nil, .infinity, 0.1, 3]
    static let days: [Double?] = [0, -0.0, .nan, 1e9, -1, nil, 0.5, 86_400]
    static let decimals: [String?] = ["1", "0.1", "12345678901234567890", "-5.25", "0", nil, "1234567890.12345",
                                      "3.14159265358979323846", "1.5"]
    static let smalls: [Int16?] = [0, -1, .max, .min, nil, 5, 1]
    static let bigs: [Int64?] = [.max, .min, (1 << 53) + 1, 0, nil, 9_007_199_254_740_993, -3, 1]
    static let texts: [String?] = ["K", "\u{212A}", "a\u{0}b", "", "Stra\u{DF}e", "e\u{301}", "\u{E9}", "\u{FB01}", "\u{130}",
                                   "Ω", nil, "z", "A;", "A\u{37E}", "`x", "\u{1FEF}x", "KELVIN", "\u{212A}ELVIN", "straße", "a"]
    static let flags: [Bool?] = [true, false, nil]
    static let blobs: [[UInt8]?] = [[], [0], [0, 1], [255], nil, [1]]
    static let uuids: [UUID?] = [UUID(uuidString: "00000000-0000-0000-0000-000000000001"), nil,
                                 UUID(uuidString: "FFFFFFFF-0000-0000-0000-000000000000")]
    static let links: [URL?] = [URL(string: "https://example.com/a"), nil, URL(string: "file:///tmp/x")]

    /// The items, saved.
    static func store() throws -> TwoWayStore {
        let base = try TwoWayStore(model: model())
        let context = base.context
        var items: [ManagedObject] = []
        for index in 0..<24 {
            let item = try context.insertNewObject(forEntityName: index % 6 == 5 ? "Special" : "Item")
            func pick<T>(_ values: [T?], _ step: Int) -> T? { values[(index * step + index / 3) % values.count] }
            try item.setValuesForKeys([
                "name": "item\(index)", "text": pick(texts, 1), "small": pick(smalls, 3), "big": pick(bigs, 5),
                "real": pick(doubles, 1), "single": pick(floats, 2), "amount": pick(decimals, 1).flatMap { Decimal(string: $0) },
                "day": pick(days, 3).map { Date(timeIntervalSinceReferenceDate: $0) }, "flag": pick(flags, 1),
                "bytes": pick(blobs, 1).map { Data($0) }, "uid": pick(uuids, 1), "link": pick(links, 2),
            ])
            if item.entity.name == "Special" { try item.setValue(Int32(index), forKey: "extra") }
            items.append(item)
        }
        for (index, item) in items.enumerated() where index % 4 != 0 {
            try item.setValue(items[(index * 7) % items.count], forKey: "other")
        }
        let tags = try (0..<4).map { index in
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try tag.setValue(["red", "Green", "", "\u{212A}"][index], forKey: "name")
            return tag
        }
        for (index, item) in items.enumerated() {
            for (position, tag) in tags.enumerated() where (index + position) % 3 == 0 { try item.add(tag, to: "tags") }
            for rank in 0..<(index % 4) {
                let step = try context.insertNewObject(forEntityName: "Step")
                try step.setValuesForKeys(["name": "s\(index)-\(rank)", "rank": Int32((index * 5 + rank * 3) % 7)])
                try item.insert(step, at: rank == 2 ? 0 : rank, in: "steps")
            }
        }
        try context.save()
        return base
    }

    /// Builds random predicates over the items from a seeded generator.
    struct Maker {
        var rng: SplitMix64

        mutating func int(_ upper: Int) -> Int { Int(rng.next() % UInt64(upper)) }
        mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

        static let attributes = ["text", "small", "big", "real", "single", "amount", "day", "flag", "bytes", "uid", "link", "name"]

        mutating func constant(for key: String) -> Any? {
            // Now and then a value of another type, which compares with nothing.
            let kind = int(8) == 0 ? pick(Self.attributes) : key
            switch kind {
            case "text", "name":
                return pick(SQLQueryEdgeValueTests.texts + ["k", "KELVIN", "ss", "STRASSE", "e", "E\u{301}", "a\u{0}", "item1"])
            case "small": return pick(SQLQueryEdgeValueTests.smalls.map { $0.map(Int.init) } + [40_000, 2.5, -0.5])
            case "big": return pick(SQLQueryEdgeValueTests.bigs + [Int64(1) << 53]).map { $0 as Any } ?? pick([0x1p53, 9.5e18, -0.0] as [Double])
            case "real", "single": return pick(SQLQueryEdgeValueTests.doubles + [2, -0.0, 1e-300]).map { $0 as Any } ?? Decimal(string: "1.5")
            case "amount":
                return pick(SQLQueryEdgeValueTests.decimals + ["12345678901234567891"]).flatMap { Decimal(string: $0) } ?? 1
            case "day": return pick(SQLQueryEdgeValueTests.days + [0.25]).map { Date(timeIntervalSinceReferenceDate: $0) }
            case "flag": return pick([true, false, 1, 0, 2, 0.5] as [Any])
            case "bytes": return pick(SQLQueryEdgeValueTests.blobs + [[0, 0]]).map { Data($0) }
            case "uid": return pick(SQLQueryEdgeValueTests.uuids)
            default: return pick(SQLQueryEdgeValueTests.links)
            }
        }

        mutating func comparison() -> ObjectPredicate {
            let key = pick(Self.attributes)
            let (path, modifier): (String, ObjectPredicate.Modifier) = switch int(6) {
            case 0: ("other." + key, .direct)
            case 1: ("others." + key, pick([.any, .all, .none, .direct]))
            case 2: ("other.others." + key, pick([.any, .all, .direct]))
            default: (key, pick([.direct, .direct, .direct, .any, .all, .none]))
            }
            let operation = pick(ObjectPredicate.Operator.allCases)
            let options = pick([[], [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive],
                                [.normalized]] as [StringComparisonOptions])
            var value: Any? = constant(for: key)
            switch operation {
            case .between: value = [constant(for: key), constant(for: key)]
            case .in where int(3) > 0: value = [constant(for: key), constant(for: key), constant(for: key)]
            case .like: value = pick(["*", "K*", "?", "*e*", "a\\*", "\u{212A}*", "*ss*", "??????"])
            case .matches: value = pick(["K.*", ".*", "(?i)k.*", "[a-z]+", ".", "\u{130}"])
            default: break
            }
            if int(12) == 0 {
                // The constant on the left.
                return .compare(.value(value), pick([.equalTo, .notEqualTo, .lessThan, .in, .greaterThanOrEqualTo]), .keyPath(path),
                                options: options)
            }
            return .compare(.keyPath(path), operation, .value(value), options: options, modifier: modifier)
        }

        mutating func structural() -> ObjectPredicate {
            switch int(9) {
            case 0: return .compare(.keyPath(pick(["tags.@count", "steps.@count", "others.@count", "other.tags.@count"])),
                                    pick([.equalTo, .lessThan, .greaterThanOrEqualTo]), .value(int(4)))
            case 1: return .compare(.keyPath("tags.name"), pick([.equalTo, .beginsWith, .contains]), .value(pick(["red", "k", "\u{212A}", ""])),
                                    options: pick([[], [.caseInsensitive]]), modifier: pick([.any, .all, .none, .direct]))
            case 2: return .compare(.keyPath("rank", of: .element(.keyPath("steps"), pick([.first, .last, .index(1), .index(-1)]))),
                                    pick([.equalTo, .greaterThan]), .value(int(7)))
            case 3: return .compare(.keyPath("@count", of: .subquery(collection: .keyPath(pick(["steps", "others", "tags"])), variable: "x",
                                                                    predicate: predicate(depth: 2))),
                                    pick([.equalTo, .greaterThan]), .value(int(3)))
            case 4: return .compare(.keyPath(pick(["other", "other.other"])), pick([.equalTo, .notEqualTo]),
                                    pick([.evaluatedObject, .keyPath("other")]))
            case 5: return .compare(.keyPath(pick(["real", "small", "text", "day"])), pick([.lessThan, .equalTo, .greaterThanOrEqualTo]),
                                    .keyPath(pick(["other.real", "big", "other.text", "other.day"])))
            case 6: return .compare(.keyPath(pick(["extra", "other.extra"])), .greaterThan, .value(3))
            case 7: return .compare(.keyPath("steps.@count"), .equalTo, .keyPath("tags.@count"))
            default: return .compare(.keyPath(pick(["other", "others", "steps"])), pick([.equalTo, .contains, .in]), .value(nil))
            }
        }

        mutating func predicate(depth: Int = 0) -> ObjectPredicate {
            let roll = int(100)
            if depth < 3, roll < 15 { return .and([predicate(depth: depth + 1), predicate(depth: depth + 1)]) }
            if depth < 3, roll < 27 { return .or([predicate(depth: depth + 1), predicate(depth: depth + 1)]) }
            if depth < 3, roll < 35 { return .not(predicate(depth: depth + 1)) }
            if roll < 55 { return structural() }
            return comparison()
        }
    }

    @Test("random predicates over edge values give the same objects and counts both ways", arguments: 0..<6)
    func randomPredicates(seed: UInt64) throws {
        let base = try Self.store()
        var maker = Maker(rng: SplitMix64(seed: 0xED6E_0000 + seed))
        var inSQL = 0
        let rounds = 250
        for _ in 0..<rounds {
            let predicate = maker.predicate()
            let entity = maker.int(5) == 0 ? "Special" : "Item"
            if try base.expectSame(base.request(entity, predicate), "\(entity): \(predicate)") { inSQL += 1 }
        }
        #expect(inSQL * 100 >= rounds * 70, "only \(inSQL) of \(rounds) in SQL")
    }

    @Test("every attribute sorts the same both ways, either direction, with ranges")
    func sorting() throws {
        let base = try Self.store()
        for key in Maker.attributes + ["other.text", "other.big", "tags.@count", "other"] {
            for ascending in [true, false] {
                for comparison in [ObjectSortDescriptor.Comparison.standard, .caseInsensitive] {
                    let sort = [ObjectSortDescriptor(key: key, ascending: ascending, comparison: comparison)]
                    try base.expectSame(base.request("Item", nil, sort: sort), "\(sort)")
                    try base.expectSame(base.request("Item", nil, sort: sort, offset: 3, limit: 5), "\(sort) ranged")
                    try base.expectSame(base.request("Item", .compare("flag", .equalTo, true), sort: sort), "\(sort) some rows")
                    try base.expectSame(base.request("Item", .compare("flag", .equalTo, true), sort: sort + [ObjectSortDescriptor(key: "small")],
                                                     offset: 1, limit: 4), "\(sort) with a predicate")
                }
            }
        }
    }

    @Test("numbers sort in SQL unless rows hold numbers stored as BLOBs, checked first or after reading")
    func sortingInSQL() throws {
        let base = try Self.store()
        let request = base.request("Item", nil, sort: [ObjectSortDescriptor(key: "big", ascending: false),
                                                      ObjectSortDescriptor(key: "text")], offset: 2, limit: 6)
        let plan = try #require(try base.store.fetchPlan(for: request))
        #expect(plan.isComplete)
        #expect(plan.select.sql.contains("ORDER BY t0.ZBIG DESC, strata_standard_key(t0.ZTEXT) ASC, CASE t0.Z_ENT"))
        try base.expectSame(request, "sorted in SQL")
        // The double column holds NaN and −0.0 as BLOBs. Read whole and unranged, the rows come
        // sorted by SQL and the store sorts them again when one it read holds such a number;
        // ranged, the store checks first and sorts in memory.
        let whole = base.request("Item", nil, sort: [ObjectSortDescriptor(key: "real")])
        let doubles = try #require(try base.store.fetchPlan(for: whole))
        #expect(doubles.sortedInSQL && doubles.checksOrderAfterReading)
        #expect(!doubles.select.sql.contains("X''"))
        try base.expectSame(whole, "real, sorted again after reading")
        let ranged = try #require(try base.store.fetchPlan(for: base.request("Item", nil, sort: [ObjectSortDescriptor(key: "real")], offset: 1, limit: 3)))
        #expect(!ranged.sortedInSQL && !ranged.checksOrderAfterReading)
        var idsOnly = whole
        idsOnly.includesPropertyValues = false
        let listed = try #require(try base.store.fetchPlan(for: idsOnly))
        #expect(!listed.sortedInSQL && !listed.checksOrderAfterReading)
        let throughJoin = try #require(try base.store.fetchPlan(for: base.request("Item", nil, sort: [ObjectSortDescriptor(key: "other.real")])))
        #expect(!throughJoin.checksOrderAfterReading)
    }
}
