import Foundation

/// Parses the predicate format-string language into an ``ObjectPredicate``.
struct PredicateParser {
    private let format: String
    private let characters: [Character]
    private var arguments: [Any?]
    private var position = 0

    init(format: String, arguments: [Any?]) {
        self.format = format
        // One Character per Unicode scalar: a combining mark after a quote or an operator must
        // not merge with it into one grapheme (columns count scalars).
        self.characters = format.unicodeScalars.map(Character.init)
        self.arguments = arguments
    }

    mutating func parse() throws -> ObjectPredicate {
        let predicate = try parseOr()
        skipSpace()
        guard position == characters.count else { throw syntax("end of predicate") }
        return predicate
    }

    // MARK: Predicates

    private mutating func parseOr() throws -> ObjectPredicate {
        var items = [try parseAnd()]
        while consumeWord("OR") || consumeSymbol("||") { items.append(try parseAnd()) }
        return items.count == 1 ? items[0] : .or(items)
    }

    private mutating func parseAnd() throws -> ObjectPredicate {
        var items = [try parseNot()]
        while consumeWord("AND") || consumeSymbol("&&") { items.append(try parseNot()) }
        return items.count == 1 ? items[0] : .and(items)
    }

    private mutating func parseNot() throws -> ObjectPredicate {
        if consumeWord("NOT") || (peekSymbol("!") && !peekSymbol("!=") && consumeSymbol("!")) {
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws -> ObjectPredicate {
        skipSpace()
        if consumeSymbol("(") {
            let inner = try parseOr()
            guard consumeSymbol(")") else { throw syntax("')'") }
            return inner
        }
        if consumeWord("TRUEPREDICATE") { return .truePredicate }
        if consumeWord("FALSEPREDICATE") { return .falsePredicate }
        var modifier = ObjectPredicate.Modifier.direct
        if consumeWord("ANY") || consumeWord("SOME") { modifier = .any }
        else if consumeWord("ALL") { modifier = .all }
        else if consumeWord("NONE") { modifier = .none }
        let left = try parseExpression()
        let (operation, negate) = try parseOperator()
        let options = try parseOptions()
        let right = try parseExpression()
        let comparison = ObjectPredicate.Comparison(left, operation, right, options: options, modifier: modifier)
        return negate ? .not(.comparison(comparison)) : .comparison(comparison)
    }

    private mutating func parseOperator() throws -> (ObjectPredicate.Operator, Bool) {
        skipSpace()
        let symbols: [(String, ObjectPredicate.Operator)] = [
            ("==", .equalTo), ("=<", .lessThanOrEqualTo), ("=>", .greaterThanOrEqualTo), ("=", .equalTo),
            ("!=", .notEqualTo), ("<>", .notEqualTo), ("<=", .lessThanOrEqualTo), ("<", .lessThan),
            (">=", .greaterThanOrEqualTo), (">", .greaterThan),
        ]
        for (symbol, operation) in symbols where consumeSymbol(symbol) { return (operation, false) }
        let words: [(String, ObjectPredicate.Operator)] = [
            ("BEGINSWITH", .beginsWith), ("ENDSWITH", .endsWith), ("CONTAINS", .contains), ("LIKE", .like),
            ("MATCHES", .matches), ("IN", .in), ("BETWEEN", .between),
        ]
        for (word, operation) in words where consumeWord(word) { return (operation, false) }
        throw syntax("a comparison operator")
    }

    private mutating func parseOptions() throws -> StringComparisonOptions {
        guard position < characters.count, characters[position] == "[" else { return [] }
        position += 1
        var options: StringComparisonOptions = []
        while position < characters.count, characters[position] != "]" {
            switch characters[position].lowercased() {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            default: throw syntax("'c', 'd' or 'n' in the comparison options")
            }
            position += 1
        }
        guard position < characters.count else { throw syntax("']'") }
        position += 1
        return options
    }

    // MARK: Expressions

    private mutating func parseExpression() throws -> ObjectExpression {
        skipSpace()
        guard position < characters.count else { throw syntax("an expression") }
        let c = characters[position]
        if c == "%" { return try parseArgument() }
        if c == "\"" || c == "'" { return .constant(.string(try parseString())) }
        if c == "{" {
            position += 1
            var items: [ObjectExpression] = []
            skipSpace()
            if !consumeSymbol("}") {
                repeat { items.append(try parseExpression()) } while consumeSymbol(",")
                guard consumeSymbol("}") else { throw syntax("'}' or ','") }
            }
            return ObjectExpression.aggregateOrConstant(items)
        }
        if c == "$" {
            position += 1
            let name = readIdentifier()
            guard !name.isEmpty else { throw syntax("a variable name") }
            return .variable(name)
        }
        if c.isNumber || ((c == "-" || c == "+") && position + 1 < characters.count && characters[position + 1].isNumber) {
            return .constant(try parseNumber())
        }
        if consumeWord("NIL") || consumeWord("NULL") { return .constant(.null) }
        if consumeWord("TRUE") || consumeWord("YES") { return .constant(.bool(true)) }
        if consumeWord("FALSE") || consumeWord("NO") { return .constant(.bool(false)) }
        if consumeWord("CAST") { return try parseCast() }
        if peekWord("SELF") {
            _ = consumeWord("SELF")
            if consumeSymbol(".") { return .keyPath(try parseKeyPathTail(prefix: [])) }
            return .evaluatedObject
        }
        if c.isLetter || c == "_" || c == "#" || c == "@" {
            return .keyPath(try parseKeyPathTail(prefix: []))
        }
        throw syntax("an expression")
    }

    private mutating func parseKeyPathTail(prefix: [String]) throws -> String {
        var parts = prefix
        repeat {
            skipSpace()
            if position < characters.count, characters[position] == "%", position + 1 < characters.count,
               characters[position + 1] == "K" {
                guard case .keyPath(let path) = try parseArgument() else { throw syntax("a key") }
                parts.append(path)
                continue
            }
            var escaped = false
            if position < characters.count, characters[position] == "#" { escaped = true; position += 1 }
            var name = ""
            if position < characters.count, characters[position] == "@" { name = "@"; position += 1 }
            name += readIdentifier()
            guard !name.isEmpty, name != "@" else { throw syntax("a key name") }
            if !escaped, !name.hasPrefix("@"), PredicateFormatter.reservedWords.contains(name.uppercased()) {
                position -= name.count
                throw syntax("a key name (escape reserved words with #)")
            }
            parts.append(name)
        } while consumeDot()
        return parts.joined(separator: ".")
    }

    private mutating func consumeDot() -> Bool {
        guard position < characters.count, characters[position] == "." else { return false }
        position += 1
        return true
    }

    private mutating func parseArgument() throws -> ObjectExpression {
        let column = position + 1
        position += 1
        guard position < characters.count else { throw syntax("a format specifier") }
        var specifier = String(characters[position])
        position += 1
        if specifier == "%" { throw syntax("an expression, not '%%'") }
        while specifier.hasSuffix("l"), position < characters.count { specifier.append(characters[position]); position += 1 }
        guard Self.specifiers.contains(specifier) else {
            position = column - 1
            throw syntax("a format specifier (%@, %K, %d, %i, %ld, %lld, %f, %lf, %s)")
        }
        guard !arguments.isEmpty else { throw ObjectPredicateError.missingArgument(format: format, column: column) }
        let argument = arguments.removeFirst()
        switch specifier {
        case "@":
            return .constant(PredicateValue(argument))
        case "K":
            guard let key = argument as? String, !key.isEmpty else {
                throw ObjectPredicateError.badArgument(format: format, column: column, expected: "a key path string")
            }
            return .keyPath(key)
        case "d", "i", "ld", "lld", "lu", "llu", "u":
            guard case .integer(let v) = PredicateValue(argument) else {
                throw ObjectPredicateError.badArgument(format: format, column: column, expected: "an integer")
            }
            return .constant(.integer(v))
        case "f", "lf", "g", "e":
            guard let v = PredicateValue(argument).doubleValue else {
                throw ObjectPredicateError.badArgument(format: format, column: column, expected: "a number")
            }
            return .constant(.double(v))
        case "s":
            guard let v = argument as? String else {
                throw ObjectPredicateError.badArgument(format: format, column: column, expected: "a string")
            }
            return .constant(.string(v))
        default:
            position = column - 1
            throw syntax("a format specifier (%@, %K, %d, %i, %ld, %lld, %f, %lf, %s)")
        }
    }

    private mutating func parseCast() throws -> ObjectExpression {
        guard consumeSymbol("(") else { throw syntax("'(' after CAST") }
        let value = try parseExpression()
        guard consumeSymbol(",") else { throw syntax("',' in CAST") }
        skipSpace()
        let typeColumn = position
        let type = try parseString()
        guard consumeSymbol(")") else { throw syntax("')' closing CAST") }
        guard case .constant(let constant) = value else { return value }
        func fail() -> ObjectPredicateError {
            .badArgument(format: format, column: typeColumn + 1, expected: "a value that converts to \(type)")
        }
        switch (type, constant) {
        case ("NSDate", _):
            guard let seconds = constant.doubleValue else { throw fail() }
            return .constant(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        case ("NSNumber", .string(let s)):
            guard let v = Double(s) else { throw fail() }
            return .constant(.double(v))
        case ("NSDecimalNumber", .string(let s)):
            guard let v = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")) else { throw fail() }
            return .constant(.decimal(v))
        case ("NSData", .string(let s)):
            guard let v = Data(base64Encoded: s) else { throw fail() }
            return .constant(.data(v))
        case ("NSUUID", .string(let s)):
            guard let v = UUID(uuidString: s) else { throw fail() }
            return .constant(.uuid(v))
        case ("NSURL", .string(let s)):
            guard let v = URL(string: s) else { throw fail() }
            return .constant(.url(v))
        case ("NSManagedObjectID", .string(let s)):
            guard let url = URL(string: s), let v = ManagedObjectID(parsing: url) else { throw fail() }
            return .constant(.objectID(v))
        case ("NSString", _):
            return .constant(.string(constant.swiftValue.map { "\($0)" } ?? ""))
        default:
            throw fail()
        }
    }

    // MARK: Literals

    private mutating func parseString() throws -> String {
        guard position < characters.count, characters[position] == "\"" || characters[position] == "'" else {
            throw syntax("a quoted string")
        }
        let quote = characters[position]
        position += 1
        var scalars = String.UnicodeScalarView()
        while position < characters.count {
            let c = characters[position]
            position += 1
            if c == quote { return String(scalars) }
            guard c == "\\" else { scalars.append(contentsOf: c.unicodeScalars); continue }
            guard position < characters.count else { break }
            let e = characters[position]
            position += 1
            switch e {
            case "n": scalars.append("\n")
            case "t": scalars.append("\t")
            case "r": scalars.append("\r")
            case "0": scalars.append("\0")
            case "u":
                let hex = String(characters[position..<min(position + 4, characters.count)])
                guard hex.count == 4, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                    throw syntax("four hex digits after \\u")
                }
                position += 4
                scalars.append(scalar)
            default: scalars.append(contentsOf: e.unicodeScalars)
            }
        }
        throw syntax("a closing \(quote)")
    }

    private mutating func parseNumber() throws -> PredicateValue {
        let start = position
        var text = ""
        if characters[position] == "-" || characters[position] == "+" { text.append(characters[position]); position += 1 }
        let sign: Int64 = text == "-" ? -1 : 1
        if position + 1 < characters.count, characters[position] == "0",
           let radix = ["x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2][characters[position + 1]] {
            position += 2
            let digits = readWhile { $0.isHexDigit }
            guard let value = Int64(digits, radix: radix) else {
                position = start
                throw syntax("a number in base \(radix)")
            }
            return .integer(sign * value)
        }
        text += readWhile { $0.isNumber || $0 == "." }
        if position < characters.count, characters[position] == "e" || characters[position] == "E" {
            text.append("e"); position += 1
            if position < characters.count, characters[position] == "-" || characters[position] == "+" {
                text.append(characters[position]); position += 1
            }
            text += readWhile { $0.isNumber }
        }
        if !text.contains("."), !text.contains("e"), let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text) else {
            position = start
            throw syntax("a number")
        }
        return .double(double)
    }

    // MARK: Lexing helpers

    private mutating func skipSpace() {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
    }

    private mutating func readWhile(_ test: (Character) -> Bool) -> String {
        var text = ""
        while position < characters.count, test(characters[position]) { text.append(characters[position]); position += 1 }
        return text
    }

    private static let specifiers: Set<String> = ["@", "K", "d", "i", "ld", "lld", "lu", "llu", "u", "f", "lf", "g", "e", "s"]

    private mutating func readIdentifier() -> String {
        readWhile { $0.isLetter || $0.isNumber || $0 == "_" || Self.isCombiningMark($0) }
    }

    /// Whether a one-scalar character is a combining mark (part of a decomposed letter).
    private static func isCombiningMark(_ character: Character) -> Bool {
        switch character.unicodeScalars.first?.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    private mutating func peekWord(_ word: String) -> Bool {
        skipSpace()
        let end = position + word.count
        guard end <= characters.count, String(characters[position..<end]).uppercased() == word else { return false }
        if end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_" { return false }
        return true
    }

    private mutating func consumeWord(_ word: String) -> Bool {
        guard peekWord(word) else { return false }
        position += word.count
        return true
    }

    private mutating func peekSymbol(_ symbol: String) -> Bool {
        skipSpace()
        let end = position + symbol.count
        return end <= characters.count && String(characters[position..<end]) == symbol
    }

    private mutating func consumeSymbol(_ symbol: String) -> Bool {
        guard peekSymbol(symbol) else { return false }
        position += symbol.count
        return true
    }

    private func syntax(_ expected: String) -> ObjectPredicateError {
        let found = position < characters.count ? "'\(characters[position])'" : "end of input"
        return .syntax(format: format, column: position + 1, expected: expected, found: found)
    }
}
