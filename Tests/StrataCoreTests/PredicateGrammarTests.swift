import Foundation
import StrataCore
import Testing

/// Every construct of the grammar: what it parses to, that `description` parses back to an
/// equal predicate, and how it evaluates on plain dictionaries.
@Suite("Predicate grammar")
struct PredicateGrammarTests {
    typealias P = ObjectPredicate
    typealias E = ObjectExpression

    static var team: [String: Any] { [
        "name": "Core",
        "members": [
            ["name": "Ann", "age": 31, "langs": ["swift", "c"]] as [String: Any],
            ["name": "Ben", "age": 24, "langs": ["swift"]] as [String: Any],
            ["name": "Cy", "age": 45, "langs": [String]()] as [String: Any],
        ],
        "scores": [3, 9, 4],
        "lead": ["name": "Ann", "age": 31] as [String: Any],
    ] }

    static func right(_ format: String, _ arguments: Any?...) throws -> E {
        guard case .comparison(let comparison) = try P(format: format, argumentArray: arguments) else {
            throw ObjectPredicateError.unboundVariable(format)
        }
        return comparison.right
    }

    static func left(_ format: String) throws -> E {
        guard case .comparison(let comparison) = try P(format: format) else { throw ObjectPredicateError.unboundVariable(format) }
        return comparison.left
    }

    // MARK: Structure

    @Test("SUBQUERY parses to a subquery expression, its variable left unsubstituted")
    func subquery() throws {
        let expected = E.keyPath("@count", of: .subquery(
            collection: .keyPath("members"), variable: "m",
            predicate: .compare(.keyPath("age", of: .variable("m")), .greaterThan, .constant(.integer(30)))))
        #expect(try Self.left("SUBQUERY(members, $m, $m.age > 30).@count == 1") == expected)
        #expect(expected == .keyPathOf(.subquery(collection: .keyPath("members"), variable: "m",
                                                 predicate: .compare(.keyPathOf(.variable("m"), "age"), .greaterThan,
                                                                     .constant(.integer(30)))), "@count"))
        let template = try P(format: "SUBQUERY(members, $m, $m.age > $MIN).@count > 0")
        let bound = template.withSubstitutionVariables(["MIN": 40, "m": "never"])
        #expect(bound == (try P(format: "SUBQUERY(members, $m, $m.age > 40).@count > 0")))
    }

    @Test("Key paths on variables, SELF and collections; element subscripts")
    func keyPathsAndSubscripts() throws {
        #expect(try Self.left("$x.name == 1") == .keyPathOf(.variable("x"), "name"))
        #expect(try Self.left("$x.a.b == 1") == .keyPathOf(.variable("x"), "a.b"))
        #expect(try Self.left("SELF.a.b == 1") == .keyPath("a.b"))
        #expect(try Self.left("{1, 2}.@count == 2") == .keyPathOf(.constant(.array([.integer(1), .integer(2)])), "@count"))
        #expect(try Self.left("list[FIRST] == 1") == .element(.keyPath("list"), .first))
        #expect(try Self.left("list[last] == 1") == .element(.keyPath("list"), .last))
        #expect(try Self.left("list[SIZE] == 1") == .element(.keyPath("list"), .size))
        #expect(try Self.left("list[ 3 ] == 1") == .element(.keyPath("list"), .index(3)))
        #expect(try Self.left("list[0x10] == 1") == .element(.keyPath("list"), .index(16)))
        #expect(try P(format: "list[%d] == 1", 2) == (try P(format: "list[2] == 1")))
        #expect(try Self.left("list[FIRST].name.x == 1") == .keyPathOf(.element(.keyPath("list"), .first), "name.x"))
        #expect(try Self.left("a.b[LAST][FIRST] == 1") == .element(.element(.keyPath("a.b"), .last), .first))
    }

    @Test("Identifiers: # escapes, \\u escapes, decomposed letters, %K in the middle of a path")
    func identifiers() throws {
        #expect(try Self.left("#first == 1") == .keyPath("first"))
        #expect(try Self.left("a.#size.#CAST == 1") == .keyPath("a.size.CAST"))
        #expect(try Self.left(#"first\u0020name == 1"#) == .keyPath("first name"))
        #expect(try Self.left(#"\u0031st == 1"#) == .keyPath("1st"))
        #expect(try Self.left(#"a\x2Db == 1"#) == .keyPath("a-b"))
        #expect(try Self.left(#"a\055b == 1"#) == .keyPath("a-b"))
        #expect(try Self.left(#"x\uD83D\uDE00 == 1"#) == .keyPath("x\u{1F600}"))
        #expect(try Self.left(#"\u0041ND == 1"#) == .keyPath("AND"))  // escaped, so not the keyword
        #expect(try P(format: "a.%K.c == 1", "b") == (try P(format: "a.b.c == 1")))
        #expect(try P(format: "%K.%K == 1", "a.b", "c") == (try P(format: "a.b.c == 1")))
        #expect(try Self.left("_a1 == 1") == .keyPath("_a1"))
        #expect(try Self.left("Straße.ключ == 1") == .keyPath("Straße.ключ"))
    }

    @Test("Keywords in any case; SOME is ANY")
    func keywordCase() throws {
        #expect(try P(format: "some xs == 1 and not y == nil or z == yes")
            == (try P(format: "ANY xs == 1 AND NOT y == NIL OR z == YES")))
        #expect(try P(format: "truepredicate") == .truePredicate)
        #expect(try P(format: "x BeGiNsWiTh[Cd] 'a'") == (try P(format: "x BEGINSWITH[cd] 'a'")))
        #expect(try P(format: "x CONTAINS [cd] 'a'") == (try P(format: "x CONTAINS[cd] 'a'")))  // space before options
        #expect(try P(format: "x == Cast(0, 'NSDate')") == (try P(format: "x == CAST(0, 'NSDate')")))
        #expect(try Self.right("x == cast(0, 'NSDate')") == .constant(.date(Date(timeIntervalSinceReferenceDate: 0))))
    }

    @Test("Literals: string escapes, numbers in every base, CAST conversions")
    func literals() throws {
        #expect(try Self.right(#"x == "\a\b\f\v\x41\101\u00e9""#) == .constant(.string("\u{7}\u{8}\u{C}\u{B}AA\u{E9}")))
        #expect(try Self.right(#"x == '\uD83D\uDE00'"#) == .constant(.string("\u{1F600}")))
        #expect(try Self.right("x == '%@ and $X and %K'") == .constant(.string("%@ and $X and %K")))  // quoted: literal
        #expect(try Self.right("x == '100%%'") == .constant(.string("100%%")))
        #expect(try Self.right("x == -0x10") == .constant(.integer(-16)))
        #expect(try Self.right("x == -0x8000000000000000") == .constant(.integer(Int64.min)))
        #expect(try Self.right("x == 0B1111") == .constant(.integer(15)))
        #expect(try Self.right("x == 0O777") == .constant(.integer(511)))
        #expect(try Self.right("x == 1.5e2") == .constant(.double(150)))
        #expect(try Self.right("x == CAST('12.50', 'NSDecimalNumber')") == .constant(.decimal(Decimal(string: "12.50") ?? 0)))
        #expect(try Self.right("x == CAST(3, 'NSDecimalNumber')") == .constant(.decimal(3)))
        #expect(try Self.right("x == CAST(YES, 'NSNumber')") == .constant(.integer(1)))
        #expect(try Self.right("x == CAST(42, 'NSString')") == .constant(.string("42")))
        #expect(try Self.right("x == CAST('AAEC', 'NSData')") == .constant(.data(Data([0, 1, 2]))))
        #expect(try Self.right("x == CAST(-978307200, 'NSDate')") == .constant(.date(Date(timeIntervalSince1970: 0))))
        let uuid = UUID()
        #expect(try Self.right("x == CAST('\(uuid.uuidString)', 'NSUUID')") == .constant(.uuid(uuid)))
        #expect(try Self.right("x == CAST('https://a.b/c', 'NSURL')") == .constant(.url(URL(string: "https://a.b/c")!)))
    }

    @Test("Building in code gives the parsed predicate")
    func builders() throws {
        let a = P.compare("age", .greaterThan, 30)
        let b = P.compare("name", .beginsWith, "a", options: [.caseInsensitive, .diacriticInsensitive])
        let c = P.compare("tags", .equalTo, "x", modifier: .any)
        #expect(a == (try P(format: "age > 30")))
        #expect(b == (try P(format: "name BEGINSWITH[cd] 'a'")))
        #expect(c == (try P(format: "ANY tags == 'x'")))
        #expect((a && b && c) == (try P(format: "age > 30 AND name BEGINSWITH[cd] 'a' AND ANY tags == 'x'")))
        #expect((a || b || c) == (try P(format: "age > 30 OR name BEGINSWITH[cd] 'a' OR ANY tags == 'x'")))
        #expect(!a == (try P(format: "NOT age > 30")))
        #expect(((a || b) && c) == (try P(format: "(age > 30 OR name BEGINSWITH[cd] 'a') AND ANY tags == 'x'")))
        #expect(P(value: true) == .truePredicate && P(value: false) == .falsePredicate)
        #expect(P.compare(.keyPath("a"), .lessThan, .keyPath("b")) == (try P(format: "a < b")))
        #expect(E.value([1, 2]) == .constant(.array([.integer(1), .integer(2)])))
        #expect(E.collection([.value(1), .keyPath("b")]) == (try Self.right("x IN {1, b}")))
        #expect(try (a && b).evaluate(with: ["age": 31, "name": "Ábc"]))
    }

    // MARK: Round trips

    static let constructs: [String] = [
        "a = 1 AND b == 2 AND c != 3 AND d <> 4 AND e < 5 AND f <= 6 AND g =< 7 AND h > 8 AND i >= 9 AND j => 10",
        "x BETWEEN {1, 10} AND y BETWEEN {$LOW, $HIGH}",
        "x IN {1, 'a', nil} AND 'b' IN list AND list CONTAINS 3",
        "s BEGINSWITH 'a' OR s ENDSWITH[c] 'b' OR s CONTAINS[d] 'c' OR s LIKE[cd] 'd*?' OR s MATCHES[n] '^e$'",
        "s ==[cdn] 'x'",
        "(a == 1 || b == 2) && !(c == 3)",
        "TRUEPREDICATE OR FALSEPREDICATE",
        "NOT TRUEPREDICATE",
        "ANY xs == 1 AND SOME ys == 2 AND ALL zs > 3 AND NONE ws < 4",
        "SUBQUERY(members, $m, $m.age > 30 AND ANY $m.langs == 'swift').@count > 0",
        "SUBQUERY(a, $x, SUBQUERY($x.b, $y, $y.c == $x.d).@count == 0)[SIZE] == 2",
        "ALL SUBQUERY(members, $m, $m.age > 1).name BEGINSWITH 'A'",
        "team.lead.name == SELF.name AND SELF == $ME",
        "xs.@count == 1 AND xs.@sum.v == 2 AND xs.@avg.v == 3 AND xs.@min.v == 4 AND xs.@max.v == 5",
        "ANY xs.@distinctUnionOfObjects.v == 1",
        "list[FIRST] == 1 AND list[LAST] == 2 AND list[SIZE] == 3 AND list[4].name == nil",
        "x == 'single' AND y == \"double\" AND z == 'esc\\n\\t\\\"\\'\\\\\\u00e9'",
        "x == 42 AND y == -7 AND z == 0x2A AND w == 0o52 AND v == 0b101010 AND u == 4.25 AND t == 1e-3",
        "a == nil AND b == NULL AND c == TRUE AND d == YES AND e == FALSE AND f == NO",
        "x IN {} AND y IN {{1, 2}, {3}} AND z IN {a, b.c, $V}",
        "d == CAST(0, 'NSDate') AND e == CAST(-1.5, \"NSDate\")",
        "x == $VAR AND $VAR.name == 'a'",
        "#AND == 1 AND #first.#Size == 2 AND a.#in == 3",
        "\\u0031x == 1 AND first\\u0020name == 2 AND a\\u002Db == 3",
        "{1, 2}.@count == 2",
        "x.y ==[c] z.w",
        "x == '\u{1F600}' AND \u{E9}t\u{E9} == 'cafe\u{301}'",
    ]

    @Test("description parses back to an equal predicate for every construct", arguments: constructs)
    func roundTrip(format: String) throws {
        let predicate = try P(format: format)
        let printed = predicate.description
        let reparsed = try P(format: printed)
        #expect(reparsed == predicate, "\(format) printed as \(printed)")
        #expect(reparsed.description == printed)
    }

    @Test("Keys given with %K that are not identifiers print with escapes and parse back", arguments: [
        "first name", "1st", "a-b", "\u{1F600}", "x\u{1F600}y", "AND", "in", "cafe\u{301}", "\u{301}x", "@count", "a.b c",
        "tab\there", "$x", "#", "日本",
    ])
    func oddKeys(key: String) throws {
        let predicate = try P(format: "%K == 1", key)
        #expect(predicate == .comparison(.init(.keyPath(key), .equalTo, .constant(.integer(1)))))
        let printed = predicate.description
        let reparsed = try P(format: printed)
        #expect(reparsed == predicate, "\(key.debugDescription) printed as \(printed)")
        if !key.hasPrefix("@") { #expect(try reparsed.evaluate(with: [String: Any]()) == false) }
    }

    @Test("Predicates built in code print formats that parse back")
    func builtRoundTrip() throws {
        let id = ManagedObjectID.temporary(entityName: "Thing")
        let built: [P] = [
            .compare(.subquery(collection: .keyPath("a"), variable: "v",
                               predicate: .compare("w", .like, "x?", options: .caseInsensitive)),
                     .equalTo, .value([Int]()), modifier: .all),
            .compare(.element(.keyPath("a"), .index(7)), .in, .value([1.5, 2.5])),
            .compare(.keyPath("a", of: .variable("first")), .matches, .value("a\nb")),
            .compare("when", .between, [Date(timeIntervalSinceReferenceDate: 1.25), Date(timeIntervalSinceReferenceDate: 2)]),
            .compare("id", .equalTo, id),
            .compare("d", .equalTo, Decimal(string: "-12.000001")),
            .compare("n", .lessThan, Double.infinity),
            !(.compare("a", .equalTo, 1) || .truePredicate) && .falsePredicate,
        ]
        for predicate in built {
            let printed = predicate.description
            #expect(try P(format: printed) == predicate, "printed as \(printed)")
        }
    }

    // MARK: Evaluation of the constructs

    @Test("SUBQUERY, subscripts and operators evaluate on dictionaries")
    func evaluation() throws {
        func check(_ format: String, _ expected: Bool, _ arguments: Any?..., sourceLocation: SourceLocation = #_sourceLocation) {
            do {
                let result = try P(format: format, argumentArray: arguments).evaluate(with: Self.team)
                #expect(result == expected, "\(format)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(format): \(error)", sourceLocation: sourceLocation)
            }
        }
        check("SUBQUERY(members, $m, $m.age > 30).@count == 2", true)
        check("SUBQUERY(members, $m, ANY $m.langs == 'c').@count == 1", true)
        check("SUBQUERY(members, $m, langs.@count == 0)[FIRST].name == 'Cy'", true)
        check("SUBQUERY(members, $m, $m.age > 100).@count == 0", true)
        check("SUBQUERY(nothing, $m, $m.age > 1).@count == 0", true)
        check("members[FIRST].name == 'Ann' AND members[LAST].name == 'Cy' AND members[1].age == 24", true)
        check("members[SIZE] == 3 AND members[3] == nil AND scores[2] == 4", true)
        check("{1, 2, 3}.@sum == 6 AND {5, 1}.@max == 5 AND {}.@count == 0", true)
        check("ALL members.age > 20 AND NONE members.age > 50 AND ANY members.langs CONTAINS 'swift'", true)
        check("lead.name == members[FIRST].name", true)
        check("scores.@avg BETWEEN {5.3, 5.4}", true)
        check("ALL nothing.x == 1 AND NONE nothing.x == 1 AND NOT ANY nothing.x == 1", true)
        check("name MATCHES 'Core'", true)
        check("name MATCHES 'Cor'", false)
        check("%@ MATCHES 'ab'", false, "ab\n")  // a final newline is part of the string
        check("name MATCHES '(?x) C o r e  # spaced out'", true)
        check("name LIKE 'C\\\\*re'", false)
        check("%@ LIKE 'C\\\\*re'", true, "C*re")
        check("%@ LIKE 'a\\\\?'", true, "a?")
        check("%@ LIKE 'a\\\\?'", false, "ab")
        check("%@ LIKE '*a*b*'", true, "xxaxxbxx")
        check("%@ LIKE '*a*b'", false, "xxaxxbxx")
        check("%@ BEGINSWITH ''", true, "abc")
        check("%@ CONTAINS ''", true, "abc")
        check("'' IN %@", true, "abc")
    }

    @Test("Variables given at evaluation keep objects, so $x.key reads them")
    func evaluationVariables() throws {
        let predicate = try P(format: "lead.name == $WHO.name AND $WHO.age > 30")
        #expect(try predicate.evaluate(with: Self.team, substitutionVariables: ["WHO": ["name": "Ann", "age": 31] as [String: Any]]))
        #expect(try !predicate.evaluate(with: Self.team, substitutionVariables: ["WHO": ["name": "Ben", "age": 31] as [String: Any]]))
        #expect(try !predicate.evaluate(with: Self.team, substitutionVariables: ["WHO": nil]))
        #expect(throws: ObjectPredicateError.unboundVariable("WHO")) { try predicate.evaluate(with: Self.team) }
    }

    @Test("SELF evaluates plain values")
    func plainValues() throws {
        let words = ["apple", "Äpfel", "banana", "apricot", "cherry"]
        let predicate = try P(format: "SELF BEGINSWITH[cd] 'a'")
        #expect(try words.filter { try predicate.evaluate(with: $0) } == ["apple", "Äpfel", "apricot"])
        #expect(try P(format: "SELF[FIRST] == 2").evaluate(with: [2, 3]))
        #expect(try P(format: "SELF.@count == 2 AND ALL SELF > 1").evaluate(with: [2, 3]))
    }
}
