import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// To-many predicates go to SQL as correlated subqueries on the inverse's indexed foreign key
/// (or the join table's key), and long chains of terms fit in one statement or stay in memory.
@Suite("SQLite fetches: to-many predicates and long chains in SQL")
struct SQLToManyTranslationTests {
    private func plan(_ fixture: FixtureStore, _ entity: String, _ format: String, _ arguments: Any?...) throws -> SQLFetchPlan {
        let predicate = try ObjectPredicate(format: format, argumentArray: arguments)
        return try #require(try fixture.base.store.fetchPlan(for: fixture.base.request(entity, predicate)))
    }

    /// Every to-many form: ANY, ALL, NONE, SUBQUERY, @count and integer aggregates, over a
    /// one-to-many, an ordered one, a many-to-many, through a to-one first, onto sub-entities.
    static let inSQL: [(String, String)] = [
        ("Person", "ANY pets.legs == 4"), ("Person", "ALL pets.legs > 0"), ("Person", "NONE pets.species ==[cd] 'DOG'"),
        ("Person", "SUBQUERY(pets, $p, $p.legs >= 2 AND $p.name BEGINSWITH 'R').@count == 1"),
        ("Person", "pets.@count > 1"), ("Person", "pets.@sum.legs > 3"), ("Person", "pets.@avg.legs < 3"),
        ("Person", "pets.@min.legs == 0"), ("Person", "pets.@max.legs == nil"),
        ("Person", "ANY tasks.done == NO"), ("Person", "tasks.@max.priority == 5"), ("Person", "tasks[SIZE] == 1"),
        ("Person", "ANY clubs.name == 'Chess'"), ("Person", "ALL clubs.dues > 10"), ("Person", "clubs.@sum.dues == 10"),
        ("Person", "clubs.@avg.dues == nil"), ("Person", "SUBQUERY(clubs, $c, $c.members.@count > 1).@count == 2"),
        ("Person", "ANY employer.employees.clubs.name == 'Rowing'"), ("Person", "employer.employees.@sum.age == 83"),
        ("Person", "ANY gadgets.weight > 400"), ("Person", "gadgets.@sum.weight == 700"),
        ("Phone", "owner.gadgets.@count == 2"), ("Gadget", "ANY owner.clubs.name == 'Chess'"),
        ("Club", "members.@avg.age == 27.5"), ("Club", "NONE members.age == nil"),
        ("Company", "employees.@min.active == NO"),
    ]

    @Test("to-many predicates are answered in SQL, nothing filtered in memory")
    func toManyInSQL() throws {
        let fixture = try FixtureStore()
        for (entity, format) in Self.inSQL {
            let plan = try plan(fixture, entity, format)
            #expect(plan.residual == nil && plan.isComplete, "\(entity): \(format): \(plan.notes)")
            #expect(plan.select.sql.contains("(SELECT "), "\(format): \(plan.select.sql)")
        }
    }

    @Test("aggregates of other types go through the evaluator's reduction in SQL")
    func aggregateFunctions() throws {
        let fixture = try FixtureStore()
        for (entity, format, function) in [("Company", "employees.@avg.height > 1.7", "strata_double_avg"),
                                           ("Person", "pets.@max.name == 'Tom'", "strata_max"),
                                           ("Company", "employees.@sum.salary > 13500", "strata_sum"),
                                           ("Person", "tasks.@max.due > CAST(3500, 'NSDate')", "strata_max"),
                                           ("Person", "tasks.@avg.priority > 2.5", "strata_avg"),
                                           ("Company", "employees.@sum.height == 0", "strata_double_sum")] {
            let plan = try plan(fixture, entity, format)
            #expect(plan.residual == nil && plan.select.sql.contains(function + "("), "\(format): \(plan.notes)")
            try fixture.base.expectSame(fixture.base.request(entity, plan.residual ?? (try ObjectPredicate(format: format))), format)
        }
    }

    @Test("a value computed per row that may be nil is computed once, for the nil check and the comparison alike")
    func computedOnce() throws {
        let fixture = try FixtureStore()
        for (entity, format, function) in [("Company", "employees.@avg.height > 1.7", "strata_double_avg("),
                                           ("Company", "NOT employees.@avg.height > 1.7", "strata_double_avg("),
                                           ("Person", "pets.@max.legs == nil", "max("),
                                           ("Person", "pets.@avg.legs != 3", "CAST(sum("),
                                           ("Person", "tasks[LAST].priority > 3", "LIMIT 1 OFFSET ?")] {
            let plan = try plan(fixture, entity, format)
            #expect(plan.residual == nil, "\(format): \(plan.notes)")
            #expect(plan.select.sql.components(separatedBy: function).count == 2, "\(format): once in \(plan.select.sql)")
            #expect(plan.select.sql.contains("AS \(SQLPredicateTranslator.computedValueName) LIMIT -1 OFFSET 0"), "\(plan.select.sql)")
            try fixture.base.expectSame(fixture.base.request(entity, try ObjectPredicate(format: format)), format)
        }
    }

    @Test("ANY, ALL and NONE over an integer test each element with one comparison, as hand-written SQL does")
    func bareElementComparisons() throws {
        let fixture = try FixtureStore()
        let cases: [(format: String, condition: String, exact: Bool)] = [
            ("ANY pets.legs == 4", "EXISTS (SELECT 1 FROM ZPET t1 WHERE t1.ZOWNER = t0.Z_PK AND t1.ZLEGS = ?)", true),
            ("ALL pets.legs > 0", "NOT (EXISTS (SELECT 1 FROM ZPET t1 WHERE t1.ZOWNER = t0.Z_PK AND t1.ZLEGS <= ?)", true),
            ("ALL pets.legs >= 2", "NOT (EXISTS (SELECT 1 FROM ZPET t1 WHERE t1.ZOWNER = t0.Z_PK AND t1.ZLEGS < ?)", true),
            ("ALL pets.legs < 4", "t1.ZLEGS >= ?", true), ("ALL pets.legs <= 2.5", "t1.ZLEGS > ?", true),
            ("NONE pets.legs == 4", "NOT (EXISTS (SELECT 1 FROM ZPET t1 WHERE t1.ZOWNER = t0.Z_PK AND t1.ZLEGS = ?)", true),
            ("NONE pets.legs > 2", "t1.ZLEGS > ?", true),
            // No opposite comparison, or not an integer: the nil check stays.
            ("ALL pets.legs == 4", "IS NOT NULL", false), ("ALL pets.legs != 4", "IS NOT NULL", false),
        ]
        for (format, condition, exact) in cases {
            let plan = try plan(fixture, "Person", format)
            #expect(plan.residual == nil && plan.select.sql.contains(condition), "\(format): \(plan.select.sql)")
            if exact { #expect(!plan.select.sql.contains("IS NOT NULL"), "\(format): \(plan.select.sql)") }
            try fixture.base.expectSame(fixture.base.request("Person", try ObjectPredicate(format: format)), format)
        }
        let doubles = try plan(fixture, "Company", "ALL employees.height > 1.7")
        #expect(doubles.residual == nil && doubles.select.sql.contains("IS NOT NULL"), "\(doubles.select.sql)")
        // Elements whose value is nil (Bob's Nokia, the Choir's dues) are skipped by all three, as
        // in memory.
        for format in ["ALL gadgets.weight >= 0", "ALL gadgets.weight > 250", "NONE gadgets.weight < 0",
                       "ANY gadgets.weight > -1", "ALL clubs.dues > 5", "NONE clubs.dues <= 10"] {
            let plan = try plan(fixture, "Person", format)
            #expect(plan.residual == nil && !plan.select.sql.contains("IS NOT NULL"), "\(format): \(plan.select.sql)")
            try fixture.base.expectSame(fixture.base.request("Person", try ObjectPredicate(format: format)), format)
        }
    }

    @Test("what SQL cannot compute exactly stays in memory, saying why")
    func aggregatesInMemory() throws {
        let fixture = try FixtureStore()
        // An Integer 64 sum that overflows becomes a Double in memory; SQL's sum() would fail.
        let sum = try plan(fixture, "Person", "tasks.@sum.priority > 5")
        #expect(sum.residual != nil && sum.notes.contains { $0.contains("@sum of Integer 64 values") }, "\(sum.notes)")
        let distinct = try plan(fixture, "Person", "4 IN pets.@distinctUnionOfObjects.legs")
        #expect(distinct.residual != nil, "\(distinct.notes)")
    }

    @Test("the subqueries look elements up by the inverse's foreign-key index or the join table's key")
    func indexedSubqueries() throws {
        let fixture = try FixtureStore()
        let cases: [(String, String)] = [
            ("ANY pets.legs == 4", "ZPET_ZOWNER_INDEX"), ("pets.@sum.legs > 3", "ZPET_ZOWNER_INDEX"),
            ("SUBQUERY(tasks, $t, $t.done == NO).@count == 2", "ZTASK_ZASSIGNEE_INDEX"),
            ("ANY gadgets.weight > 400", "ZGADGET_ZOWNER_INDEX"), ("ANY clubs.name == 'Chess'", "PRIMARY KEY"),
        ]
        for (format, index) in cases {
            let plan = try fixture.base.store.queryPlan(for: fixture.base.request("Person", try ObjectPredicate(format: format)))
            #expect(plan.contains { $0.contains(index) || $0.contains("sqlite_autoindex") }, "\(format): \(plan)")
            #expect(plan.filter { $0.hasPrefix("SCAN") }.count <= 1, "\(format): only the fetched table is scanned: \(plan)")
        }
    }

    @Test("a long OR of equalities is one IN list; other long chains are balanced trees")
    func longChains() throws {
        let fixture = try FixtureStore()
        let equalities = (0..<50_000).map { "age == \($0 + 1_000)" }.joined(separator: " OR ")
        let list = try plan(fixture, "Person", equalities + " OR age == 30")
        #expect(list.residual == nil && list.select.sql.contains("t0.ZAGE IN (?, ?"), "\(list.notes)")
        #expect(list.select.sql.count < 50_000 * 4, "one placeholder per value")

        let mixed = (0..<5_000).map { "age > \($0 + 1_000)" }.joined(separator: " OR ")
        let tree = try plan(fixture, "Person", mixed)
        #expect(tree.residual == nil, "\(tree.notes)")
        var depth = 0, deepest = 0
        for character in tree.select.sql {
            if character == "(" { depth += 1; deepest = max(deepest, depth) }
            if character == ")" { depth -= 1 }
        }
        #expect(deepest < 20, "nested \(deepest) deep")
        let fetched = try fixture.base.store.fetch(fixture.base.request("Person", try ObjectPredicate(format: mixed + " OR age == 19")))
        #expect(try fixture.names(fetched.map(\.objectID)) == ["Ilker"])
    }

    @Test("a conjunct with more values than a statement may bind stays in memory and answers the same")
    func placeholderLimit() throws {
        let fixture = try FixtureStore()
        let store = fixture.base.store
        let limit = try store.withConnection { state in state.connection.variableLimit }
        try store.withConnection { state in state.connection.variableLimit = 999 }
        defer { _ = try? store.withConnection { state in state.connection.variableLimit = limit } }
        #expect(try store.withConnection { state in state.connection.variableLimit } == 999)

        let names = (0..<5_000).map { "name \($0)" } + ["Bob", "Eve"]
        let format = "name IN %@ AND age > 20"
        let plan = try plan(fixture, "Person", format, names)
        #expect(plan.residual?.description.hasPrefix("name IN") == true, "\(plan.notes)")
        #expect(plan.select.sql.contains("t0.ZAGE > ?"), "the other conjunct still goes to SQL")
        let request = fixture.base.request("Person", try ObjectPredicate(format: format, names))
        try fixture.base.expectSame(request, format)
        #expect(try fixture.names(try store.fetch(request).map(\.objectID)) == ["Bob"])
        #expect(try store.count(request) == 1)
    }
}
