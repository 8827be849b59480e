import Foundation
import Testing
import StrataCore

/// The predicate format-string language: parsing, evaluation, printing and errors.
@Suite("ObjectPredicate")
struct ObjectPredicateTests {
    typealias P = ObjectPredicate
    typealias C = ObjectPredicate.Comparison

    static func compare(_ key: String, _ operation: P.Operator, _ value: PredicateValue,
                        options: StringComparisonOptions = [], modifier: P.Modifier = .direct) -> P {
        .comparison(C(.keyPath(key), operation, .constant(value), options: options, modifier: modifier))
    }

    static var person: [String: Any] {
        [
            "name": "Anna",
            "age": 30,
            "height": 1.72,
            "nickname": "Ánnie",
            "married": true,
            "tags": ["swift", "linux", "db"],
            "scores": [3, 5, 8],
            "born": Date(timeIntervalSinceReferenceDate: 1_000),
            "address": ["city": "Paris", "zip": "75001", "geo": ["lat": 48.85]] as [String: Any],
            "friends": [
                ["name": "Bob", "age": 25] as [String: Any],
                ["name": "Cid", "age": 41] as [String: Any],
            ],
            "nothing": Optional<Int>.none as Any,
        ]
    }

    func check(_ format: String, _ arguments: Any?..., on object: Any? = ObjectPredicateTests.person,
               variables: [String: Any?] = [:], is expected: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let predicate = try P(format: format, argumentArray: arguments)
            let result = try predicate.evaluate(with: object, substitutionVariables: variables)
            #expect(result == expected, "\(format)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(format): \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Parsing

    @Test("Every comparison operator spelling parses to its operator", arguments: [
        ("=", P.Operator.equalTo), ("==", .equalTo), ("!=", .notEqualTo), ("<>", .notEqualTo),
        ("<", .lessThan), ("<=", .lessThanOrEqualTo), ("=<", .lessThanOrEqualTo),
        (">", .greaterThan), (">=", .greaterThanOrEqualTo), ("=>", .greaterThanOrEqualTo),
        ("BEGINSWITH", .beginsWith), ("beginswith", .beginsWith), ("ENDSWITH", .endsWith), ("CONTAINS", .contains),
        ("LIKE", .like), ("MATCHES", .matches), ("IN", .in), ("Between", .between),
    ])
    func operators(spelling: String, operation: P.Operator) throws {
        #expect(try P(format: "age \(spelling) 3") == Self.compare("age", operation, .integer(3)))
        #expect(try P(format: "age\(spelling.first!.isLetter ? " " : "")\(spelling)\(spelling.first!.isLetter ? " " : "")3")
            == Self.compare("age", operation, .integer(3)))
    }

    @Test("Comparison options [c] [d] [cd] [n]")
    func options() throws {
        #expect(try P(format: "name BEGINSWITH[c] 'a'") == Self.compare("name", .beginsWith, .string("a"), options: .caseInsensitive))
        #expect(try P(format: "name ==[d] 'a'") == Self.compare("name", .equalTo, .string("a"), options: .diacriticInsensitive))
        #expect(try P(format: "name LIKE[cd] 'a'")
            == Self.compare("name", .like, .string("a"), options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(try P(format: "name CONTAINS[DC] 'a'")
            == Self.compare("name", .contains, .string("a"), options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(try P(format: "name ENDSWITH[n] 'a'") == Self.compare("name", .endsWith, .string("a"), options: .normalized))
    }

    @Test("AND, OR, NOT and their symbols, with AND binding tighter than OR")
    func compounds() throws {
        let a = Self.compare("a", .equalTo, .integer(1))
        let b = Self.compare("b", .equalTo, .integer(2))
        let c = Self.compare("c", .equalTo, .integer(3))
        #expect(try P(format: "a == 1 AND b == 2") == .and([a, b]))
        #expect(try P(format: "a == 1 && b == 2") == .and([a, b]))
        #expect(try P(format: "a == 1 and b == 2 AnD c == 3") == .and([a, b, c]))
        #expect(try P(format: "a == 1 OR b == 2") == .or([a, b]))
        #expect(try P(format: "a == 1 || b == 2") == .or([a, b]))
        #expect(try P(format: "a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try P(format: "(a == 1 OR b == 2) AND c == 3") == .and([.or([a, b]), c]))
        #expect(try P(format: "NOT a == 1") == .not(a))
        #expect(try P(format: "!a == 1") == .not(a))
        #expect(try P(format: "! (a == 1)") == .not(a))
        #expect(try P(format: "NOT NOT a == 1") == .not(.not(a)))
        #expect(try P(format: "((((a == 1))))") == a)
        #expect(try P(format: "  a\t==\n1  ") == a)
        #expect(try P(format: "TRUEPREDICATE") == .truePredicate)
        #expect(try P(format: "FALSEPREDICATE OR TRUEPREDICATE") == .or([.falsePredicate, .truePredicate]))
    }

    @Test("Literals: strings with escapes, integers, floats, hex, nil, Booleans, collections")
    func literals() throws {
        func right(_ format: String) throws -> ObjectExpression {
            guard case .comparison(let comparison) = try P(format: format) else { throw ObjectPredicateError.unboundVariable(format) }
            return comparison.right
        }
        #expect(try right(#"x == "plain""#) == .constant(.string("plain")))
        #expect(try right("x == 'single'") == .constant(.string("single")))
        #expect(try right(#"x == "a\"b\\c\n\t\r\0d""#) == .constant(.string("a\"b\\c\n\t\r\0d")))
        #expect(try right(#"x == 'it\'s'"#) == .constant(.string("it's")))
        #expect(try right(#"x == "\u00e9\u0041""#) == .constant(.string("\u{E9}A")))
        #expect(try right(#"x == "don't""#) == .constant(.string("don't")))
        #expect(try right(#"x == 'say "hi"'"#) == .constant(.string(#"say "hi""#)))
        #expect(try right("x == ''") == .constant(.string("")))
        #expect(try right("x == 42") == .constant(.integer(42)))
        #expect(try right("x == -42") == .constant(.integer(-42)))
        #expect(try right("x == +7") == .constant(.integer(7)))
        #expect(try right("x == 9223372036854775807") == .constant(.integer(Int64.max)))
        #expect(try right("x == -9223372036854775808") == .constant(.integer(Int64.min)))
        #expect(try right("x == 3.25") == .constant(.double(3.25)))
        #expect(try right("x == -0.5") == .constant(.double(-0.5)))
        #expect(try right("x == 1e3") == .constant(.double(1000)))
        #expect(try right("x == 2.5E-3") == .constant(.double(0.0025)))
        #expect(try right("x == 0x1F") == .constant(.integer(31)))
        #expect(try right("x == 0XfF") == .constant(.integer(255)))
        #expect(try right("x == 0b101") == .constant(.integer(5)))
        #expect(try right("x == 0o17") == .constant(.integer(15)))
        #expect(try right("x == nil") == .constant(.null))
        #expect(try right("x == NULL") == .constant(.null))
        #expect(try right("x == Nil") == .constant(.null))
        #expect(try right("x == TRUE") == .constant(.bool(true)))
        #expect(try right("x == yes") == .constant(.bool(true)))
        #expect(try right("x == FALSE") == .constant(.bool(false)))
        #expect(try right("x == NO") == .constant(.bool(false)))
        // A collection of constants is a constant array, as an array argument is.
        #expect(try right("x IN {1, 'two', 3.5, nil}") == .constant(.array([.integer(1), .string("two"), .double(3.5), .null])))
        #expect(try right("x IN {}") == .constant(.array([])))
        #expect(try right("x IN {{1}, {}}") == .constant(.array([.array([.integer(1)]), .array([])])))
        #expect(try right("x IN {1, y}") == .aggregate([.constant(.integer(1)), .keyPath("y")]))
        #expect(try right("x IN {$A}") == .aggregate([.variable("A")]))
        // An integer too large for Int64 becomes a double, as in Core Data.
        #expect(try right("x == 99999999999999999999999") == .constant(.double(1e23)))
        #expect(try right("x == SELF") == .evaluatedObject)
        #expect(try right("x == SELF.name") == .keyPath("name"))
        #expect(try right("x == $LIMIT") == .variable("LIMIT"))
        #expect(try right("x == a.b.@count") == .keyPath("a.b.@count"))
        #expect(try right("x == #AND") == .keyPath("AND"))
        #expect(try right("x == #name.#in") == .keyPath("name.in"))
    }

    @Test("Format arguments %@ %K %d %i %ld %f %s")
    func arguments() throws {
        let date = Date(timeIntervalSinceReferenceDate: 5)
        let uuid = UUID()
        #expect(try P(format: "name == %@", "Anna") == Self.compare("name", .equalTo, .string("Anna")))
        #expect(try P(format: "age > %@", 3) == Self.compare("age", .greaterThan, .integer(3)))
        #expect(try P(format: "age > %@", Int16(3)) == Self.compare("age", .greaterThan, .integer(3)))
        #expect(try P(format: "h > %@", Float(0.5)) == Self.compare("h", .greaterThan, .double(0.5)))
        #expect(try P(format: "born < %@", date) == Self.compare("born", .lessThan, .date(date)))
        #expect(try P(format: "id == %@", uuid) == Self.compare("id", .equalTo, .uuid(uuid)))
        #expect(try P(format: "x == %@", nil) == Self.compare("x", .equalTo, .null))
        #expect(try P(format: "x IN %@", [1, 2]) == Self.compare("x", .in, .array([.integer(1), .integer(2)])))
        #expect(try P(format: "%K == %@", "address.city", "Paris") == Self.compare("address.city", .equalTo, .string("Paris")))
        #expect(try P(format: "a.%K == 1", "b") == Self.compare("a.b", .equalTo, .integer(1)))
        #expect(try P(format: "age == %d", 7) == Self.compare("age", .equalTo, .integer(7)))
        #expect(try P(format: "age == %i", Int64(-7)) == Self.compare("age", .equalTo, .integer(-7)))
        #expect(try P(format: "age == %ld", 8) == Self.compare("age", .equalTo, .integer(8)))
        #expect(try P(format: "age == %lld", 9) == Self.compare("age", .equalTo, .integer(9)))
        #expect(try P(format: "h == %f", 1.5) == Self.compare("h", .equalTo, .double(1.5)))
        #expect(try P(format: "h == %f", 2) == Self.compare("h", .equalTo, .double(2)))
        #expect(try P(format: "h == %lf", 2.5) == Self.compare("h", .equalTo, .double(2.5)))
        #expect(try P(format: "name == %s", "Bob") == Self.compare("name", .equalTo, .string("Bob")))
        #expect(try P(format: "a == %@ AND b == %@", 1, "x")
            == .and([Self.compare("a", .equalTo, .integer(1)), Self.compare("b", .equalTo, .string("x"))]))
        #expect(try P(format: "name == %@", argumentArray: ["Zed"]) == Self.compare("name", .equalTo, .string("Zed")))
        // A string argument is never parsed as predicate syntax.
        #expect(try P(format: "name == %@", "x' OR 1 == 1 OR name == 'y") == Self.compare("name", .equalTo, .string("x' OR 1 == 1 OR name == 'y")))
    }

    @Test("Modifiers ANY, SOME, ALL, NONE")
    func modifiers() throws {
        #expect(try P(format: "ANY tags == 'a'") == Self.compare("tags", .equalTo, .string("a"), modifier: .any))
        #expect(try P(format: "some tags == 'a'") == Self.compare("tags", .equalTo, .string("a"), modifier: .any))
        #expect(try P(format: "ALL scores > 1") == Self.compare("scores", .greaterThan, .integer(1), modifier: .all))
        #expect(try P(format: "NONE scores > 1") == Self.compare("scores", .greaterThan, .integer(1), modifier: .none))
        #expect(try P(format: "ANY friends.name BEGINSWITH[c] 'b'")
            == Self.compare("friends.name", .beginsWith, .string("b"), options: .caseInsensitive, modifier: .any))
    }

    @Test("Substitution variables are replaced; an unbound one fails at evaluation")
    func substitutionVariables() throws {
        let template = try P(format: "age > $MIN AND name IN $NAMES")
        let bound = template.withSubstitutionVariables(["MIN": 18, "NAMES": ["Anna", "Bob"]])
        #expect(bound == .and([
            Self.compare("age", .greaterThan, .integer(18)),
            Self.compare("name", .in, .array([.string("Anna"), .string("Bob")])),
        ]))
        #expect(try bound.evaluate(with: Self.person))
        #expect(try !template.withSubstitutionVariables(["MIN": 40, "NAMES": ["Anna"]]).evaluate(with: Self.person))
        #expect(try template.evaluate(with: Self.person, substitutionVariables: ["MIN": 29, "NAMES": ["Anna"]]))
        #expect(throws: ObjectPredicateError.unboundVariable("NAMES")) {
            try template.withSubstitutionVariables(["MIN": 1]).evaluate(with: Self.person)
        }
        // Variables inside collections are substituted too, giving the same predicate as a literal.
        let inList = try P(format: "age IN {$A, 30}").withSubstitutionVariables(["A": 1])
        #expect(inList == (try P(format: "age IN {1, 30}")))
        #expect(inList == (try P(format: "age IN %@", [1, 30])))
    }

    // MARK: Evaluation

    @Test("Comparisons of numbers, strings, Booleans, dates and nil")
    func evaluation() {
        check("name == 'Anna'", is: true)
        check("name = \"Anna\"", is: true)
        check("name == 'anna'", is: false)
        check("name ==[c] 'anna'", is: true)
        check("name != 'Bob'", is: true)
        check("name <> 'Anna'", is: false)
        check("age == 30", is: true)
        check("age == 30.0", is: true)
        check("age == %@", Int16(30), is: true)
        check("age == %@", UInt8(30), is: true)
        check("age == %@", Decimal(30), is: true)
        check("age < 31 AND age <= 30 AND age =< 30 AND age > 29 AND age >= 30 AND age => 30", is: true)
        check("age < 30 OR age > 30", is: false)
        check("height > 1.7 && height < 1.75", is: true)
        check("height == %@", Float(1.72), is: false)
        check("married == YES", is: true)
        check("married == TRUE AND NOT married == NO", is: true)
        check("married == 1", is: true)
        check("born == %@", Date(timeIntervalSinceReferenceDate: 1_000), is: true)
        check("born < %@", Date(timeIntervalSinceReferenceDate: 1_000.5), is: true)
        check("born > %@", Date(timeIntervalSinceReferenceDate: 999.999), is: true)
        check("missing == nil", is: true)
        check("missing != nil", is: false)
        check("nothing == nil", is: true)
        check("name == nil", is: false)
        check("name != nil", is: true)
        check("missing > 3", is: false)
        check("missing < 3", is: false)
        check("age == 'thirty'", is: false)
        check("TRUEPREDICATE", is: true)
        check("FALSEPREDICATE", is: false)
        check("NOT FALSEPREDICATE", is: true)
        check("!(age > 40) && (name == 'Anna' || name == 'Bob')", is: true)
    }

    @Test("String operators BEGINSWITH ENDSWITH CONTAINS LIKE MATCHES with options")
    func stringOperators() {
        check("name BEGINSWITH 'An'", is: true)
        check("name BEGINSWITH 'an'", is: false)
        check("name BEGINSWITH[c] 'an'", is: true)
        check("name ENDSWITH 'na'", is: true)
        check("name ENDSWITH[c] 'NA'", is: true)
        check("name CONTAINS 'nn'", is: true)
        check("name CONTAINS 'x'", is: false)
        check("name CONTAINS[c] 'NN'", is: true)
        check("nickname BEGINSWITH 'An'", is: false)
        check("nickname BEGINSWITH[d] 'An'", is: true)
        check("nickname ==[cd] 'annie'", is: true)
        check("nickname ==[c] 'annie'", is: false)
        check("name LIKE 'A*a'", is: true)
        check("name LIKE 'A?na'", is: true)
        check("name LIKE 'A?a'", is: false)
        check("name LIKE '*'", is: true)
        check("name LIKE[c] 'a*'", is: true)
        check("name LIKE 'a*'", is: false)
        check("name MATCHES '[A-Z][a-z]+'", is: true)
        check("name MATCHES '[a-z]+'", is: false)
        check("name MATCHES 'Ann'", is: false)  // MATCHES is a full match
        check("age BEGINSWITH '3'", is: false)   // not a string
    }

    @Test("An invalid MATCHES pattern is an error")
    func invalidRegularExpression() throws {
        let predicate = try P(format: "name MATCHES '[unclosed'")
        #expect(throws: ObjectPredicateError.invalidRegularExpression("[unclosed")) { try predicate.evaluate(with: Self.person) }
    }

    @Test("IN, BETWEEN and collection CONTAINS")
    func collections() {
        check("name IN {'Bob', 'Anna'}", is: true)
        check("name IN {'Bob', 'Cid'}", is: false)
        check("name IN[c] {'ANNA'}", is: true)
        check("age IN {1, 30}", is: true)
        check("age IN %@", [29, 31], is: false)
        check("'swift' IN tags", is: true)
        check("'go' IN tags", is: false)
        check("'nn' IN name", is: true)
        check("tags CONTAINS 'linux'", is: true)
        check("tags CONTAINS 'Linux'", is: false)
        check("tags CONTAINS[c] 'Linux'", is: true)
        check("age BETWEEN {18, 65}", is: true)
        check("age BETWEEN {30, 30}", is: true)
        check("age BETWEEN {31, 65}", is: false)
        check("age BETWEEN %@", [1, 29], is: false)
        check("height BETWEEN {1.5, 2}", is: true)
        check("born BETWEEN %@", [Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 2_000)], is: true)
    }

    @Test("ANY, ALL, NONE over collections and to-many key paths")
    func quantifiers() {
        check("ANY tags == 'db'", is: true)
        check("ANY tags == 'go'", is: false)
        check("ALL scores > 2", is: true)
        check("ALL scores > 3", is: false)
        check("NONE scores > 8", is: true)
        check("NONE scores >= 8", is: false)
        check("ANY friends.age > 40", is: true)
        check("ALL friends.age > 20", is: true)
        check("ANY friends.name == 'Cid'", is: true)
        check("NONE friends.name BEGINSWITH 'Z'", is: true)
        check("friends.name == 'Bob'", is: true)  // a to-many compared directly means "any"
        check("ANY scores BETWEEN {4, 6}", is: true)
        check("ANY scores IN {9, 10}", is: false)
    }

    @Test("Key paths through nested dictionaries and collection operators")
    func keyPathsInPredicates() {
        check("address.city == 'Paris'", is: true)
        check("address.geo.lat > 48", is: true)
        check("address.nope == nil", is: true)
        check("address.nope.deeper == nil", is: true)
        check("tags.@count == 3", is: true)
        check("scores.@sum == 16", is: true)
        check("scores.@max == 8 AND scores.@min == 3", is: true)
        check("scores.@avg > 5.3 AND scores.@avg < 5.34", is: true)
        check("friends.@count == 2 AND friends.@max.age == 41", is: true)
        check("SELF.name == 'Anna'", is: true)
        check("%K == 'Paris'", "address.city", is: true)
    }

    @Test("SELF compares the evaluated value itself")
    func evaluatedObject() throws {
        #expect(try P(format: "SELF == 3").evaluate(with: 3))
        #expect(try P(format: "SELF BEGINSWITH 'ab'").evaluate(with: "abc"))
        #expect(try P(format: "SELF IN {1, 2}").evaluate(with: Int16(2)))
        #expect(try !P(format: "SELF == nil").evaluate(with: "x"))
        #expect(try P(format: "SELF == nil").evaluate(with: nil))
        let numbers: [Int] = [1, 2, 3, 4]
        let large = try numbers.filter { try P(format: "SELF > 2").evaluate(with: $0) }
        #expect(large == [3, 4])
    }

    @Test("nil boxed in Any (a [String: Any?] value, an [Int?] element) is nil")
    func boxedNil() throws {
        let values: [String: Any?] = ["a": nil, "b": 1, "list": [1, nil, 3] as [Int?]]
        #expect(try P(format: "a == nil").evaluate(with: values))
        #expect(try P(format: "a != 'nil'").evaluate(with: values))
        #expect(try P(format: "b == 1 AND b != nil").evaluate(with: values))
        #expect(try P(format: "ANY list == nil").evaluate(with: values))
        #expect(try P(format: "list.@count == 3").evaluate(with: values))
        #expect(try P(format: "x IN %@", [nil, 2] as [Int?]) == Self.compare("x", .in, .array([.null, .integer(2)])))
        let boxed: Any = Optional<String>.none as Any
        #expect(PredicateValue(boxed) == .null)
        let nestedNil: Int?? = .some(.none)
        let nestedFour: Int?? = .some(.some(4))
        #expect(PredicateValue(nestedNil as Any) == .null)
        #expect(PredicateValue(nestedFour as Any) == .integer(4))
    }

    @Test("A key path on a value without keys is an error, not a crash")
    func keyPathOnPlainValue() throws {
        #expect(throws: ObjectError.self) { try P(format: "name == 'x'").evaluate(with: 42) }
        #expect(throws: ObjectError.self) { try P(format: "name.initial == 'x'").evaluate(with: ["name": 3]) }
        #expect(try !P(format: "name == 'x'").evaluate(with: nil))
    }

    @Test("predicate(equal:) builds the same predicate as the format")
    func equalHelper() throws {
        #expect(P.equal("name", "Anna") == (try P(format: "name == 'Anna'")))
        #expect(try P.equal("age", 30).evaluate(with: Self.person))
    }

    // MARK: Printing

    static let roundTripFormats: [String] = [
        "name == 'Anna'",
        "age > 3 AND age <= 10",
        "a = 1 OR b != 2 OR NOT c < 3",
        "(a == 1 OR b == 2) AND c == 3",
        "NOT (a == 1 AND b == 2)",
        "NOT NOT a == 1",
        "name BEGINSWITH[c] 'an' || name ENDSWITH[d] 'x' && name CONTAINS[cd] 'y'",
        "name LIKE[c] 'a*b?' AND name MATCHES '^[a-z]+\\\\d$'",
        "age IN {1, 2, 3} AND name IN {'a', \"b\"} AND x IN {}",
        "age BETWEEN {-5, 5.5}",
        "ANY tags == 'x' AND ALL scores > 1 AND NONE friends.name == nil AND SOME tags != 'y'",
        "x == nil AND y == NULL AND z == TRUE AND w == NO",
        "x == 0x1F AND y == -9223372036854775808 AND z == 9223372036854775807",
        "x == 3.25 AND y == -0.0 AND z == 1e-5 AND w == 1e20 AND v == 2.5E+300 AND u == 0.1",
        "x == \"quote\\\" backslash\\\\ newline\\n tab\\t cr\\r nul\\0 bell\\u0007 del\\u007f\"",
        "x == 'É and E\u{301} and 🇫🇷 and \u{FEFF}'",
        "#AND == 1 AND #name.#in == 2 AND #Self == 3",
        "SELF == 3 AND SELF.name == 'x'",
        "x == $VAR AND y IN {$A, $B}",
        "friends.@count > 1 AND scores.@max.value < 3",
        "TRUEPREDICATE",
        "FALSEPREDICATE",
        "TRUEPREDICATE AND FALSEPREDICATE",
        "a == 1 AND (b == 2 AND c == 3)",
        "a == 1 OR (b == 2 OR c == 3)",
        "address.geo.lat >= 48.5",
        "x ==[n] 'a'",
        "x IN {{1, 2}, {}}",
    ]

    @Test("description parses back to an equal predicate", arguments: roundTripFormats)
    func descriptionRoundTrip(format: String) throws {
        let predicate = try P(format: format)
        let printed = predicate.description
        let reparsed = try P(format: printed)
        #expect(reparsed == predicate, "\(format) printed as \(printed)")
        #expect(reparsed.description == printed, "printing is stable")
        #expect(predicate.predicateFormat == printed)
    }

    static let roundTripArguments: [(String, any Sendable)] = [
        ("date", Date(timeIntervalSinceReferenceDate: 123_456.789_012)),
        ("date", Date(timeIntervalSinceReferenceDate: -1e-7)),
        ("uuid", UUID()),
        ("decimal", Decimal(string: "12345678901234567890.123456789")!),
        ("decimal", Decimal(string: "-0.001")!),
        ("data", Data([0, 1, 2, 253, 254, 255])),
        ("data", Data()),
        ("url", URL(string: "https://example.com/a%20b?q='x'&r=\"y\"#f")!),
        ("id", ManagedObjectID(entityName: "My Entity", storeIdentifier: UUID().uuidString, primaryKey: 7)),
        ("double", Double.infinity),
        ("double", -Double.infinity),
        ("double", Double.greatestFiniteMagnitude),
        ("double", Double.leastNonzeroMagnitude),
        ("double", 1.0 / 3.0),
        ("double", 123_456_789_012_345.0),
        ("double", 1e15),
        ("int", Int64.min),
        ("string", "line1\nline2\u{0}\u{1F}\u{7F}\u{80}\u{2028}"),
        ("string", String(repeating: "\\", count: 5) + "\"'"),
        ("array", [1, 2, 3]),
        ("array", ["a", "b"]),
        ("nested", [[1], [2, 3]]),
        ("bool", true),
        ("nil", Optional<Int>.none),
    ]

    @Test("description round-trips every kind of argument", arguments: roundTripArguments)
    func argumentRoundTrip(label: String, value: any Sendable) throws {
        let predicate = try P(format: "x == %@ AND %K != %@", value, label, value)
        let printed = predicate.description
        let reparsed = try P(format: printed)
        #expect(reparsed == predicate, "\(label) printed as \(printed)")
    }

    @Test("A string that starts with a combining mark round-trips")
    func combiningMarkString() throws {
        for value in ["\u{301}", "\u{301}abc", "a\u{301}", "'\u{301}", "\"\u{301}"] {
            let predicate = P.equal("name", value)
            let printed = predicate.description
            let reparsed = try P(format: printed)
            #expect(reparsed == predicate, "\(value.debugDescription) printed as \(printed.debugDescription)")
            #expect(try reparsed.evaluate(with: ["name": value]))
        }
    }

    @Test("Key names may be written decomposed; their scalars are kept")
    func decomposedKeyNames() throws {
        let predicate = try P(format: "cafe\u{301} == 1 AND \u{E9}t\u{E9} == 2")
        guard case .and(let items) = predicate, items.count == 2,
              case .comparison(let first) = items[0], case .keyPath(let key) = first.left else {
            Issue.record("parsed as \(predicate)")
            return
        }
        #expect(Array(key.unicodeScalars) == Array("cafe\u{301}".unicodeScalars))
        #expect(try P(format: predicate.description) == predicate)
    }

    // MARK: Errors

    static let syntaxErrors: [(String, Int)] = [
        ("", 1),
        ("   ", 4),
        ("age >", 6),
        ("age > ", 7),
        ("age ?? 3", 5),
        ("age 3", 5),
        ("age == 3 extra", 10),
        ("age == 3 AND", 13),
        ("age == 3 OR OR b == 1", 13),
        ("(age == 3", 10),
        ("age == 3)", 9),
        ("name == 'abc", 13),
        ("name == \"abc", 13),
        ("name == \"abc\\", 14),
        ("name == {1, 2", 14),
        ("name == {1 2}", 12),
        ("name ==[x] 'a'", 9),
        ("name ==[c 'a'", 10),
        ("AND == 1", 1),
        ("name == $", 10),
        ("== 3", 1),
        ("a.b. == 3", 6),
        ("x == \"\\uZZZZ\"", 9),
        ("x == 0xZZ", 6),
        ("x == 1.2.3", 6),
        ("x == %z", 6),
        ("x == %%", 8),
        ("ANY", 4),
        ("x == 1 &&", 10),
        ("x == 1 & y == 2", 8),
    ]

    @Test("A syntax error names the 1-based column where parsing stopped", arguments: syntaxErrors)
    func syntaxErrorColumns(format: String, column: Int) {
        do {
            let predicate = try P(format: format)
            Issue.record("\(format.debugDescription) parsed as \(predicate)")
        } catch let error as ObjectPredicateError {
            guard case .syntax(let reported, let actual, _, _) = error else {
                Issue.record("\(format.debugDescription): expected a syntax error, got \(error)")
                return
            }
            #expect(reported == format)
            #expect(actual == column, "\(format.debugDescription): \(error)")
            #expect(error.description.contains("column \(actual)"))
        } catch {
            Issue.record("\(format.debugDescription): expected a ObjectPredicateError, got \(error)")
        }
    }

    @Test("A missing argument names the specifier's column")
    func missingArgument() {
        #expect(throws: ObjectPredicateError.missingArgument(format: "age > %@", column: 7)) { try P(format: "age > %@") }
        #expect(throws: ObjectPredicateError.missingArgument(format: "a == %@ AND b == %@", column: 18)) {
            try P(format: "a == %@ AND b == %@", 1)
        }
        #expect(throws: ObjectPredicateError.missingArgument(format: "%K == 1", column: 1)) { try P(format: "%K == 1") }
        #expect(throws: ObjectPredicateError.missingArgument(format: "x == %d", column: 6)) { try P(format: "x == %d") }
    }

    @Test("An argument that does not fit its specifier is refused")
    func badArguments() {
        #expect(throws: ObjectPredicateError.badArgument(format: "%K == 1", column: 1, expected: "a key path string")) {
            try P(format: "%K == 1", 5)
        }
        #expect(throws: ObjectPredicateError.badArgument(format: "%K == 1", column: 1, expected: "a key path string")) {
            try P(format: "%K == 1", "")
        }
        #expect(throws: ObjectPredicateError.badArgument(format: "x == %d", column: 6, expected: "an integer")) {
            try P(format: "x == %d", "seven")
        }
        #expect(throws: ObjectPredicateError.badArgument(format: "x == %d", column: 6, expected: "an integer")) {
            try P(format: "x == %d", 1.5)
        }
        #expect(throws: ObjectPredicateError.badArgument(format: "x == %f", column: 6, expected: "a number")) {
            try P(format: "x == %f", "1.5")
        }
        #expect(throws: ObjectPredicateError.badArgument(format: "x == %s", column: 6, expected: "a string")) {
            try P(format: "x == %s", 3)
        }
    }

    @Test("Hostile formats give errors, never crashes", arguments: [
        "\0", "((((((((((", "))))", "'", "\"", "%", "%K", "$", "#", "@", "[c]", "{", "}", ",", "x == {,}",
        "x == 0x", "x == -", "x == 1e", "x ==[", "NOT", "!", "x == \"\\u12\"", "x BETWEEN", "x IN",
        "x == 'a' AND AND", String(repeating: "(", count: 200) + "x == 1",
        "ANY ANY x == 1", "x == CAST(", "x == CAST('1', 'Nope')", "x == CAST('zz', 'NSNumber')", "é > \u{301}",
        "x == %z", "x == 'a' 'b'", "x == 1 2",
    ])
    func hostileFormats(format: String) {
        #expect(throws: (any Error).self) { try P(format: format) }
    }
}
