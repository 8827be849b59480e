import Foundation
import StrataCore
import Testing

/// Case and diacritic folding under `[c]`, `[d]`, `[cd]` and `[n]`, as Foundation's
/// `folding(options:locale:)` does it on Linux (full Unicode case folding, no locale). These
/// are the documented results of `docs/predicates.md`.
@Suite("Predicate folding")
struct PredicateFoldingTests {
    /// (text, operator with options, pattern, expected): evaluated as `SELF <operator> %@`.
    static let cases: [(String, String, String, Bool)] = [
        // Precomposed é (U+00E9) and decomposed e + U+0301 are the same character…
        ("\u{E9}", "==", "e\u{301}", true),
        ("Saint-\u{C9}tienne", "==", "Saint-E\u{301}tienne", true),
        ("Saint-\u{C9}tienne", "==[c]", "saint-e\u{301}tienne", true),
        ("Saint-E\u{301}tienne", "==[cd]", "saint-etienne", true),
        ("Saint-\u{C9}tienne", "==[cd]", "SAINT-ETIENNE", true),
        ("Saint-\u{C9}tienne", "==[d]", "Saint-Etienne", true),
        ("Saint-\u{C9}tienne", "==", "Saint-Etienne", false),
        // …but not under [n], which compares scalars as given.
        ("\u{E9}", "==[n]", "e\u{301}", false),
        ("e\u{301}", "==[n]", "e\u{301}", true),
        ("\u{E9}", "==[cdn]", "E", false),  // [n] overrides [c] and [d]
        // A decomposed letter is one character: e does not begin é, except by scalars or with [d].
        ("e\u{301}tienne", "BEGINSWITH", "e", false),
        ("e\u{301}tienne", "BEGINSWITH[d]", "e", true),
        ("e\u{301}tienne", "BEGINSWITH[n]", "e", true),
        ("e\u{301}tienne", "BEGINSWITH", "\u{E9}", true),
        ("caf\u{E9}", "ENDSWITH", "e\u{301}", true),
        ("caf\u{E9}", "ENDSWITH[n]", "\u{301}", false),
        ("cafe\u{301}", "ENDSWITH[n]", "\u{301}", true),
        ("cafe\u{301}s", "CONTAINS", "e", false),
        ("cafe\u{301}s", "CONTAINS[d]", "es", true),
        ("cafe\u{301}", "LIKE", "caf?", true),  // ? is one character, é included
        ("cafe\u{301}", "LIKE[n]", "caf??", true),  // under [n], one scalar
        ("cafe\u{301}", "MATCHES[d]", "cafe", true),
        // ß folds to ss under [c] (full case folding); it is not a diacritic.
        ("Stra\u{DF}e", "==[c]", "STRASSE", true),
        ("Stra\u{DF}e", "==[c]", "strasse", true),
        ("Stra\u{DF}e", "==[cd]", "STRASSE", true),
        ("Stra\u{DF}e", "==[d]", "Strasse", false),
        ("Stra\u{DF}e", "==", "Strasse", false),
        ("\u{1E9E}", "==[c]", "ss", true),  // capital sharp s
        ("Stra\u{DF}e", "LIKE[c]", "stra??e", true),  // ? matches one character of the folded text
        ("Stra\u{DF}e", "CONTAINS[c]", "SS", true),
        ("Stra\u{DF}e", "BEGINSWITH[c]", "STRAS", true),
        // Turkish dotless ı and dotted İ are not special: no locale, so ı never equals i.
        ("\u{131}", "==[c]", "i", false),
        ("\u{131}", "==[cd]", "I", false),
        ("I", "==[c]", "\u{131}", false),
        ("I", "==[c]", "i", true),
        ("\u{130}", "==[c]", "i", false),  // İ folds to i + U+0307, a different character
        ("\u{130}", "==[cd]", "i", true),  // …whose dot [d] removes
        ("\u{131}stanbul", "BEGINSWITH[cd]", "is", false),
        // Other folds.
        ("\u{3A3}\u{38A}\u{3A3}\u{3A5}\u{3A6}\u{39F}\u{3A3}", "==[cd]", "\u{3C3}\u{3B9}\u{3C3}\u{3C5}\u{3C6}\u{3BF}\u{3C2}", true),  // ΣΊΣΥΦΟΣ, σισυφος
        ("\u{FB01}le", "==[c]", "FILE", true),  // the ﬁ ligature folds to fi
        ("\u{212B}", "==", "\u{C5}", true),  // ANGSTROM SIGN is canonically Å
        ("\u{212B}", "==[n]", "\u{C5}", false),
        ("\u{FF21}", "==[c]", "\u{FF41}", true),  // fullwidth Ａ and ａ
        ("\u{FF21}", "==[c]", "a", false),  // …are not ASCII
        ("\u{C6}", "==[cd]", "ae", false),  // Æ is a letter, not a diacritic
        ("\u{F8}", "==[d]", "o", false),  // so is ø
        ("\u{141}\u{F3}d\u{17A}", "==[d]", "\u{141}odz", true),  // Łódź: ó and ź fold, Ł stays
        ("\u{414}\u{43C}\u{438}\u{442}\u{440}\u{438}\u{439}", "==[cd]", "\u{434}\u{43C}\u{438}\u{442}\u{440}\u{438}\u{438}", true),  // й is и + breve
        ("Ab", "IN[c]", "xaby", true),
    ]

    @Test("Folding under each option", arguments: cases)
    func folding(text: String, operation: String, pattern: String, expected: Bool) throws {
        let predicate = try ObjectPredicate(format: "SELF \(operation) %@", pattern)
        #expect(try predicate.evaluate(with: text) == expected,
                "\(text.debugDescription) \(operation) \(pattern.debugDescription)")
    }

    @Test("Order of strings: canonical without [n], by scalars with [n]")
    func order() throws {
        #expect(try ObjectPredicate(format: "SELF < 'f'").evaluate(with: "\u{E9}") == false)  // é sorts after f
        #expect(try ObjectPredicate(format: "SELF < %@", "\u{E9}").evaluate(with: "e\u{301}") == false)  // the same
        #expect(try ObjectPredicate(format: "SELF <=[c] %@", "\u{C9}").evaluate(with: "e\u{301}"))
        #expect(try ObjectPredicate(format: "SELF <[n] %@", "\u{E9}").evaluate(with: "e\u{301}"))  // 0x65 < 0xE9
        #expect(try ObjectPredicate(format: "SELF BETWEEN[cd] {'a', 'f'}").evaluate(with: "\u{C9}t\u{E9}"))
    }

    @Test("Scenario 8: ==[cd] 'saint-etienne' matches both spellings among the cities")
    func scenario8() throws {
        let cities = ["Saint-\u{C9}tienne", "Saint-E\u{301}tienne", "Aarhus", "\u{C5}rhus", "K\u{F6}ln", "Kyllburg",
                      "Sundsvall", "S\u{F6}dert\u{E4}lje", "Москва", "Madrid", "Saint-Etiennette", "Paris", "Lyon", "Nice"]
        let predicate = try ObjectPredicate(format: "name ==[cd] 'saint-etienne'")
        let matches = try cities.filter { try predicate.evaluate(with: ["name": $0]) }
        #expect(matches.map { Array($0.unicodeScalars) } == [Array("Saint-\u{C9}tienne".unicodeScalars),
                                                             Array("Saint-E\u{301}tienne".unicodeScalars)])
        let aarhus = try cities.filter { try ObjectPredicate(format: "name LIKE[cd] '*rhus'").evaluate(with: ["name": $0]) }
        #expect(aarhus == ["Aarhus", "\u{C5}rhus"])
    }
}
