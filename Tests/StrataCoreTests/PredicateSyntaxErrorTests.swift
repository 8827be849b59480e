import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// Malformed format strings: each gives an ``ObjectPredicateError`` at the right 1-based column
/// (counted in Unicode scalars), never a crash. The columns are counted by hand.
@Suite("Predicate syntax errors")
struct PredicateSyntaxErrorTests {
    static let deepParentheses = String(repeating: "(", count: 150) + "x == 1" + String(repeating: ")", count: 150)
    static let deepNots = String(repeating: "NOT ", count: 150) + "x == 1"
    static let deepBraces = "x IN " + String(repeating: "{", count: 150) + String(repeating: "}", count: 150)

    /// (format, column of the error).
    static let malformed: [(String, Int)] = [
        ("name ==", 8),                                   // no right side
        ("name == 'a' AND", 16),                          // AND with nothing after it
        ("name == 'a' OR", 15),
        ("(name == 'a'", 13),                             // no closing parenthesis
        ("name == 'a')", 12),                             // a stray closing parenthesis
        ("name = = 'a'", 8),
        ("name === 'a'", 8),
        ("name == 'a", 11),                               // unterminated strings
        ("name == \"a", 11),
        ("name ==[cx] 'a'", 10),                          // an unknown option letter
        ("name ==[c 'a'", 10),
        ("name BEGINSWITH", 16),
        ("name BEGINS 'a'", 6),                           // not an operator
        ("name LIKE[c]", 13),
        ("name IN {1, 2,}", 15),                          // a trailing comma
        ("name IN {,}", 10),
        ("age BETWEEN {1, 2", 18),
        ("ANY pets.legs", 14),                            // a modifier with no operator
        ("ALL == 1", 5),
        ("NONE NONE x == 1", 6),                          // a reserved word as a key
        ("NOT", 4),
        ("NOT (", 6),
        ("a == 1 AND NOT", 15),
        ("a == 1 ||", 10),
        ("a == 1 | b == 2", 8),
        ("a == 1 AND OR b == 2", 12),
        ("SUBQUERY", 9),
        ("SUBQUERY(tasks", 15),
        ("SUBQUERY(tasks, t, t.done == YES).@count > 0", 17),   // the variable needs a $
        ("SUBQUERY(tasks, $t $t.done == YES).@count > 0", 20),
        ("SUBQUERY(tasks, $t, $t.done == YES.@count > 0", 35),  // a constant takes no key
        ("SUBQUERY(tasks, $, x == 1).@count > 0", 18),
        ("x == CAST(1)", 12),
        ("x == CAST(1, NSDate)", 14),                     // the type is a string
        ("x == CAST(1, 'NSDate'", 22),
        ("x == CAST(y, 'NSDate')", 11),                   // CAST takes a constant
        ("x == CAST('abc', 'NSDate')", 18),               // a string is no date
        ("x == CAST('1', 'NSFrobnicator')", 16),
        ("x == 1.", 6),
        ("x == 1e+", 6),
        ("x == 0b2", 6),
        ("x == 0o9", 6),
        ("x == 0x8000000000000000", 6),                   // past Int64
        ("x == \"\\x4\"", 9),
        ("x == '\\uD800'", 13),                           // a high surrogate alone
        ("x == '\\uDC00'", 9),                            // a low surrogate alone
        ("x == '\\u12'", 9),
        ("$ == 1", 2),
        ("x == #", 7),
        ("x == @", 7),
        ("x.", 3),
        ("x..y == 1", 3),
        ("x[FIRST == 1", 9),
        ("x[-1] == 1", 3),
        ("x[foo] == 1", 3),
        ("x == y[", 8),
        ("1 == ", 6),
        ("'a' 'b'", 5),
        ("%", 2),
        ("x == %q", 6),
        ("x == %ll", 6),
        ("x ==[c]", 8),
        ("x == 1 AND (y == 2", 19),
        ("x == {1, {2, 3}", 16),
        ("TRUEPREDICATE FALSEPREDICATE", 15),
        ("x == nil nil", 10),
        ("x BETWEEN", 10),
        ("x MATCHES[c]d 'a'", 15),
        ("x == \\u0", 8),
        ("x == \\q", 6),
        ("x == first", 6),                                // FIRST is reserved
        ("SIZE == 1", 1),
        ("x == cast", 10),
        ("x IN {1, 2} extra", 13),
        ("ANY ANY x == 1", 5),
        ("  ", 3),
        ("\t\n", 3),
        ("x == 'a' AND y ==[d]", 21),
        ("caf\u{E9} ==", 8),                              // columns count scalars:
        ("cafe\u{301} ==", 9),                            // the decomposed é is two
        ("x == '\u{1F600}' y", 10),                       // an emoji is one scalar
        (deepParentheses, 102),                           // nesting past 100 levels
        (deepNots, 404),
        (deepBraces, 107),
    ]

    @Test("A malformed format names the column of the error", arguments: malformed)
    func column(format: String, column: Int) {
        do {
            let predicate = try ObjectPredicate(format: format)
            Issue.record("\(format.debugDescription) parsed as \(predicate)")
        } catch let error as ObjectPredicateError {
            let reported: Int? = switch error {
            case .syntax(_, let c, _, _), .badArgument(_, let c, _), .missingArgument(_, let c): c
            default: nil
            }
            #expect(reported == column, "\(format.debugDescription): \(error)")
            #expect(error.description.contains("column \(column)"), "\(error)")
        } catch {
            Issue.record("\(format.debugDescription): expected an ObjectPredicateError, got \(error)")
        }
    }

    @Test("At least 50 malformed formats are checked")
    func count() {
        #expect(Self.malformed.count >= 50)
    }

    @Test("A syntax error says what was expected and what was found")
    func message() throws {
        let error = try #require(throws: ObjectPredicateError.self) { try ObjectPredicate(format: "name BEGINS 'a'") }
        guard case .syntax(let format, let column, let expected, let found) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(format == "name BEGINS 'a'")
        #expect(column == 6)
        #expect(expected.contains("comparison operator"))
        #expect(found == "'B'")
        #expect(error.description == "predicate 'name BEGINS 'a'', column 6: expected \(expected), found 'B'")
        let atEnd = try #require(throws: ObjectPredicateError.self) { try ObjectPredicate(format: "name ==") }
        #expect(atEnd.description.hasSuffix("found end of input"))
        let control = try #require(throws: ObjectPredicateError.self) { try ObjectPredicate(format: "x == \u{1}") }
        #expect(control.description.hasSuffix("found U+0001"))
    }

    @Test("Arguments that are missing or do not fit their specifier name its column", arguments: [
        ("x == %@ AND y == %@", [1] as [any Sendable], 18),
        ("x == %K", [], 6),
        ("%K == 1", ["a..b"], 1),
        ("%K == 1", [".a"], 1),
        ("x == %d", [true], 6),
        ("x == %d", [UInt64.max], 6),
        ("x == %f", [true], 6),
        ("x == %s", [Data()], 6),
        ("x == %@ AND %K == 1", ["ok", 3], 13),
    ] as [(String, [any Sendable], Int)])
    func arguments(format: String, arguments: [any Sendable], column: Int) {
        do {
            let predicate = try ObjectPredicate(format: format, argumentArray: arguments)
            Issue.record("\(format) parsed as \(predicate)")
        } catch let error as ObjectPredicateError {
            switch error {
            case .missingArgument(let f, let c), .badArgument(let f, let c, _):
                #expect(f == format)
                #expect(c == column, "\(error)")
            default:
                Issue.record("\(format): \(error)")
            }
        } catch {
            Issue.record("\(format): \(error)")
        }
    }

    @Test("Random garbage never crashes the parser")
    func garbage() {
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet = Array("aZ_09 .,()[]{}'\"\\%@K$#=!<>&|*?-+eExXoObB\u{301}\u{E9}\u{1F600}\t\nANDORNOTSUBQUERYCAST")
        for _ in 0..<3000 {
            let length = Int(generator.next() % 24)
            let format = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            do {
                let predicate = try ObjectPredicate(format: format, argumentArray: ["k", 1, "v"])
                // Whatever parses prints a format that parses back equal.
                #expect(try ObjectPredicate(format: predicate.description) == predicate, "\(format.debugDescription)")
            } catch is ObjectPredicateError {
                // Expected for most inputs.
            } catch {
                Issue.record("\(format.debugDescription): \(error)")
            }
        }
    }
}
