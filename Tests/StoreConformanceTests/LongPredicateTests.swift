import Foundation
import Strata
import StrataTestSupport
import Testing

/// Predicates of thousands of terms and lists of tens of thousands of values: every store
/// answers them, and all give the same objects (SQLite's limits on expression depth and on
/// bound values never make a predicate fail there that another store answers).
@Suite("Long predicates")
struct LongPredicateTests {
    /// The names of the objects of `entity` a fresh context fetches with `predicate`, and their count.
    private func fetch(_ context: ManagedObjectContext, _ entity: String, _ predicate: ObjectPredicate) throws -> (Set<String>, Int) {
        let request = FetchRequest(entityName: entity, predicate: predicate)
        let names = Set(try context.fetch(request).map { try $0.value(forKey: "name") as? String ?? "<nil>" })
        return (names, try context.count(for: request))
    }

    private func savedFixture(_ store: StoreUnderTest) throws -> ManagedObjectContext {
        let context = try store.makeContext(model: PredicateFixture.model())
        try PredicateFixture.insert(into: context)
        try context.save()
        return context.freshContext()
    }

    @Test("OR chains of 999, 5,000 and 50,000 terms", arguments: StoreUnderTest.all)
    func orChains(store: StoreUnderTest) throws {
        let context = try savedFixture(store)
        for terms in [999, 5_000, 50_000] {
            // Equalities of one key (an IN list in SQL) and one of another key.
            let equalities = (0..<terms - 2).map { "age == \(1_000 + $0)" } + ["age == 30", "name == 'Eve'"]
            let (names, count) = try fetch(context, "Person", try ObjectPredicate(format: equalities.joined(separator: " OR ")))
            #expect(names == ["Alice", "Eve"] && count == 2, "\(store) \(terms) equalities: \(names)")

            // Terms that stay terms: a balanced tree of ORs in SQL.
            let mixed = (0..<terms - 1).map { $0 % 2 == 0 ? "age > \(100_000 + $0)" : "height < \(-Double($0))" } + ["age == 19"]
            let (found, total) = try fetch(context, "Person", try ObjectPredicate(format: mixed.joined(separator: " OR ")))
            #expect(found == ["Ilker"] && total == 1, "\(store) \(terms) mixed terms: \(found)")
        }
    }

    @Test("AND chains of 999, 5,000 and 50,000 terms", arguments: StoreUnderTest.all)
    func andChains(store: StoreUnderTest) throws {
        let context = try savedFixture(store)
        let active: Set<String> = ["Alice", "Chlo\u{E9}", "Дмитрий", "Rene\u{301}", "Ilker"]
        for terms in [999, 5_000, 50_000] {
            // Eve's nil age is not equal to any of them.
            let conjuncts = (0..<terms - 1).map { "age != \(1_000 + $0)" } + ["active == YES"]
            let (names, count) = try fetch(context, "Person", try ObjectPredicate(format: conjuncts.joined(separator: " AND ")))
            #expect(names == active && count == active.count, "\(store) \(terms) conjuncts: \(names)")

            // Nested inside a NOT and an OR.
            let nested = "NOT (" + conjuncts.joined(separator: " AND ") + ") OR name == 'Bob'"
            let (others, total) = try fetch(context, "Person", try ObjectPredicate(format: nested))
            #expect(others == ["Bob", "Eve", "Gustav"] && total == 3, "\(store) \(terms) nested: \(others)")
        }
    }

    @Test("IN lists of 40,000 numbers and 40,000 strings", arguments: StoreUnderTest.all)
    func longInLists(store: StoreUnderTest) throws {
        let context = try savedFixture(store)
        let ages = (0..<39_998).map { 1_000 + $0 } + [30, 19]
        let (names, count) = try fetch(context, "Person", try ObjectPredicate(format: "age IN %@", ages))
        #expect(names == ["Alice", "Ilker"] && count == 2, "\(store): \(names)")

        let words = (0..<39_999).map { "name \($0)" } + ["Bob"]
        let (found, total) = try fetch(context, "Person", try ObjectPredicate(format: "name IN %@", words))
        #expect(found == ["Bob"] && total == 1, "\(store): \(found)")

        let (none, zero) = try fetch(context, "Person", try ObjectPredicate(format: "NOT (name IN %@) AND age IN %@", words, ages))
        #expect(none == ["Alice", "Ilker"] && zero == 2, "\(store): \(none)")
    }
}
