import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// The SQL the translator writes: its shape, its bound values (never values in the text), what it
/// leaves to memory, hostile arguments and key names, and SQLite's use of indexes.
@Suite("SQLite fetches: the SQL")
struct SQLQueryTranslationTests {
    /// The plan of a fetch of `entity` with `format`.
    private func plan(_ fixture: FixtureStore, _ entity: String, _ format: String, _ arguments: Any?...) throws -> SQLFetchPlan {
        let predicate = try ObjectPredicate(format: format, argumentArray: arguments)
        return try #require(try fixture.base.store.fetchPlan(for: fixture.base.request(entity, predicate)))
    }

    /// The `WHERE` clause of a plan's statement.
    private func whereClause(_ plan: SQLFetchPlan) -> String {
        let sql = plan.select.sql
        guard let start = sql.range(of: " WHERE ") else { return "" }
        let rest = sql[start.upperBound...]
        let end = rest.range(of: " ORDER BY ", options: .backwards)?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test("representative predicates: the WHERE clause and its values")
    func shapes() throws {
        let fixture = try FixtureStore()
        let cases: [(String, String, [SQLiteValue])] = [
            ("age == 30", "(t0.ZAGE IS NOT NULL AND t0.ZAGE = ?)", [.integer(30)]),
            ("age != 30", "NOT (t0.ZAGE IS NOT NULL AND t0.ZAGE = ?)", [.integer(30)]),
            ("age == nil", "t0.ZAGE IS NULL", []),
            ("age > 30.5", "(t0.ZAGE IS NOT NULL AND t0.ZAGE > ?)", [.real(30.5)]),
            ("age BETWEEN {25, 30}", "((t0.ZAGE IS NOT NULL AND t0.ZAGE >= ?) AND (t0.ZAGE IS NOT NULL AND t0.ZAGE <= ?))",
             [.integer(25), .integer(30)]),
            ("age IN {19, 40}", "(t0.ZAGE IS NOT NULL AND t0.ZAGE IN (?, ?))", [.integer(19), .integer(40)]),
            ("active == YES", "(t0.ZACTIVE IS NOT NULL AND t0.ZACTIVE <> 0)", []),
            ("name == 'Alice'", "(t0.ZNAME IS NOT NULL AND t0.ZNAME = ?)", [.text("Alice")]),
            ("name ==[n] 'Ren\u{E9}'", "(t0.ZNAME IS NOT NULL AND t0.ZNAME = ?)", [.text("Ren\u{E9}")]),
            ("name ==[cd] 'chloe'", "strata_string(0, 3, t0.ZNAME, ?)", [.text("chloe")]),
            ("name == 'Chlo\u{E9}'", "strata_string(0, 0, t0.ZNAME, ?)", [.text("Chlo\u{E9}")]),
            ("name BEGINSWITH 'Al'", "(t0.ZNAME IS NOT NULL AND (t0.ZNAME >= ? AND t0.ZNAME < ? AND strata_string(6, 0, t0.ZNAME, ?)))",
             [.text("Al"), .text("Am"), .text("Al")]),
            ("name LIKE[c] 'a*'", "strata_like(t0.ZNAME, ?, 1)", [.text("a*")]),
            ("name MATCHES 'A.*'", "strata_regexp(t0.ZNAME, ?, 0)", [.text("A.*")]),
            ("'li' IN name", "strata_string(11, 0, ?, t0.ZNAME)", [.text("li")]),
            ("salary > 6000", "strata_compare(4, 0, 3, t0.ZSALARY, 2, ?)", [.integer(6000)]),
            ("employer.name == 'Acme'", "(t1.ZNAME IS NOT NULL AND t1.ZNAME = ?)", [.text("Acme")]),
            ("employer == nil", "t1.Z_PK IS NULL", []),
            ("ANY pets.species == 'dog'",
             "EXISTS (SELECT 1 FROM ZPET t1 WHERE t1.ZOWNER = t0.Z_PK AND (t1.ZSPECIES IS NOT NULL AND (t1.ZSPECIES IS NOT NULL AND t1.ZSPECIES = ?)))",
             [.text("dog")]),
            ("ALL pets.legs == 4",
             "NOT (EXISTS (SELECT 1 FROM ZPET t1 WHERE t1.ZOWNER = t0.Z_PK AND (t1.ZLEGS IS NOT NULL AND NOT (t1.ZLEGS IS NOT NULL AND t1.ZLEGS = ?))))",
             [.integer(4)]),
            ("pets.@count == 2", "(SELECT count(*) FROM ZPET t1 WHERE t1.ZOWNER = t0.Z_PK) = ?", [.integer(2)]),
            ("SUBQUERY(tasks, $t, $t.done == NO).@count == 2",
             "(SELECT count(*) FROM ZTASK t1 WHERE t1.ZASSIGNEE = t0.Z_PK AND (t1.ZDONE IS NOT NULL AND t1.ZDONE = 0)) = ?", [.integer(2)]),
            ("tasks[LAST].priority > 3",
             // The element is read once per row, then tested for nil and compared by name.
             "EXISTS (SELECT 1 FROM (SELECT (SELECT t1.ZPRIORITY FROM ZTASK t1 WHERE t1.ZASSIGNEE = t0.Z_PK ORDER BY t1.Z_FOK_ASSIGNEE DESC, t1.Z_PK DESC LIMIT 1 OFFSET ?)"
                + " AS strata_value LIMIT -1 OFFSET 0) WHERE (strata_value IS NOT NULL AND strata_value > ?))",
             [.integer(0), .integer(3)]),
            ("TRUEPREDICATE", "", []),
            ("FALSEPREDICATE", "0", []),
        ]
        for (format, expected, values) in cases {
            let plan = try plan(fixture, "Person", format)
            #expect(plan.residual == nil, "\(format): \(plan.notes)")
            #expect(whereClause(plan) == expected, "\(format)")
            #expect(Array(plan.select.parameters.prefix(values.count)) == values, "\(format): \(plan.select.parameters)")
        }
        let join = try plan(fixture, "Person", "employer.name == 'Acme'")
        #expect(join.select.sql.contains(" FROM ZPERSON t0 LEFT JOIN ZCOMPANY t1 ON t1.Z_PK = t0.ZEMPLOYER WHERE "))
        let acme = fixture.objects["Company/Acme"]
        #expect(acme != nil)
        let object = try plan(fixture, "Person", "employer == %@", acme)
        #expect(whereClause(object) == "(t1.Z_PK IS NOT NULL AND (t1.Z_PK = ? AND t1.Z_ENT = ?))")
    }

    @Test("a many-to-many goes through its join table")
    func joinTable() throws {
        let base = try SQLQueryEdgeValueTests.store()
        let plan = try #require(try base.store.fetchPlan(for: base.request("Item", try ObjectPredicate(format: "ANY tags.name == 'red'"))))
        let join = try #require(base.store.schema.joinTables.first)
        #expect(plan.select.sql.contains("EXISTS (SELECT 1 FROM \(join.name) j"))
        #expect(plan.select.sql.contains("JOIN ZTAG t"))
        #expect(plan.residual == nil)
    }

    @Test("order, offset and limit go to SQL with the store's tie-break; values are left out when not wanted")
    func orderAndRange() throws {
        let fixture = try FixtureStore()
        let base = fixture.base
        let request = base.request("Person", try ObjectPredicate(format: "age > 20"),
                                   sort: [ObjectSortDescriptor(key: "employer.name", ascending: false), ObjectSortDescriptor(key: "height")],
                                   offset: 1, limit: 2, values: false)
        let plan = try #require(try base.store.fetchPlan(for: request))
        #expect(plan.isComplete && !plan.includesValues)
        #expect(plan.select.sql.hasPrefix("SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT FROM ZPERSON t0 LEFT JOIN ZCOMPANY t1"))
        #expect(plan.select.sql.hasSuffix("ORDER BY strata_standard_key(t1.ZNAME) DESC, t0.ZHEIGHT ASC, t0.Z_PK LIMIT ? OFFSET ?"))
        #expect(plan.select.parameters.suffix(2) == [.integer(2), .integer(1)])
        let fetched = try base.store.fetch(request)
        #expect(fetched.count == 2 && fetched.allSatisfy { $0.attributes.isEmpty && $0.toOne.isEmpty })
        try base.expectSame(request, "IDs only")
        // A localized comparison sorts in memory, so the rows carry their values.
        let localized = base.request("Person", nil, sort: [ObjectSortDescriptor(key: "name", comparison: .localized(Locale(identifier: "sv")))],
                                     limit: 3, values: false)
        let memory = try #require(try base.store.fetchPlan(for: localized))
        #expect(!memory.sortedInSQL && memory.includesValues && memory.select.sql.hasSuffix("FROM ZPERSON t0"))
        try base.expectSame(localized, "localized")
    }

    @Test("an AND sends its translatable conjuncts to SQL and evaluates the rest on the candidates")
    func partial() throws {
        let fixture = try FixtureStore()
        let base = fixture.base
        let mixed = try plan(fixture, "Person", "age > 20 AND tasks.@sum.priority == 6 AND name != 'Zed'")
        #expect(whereClause(mixed) == "((t0.ZAGE IS NOT NULL AND t0.ZAGE > ?) AND NOT (t0.ZNAME IS NOT NULL AND t0.ZNAME = ?))")
        #expect(mixed.residual?.description == "tasks.@sum.priority == 6")
        #expect(!mixed.sortedInSQL && !mixed.rangedInSQL && mixed.count == nil)
        // A conjunct left in memory that cannot throw may come first.
        let trailing = try plan(fixture, "Person", "tasks.@sum.priority == 6 AND age > 20")
        #expect(whereClause(trailing) == "(t0.ZAGE IS NOT NULL AND t0.ZAGE > ?)")
        // After one that may throw (an unknown key, a pattern from a variable, @sum of strings),
        // the later ones stay in memory too: memory evaluates them only where the earlier ones
        // hold, and an error must come (or not) exactly as it would.
        for format in ["bogus == 1 AND age > 20", "pets.@sum.name == 1 AND age > 20", "name MATCHES $P AND age > 20",
                       "tasks.@sum.priority > 2 AND manager.@count == 1 AND age > 20"] {
            let blocked = try plan(fixture, "Person", format)
            #expect(!whereClause(blocked).contains("ZAGE"), "\(format)")
        }
        for format in ["age > 20 AND pets.@sum.legs == 2", "pets.@sum.legs == 2 AND age > 20", "age > 100 AND bogus == 1",
                       "bogus == 1 AND age > 100", "age < 100 AND bogus == 1", "name MATCHES '(' OR age > 1", "age > 1 OR name MATCHES '('",
                       "pets.@sum.name == 1 AND age > 100", "pets.@avg.legs > 1 AND NOT name BEGINSWITH 'A'",
                       "SUBQUERY(pets, $p, $p.@sum.legs > 0).@count > 0 AND age > 1"] {
            let request = base.request("Person", try ObjectPredicate(format: format), sort: [ObjectSortDescriptor(key: "name")], limit: 3)
            try base.expectSame(request, format)
        }
    }

    @Test("no value of a predicate is ever written into the SQL text")
    func valuesAreBound() throws {
        let fixture = try FixtureStore()
        for item in PredicateTable.cases {
            let predicate = try fixture.predicate(item)
            let plan = try #require(try fixture.base.store.fetchPlan(for: fixture.base.request(item.entity, predicate)))
            // The only quotes are the empty BLOB literal of the checks for numbers stored as BLOBs.
            #expect(!plan.select.sql.replacingOccurrences(of: "X''", with: "").contains("'"), "\(item): \(plan.select.sql)")
            for case .text(let text) in plan.select.parameters where text.count > 2 {
                #expect(!plan.select.sql.contains(text), "\(item): '\(text)' in \(plan.select.sql)")
            }
        }
    }

    @Test("hostile arguments are values: they match nothing and change nothing")
    func injectionThroughArguments() throws {
        let fixture = try FixtureStore()
        let base = fixture.base
        let hostile = ["x' OR '1'='1", "'; DROP TABLE ZPERSON; --", "Robert'); DELETE FROM ZPERSON;--", "\") OR 1=1 --",
                       "*/ OR 1 /*", "Alice' --", "%' OR ZNAME LIKE '%"]
        for text in hostile {
            for format in ["name == %@", "name ==[cd] %@", "name BEGINSWITH %@", "name LIKE %@", "ANY pets.name == %@",
                           "employer.name CONTAINS %@", "SUBQUERY(tasks, $t, $t.name == %@).@count > 0"] {
                let request = base.request("Person", try ObjectPredicate(format: format, text))
                #expect(try base.store.fetch(request).isEmpty, "\(format) with \(text)")
                try base.expectSame(request, "\(format) with \(text)")
            }
            let list = base.request("Person", try ObjectPredicate(format: "name IN %@", [text, "Bob"]))
            #expect(try base.store.fetch(list).count == 1)
        }
        #expect(try base.store.count(base.request("Person", nil)) == 8)
        #expect(try base.store.count(base.request("Pet", nil)) == 5)
    }

    @Test("a %K that is not a property is an error of the key, never SQL")
    func injectionThroughKeys() throws {
        let fixture = try FixtureStore()
        let base = fixture.base
        for key in ["name; DROP TABLE ZPERSON", "ZNAME", "Z_PK", "name) OR (1", "name = name OR 1", "employer.ZNAME",
                    "t0.ZNAME", "name--", "pets.@count.x", "name.length"] {
            let predicate = try ObjectPredicate(format: "%K == %@", key, "Alice")
            let plan = try #require(try base.store.fetchPlan(for: base.request("Person", predicate)))
            #expect(plan.residual != nil && whereClause(plan).isEmpty, "\(key)")
            #expect(throws: (any Error).self, "\(key)") { try base.context.fetch(FetchRequest(entityName: "Person", predicate: predicate)) }
            do {
                _ = try base.store.fetch(base.request("Person", predicate))
                Issue.record("\(key) fetched")
            } catch {
                #expect(error is ObjectError, "\(key): \(error)")
            }
        }
        #expect(try base.store.count(base.request("Person", nil)) == 8)
    }

    @Test("a value that cannot be read as its attribute's type is a corrupt store, found by SQL as in memory")
    func corruptValue() throws {
        let fixture = try FixtureStore()
        let base = fixture.base
        try base.store.withConnection { try $0.connection.execute("UPDATE ZPERSON SET ZSALARY = x'0102' WHERE ZNAME = 'Bob'") }
        let request = base.request("Person", try ObjectPredicate(format: "salary > 10"))
        for translated in [true, false] {
            base.store.translatesQueries = translated
            do {
                _ = try base.store.fetch(request)
                Issue.record("fetched a corrupt value")
            } catch let error as StoreError {
                // A value its attribute cannot hold is refused with the object and attribute named.
                switch error {
                case .corruptStore: break
                case .invalidStoredValue(let problem): #expect(problem.attribute == "salary" && problem.found == "a 2-byte blob")
                default: Issue.record("\(error)")
                }
            }
        }
        base.store.translatesQueries = true
    }

    @Test("a fetch on an indexed attribute uses its index")
    func indexUse() throws {
        let base = try SQLQueryEdgeValueTests.store()
        let cases: [(String, String)] = [
            ("big == 5", "USING INDEX ZITEM_ZBIG_INDEX (ZBIG=?)"),
            ("big IN {1, 5, 9}", "USING INDEX ZITEM_ZBIG_INDEX (ZBIG=?)"),
            ("big > 5 AND big < 9", "USING INDEX ZITEM_ZBIG_INDEX (ZBIG>? AND ZBIG<?)"),
            ("text == 'abc'", "USING INDEX ZITEM_ZTEXT_INDEX (ZTEXT=?)"),
            ("text ==[n] 'Straße'", "USING INDEX ZITEM_ZTEXT_INDEX (ZTEXT=?)"),
            ("text BEGINSWITH 'ab'", "USING INDEX ZITEM_ZTEXT_INDEX (ZTEXT>? AND ZTEXT<?)"),
            ("text == 'Kelvin'", "USING INDEX ZITEM_ZTEXT_INDEX (ZTEXT=?)"),
        ]
        for (format, expected) in cases {
            let plan = try base.store.queryPlan(for: base.request("Item", try ObjectPredicate(format: format)))
            #expect(plan.contains { $0.contains(expected) }, "\(format): \(plan)")
        }
        // Sorted by the index's column too.
        let sorted = base.request("Item", try ObjectPredicate(format: "big >= 0"), sort: [ObjectSortDescriptor(key: "big")], limit: 3)
        let plan = try base.store.queryPlan(for: sorted)
        #expect(plan.contains { $0.contains("USING INDEX ZITEM_ZBIG_INDEX") }, "\(plan)")
        #expect(!plan.contains { $0.contains("SCAN t0") }, "\(plan)")
    }

    @Test("only KELVIN SIGN, GREEK QUESTION MARK and GREEK VARIA are equal to an ASCII string")
    func asciiEquivalents() {
        var ascii: [String: String] = [:]
        for first in 0..<128 {
            let one = String(Character(Unicode.Scalar(UInt8(first))))
            ascii[one] = one
            for second in 0..<128 { ascii[one + String(Character(Unicode.Scalar(UInt8(second))))] = one }
        }
        var found: [UInt32: String] = [:]
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if let match = ascii[String(Character(scalar))] { found[value] = match }
        }
        #expect(found == [0x212A: "K", 0x37E: ";", 0x1FEF: "`"])
        #expect(SQLPredicateTranslator.asciiVariants("K;`")?.count == 8)
        #expect(SQLPredicateTranslator.asciiVariants("\u{E9}") == nil)
    }
}
