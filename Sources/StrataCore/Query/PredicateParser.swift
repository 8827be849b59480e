import Foundation

/// Parses the predicate format-string language into an ``ObjectPredicate``.
///
/// A recursive-descent parser over the format's Unicode scalars (columns count scalars, from
/// 1). The grammar, loosest binding first:
///
/// ```
/// predicate  := and (("OR" | "||") and)*
/// and        := not (("AND" | "&&") not)*
/// not        := ("NOT" | "!") not | "(" predicate ")" | TRUEPREDICATE | FALSEPREDICATE | comparison
/// comparison := [ANY | SOME | ALL | NONE] expression operator ["[" c|d|n… "]"] expression
/// expression := primary ("." keypath | "[" FIRST | LAST | SIZE | integer "]")*
/// primary    := keypath | SELF | $VARIABLE | literal | %@ | %K | {expression, …}
///             | SUBQUERY(expression, $VARIABLE, predicate) | CAST(literal, "Type")
/// ```
struct PredicateParser {
    let format: String
    let characters: [Character]
    private let arguments: [Any?]
    private var nextArgument = 0
    var position = 0
    private var depth = 0

    /// How deeply parentheses, `NOT`s, collections and subqueries may nest: deeper input is a
    /// syntax error rather than a stack overflow.
    static let maximumDepth = 100

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
        guard position == characters.count else { throw syntax("AND, OR or the end of the predicate") }
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
            return .not(try nested { try $0.parseNot() })
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws -> ObjectPredicate {
        skipSpace()
        if consumeSymbol("(") {
            let inner = try nested { try $0.parseOr() }
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
        let operation = try parseOperator()
        let options = try parseOptions()
        let right = try parseExpression()
        return .comparison(ObjectPredicate.Comparison(left, operation, right, options: options, modifier: modifier))
    }

    private mutating func parseOperator() throws -> ObjectPredicate.Operator {
        skipSpace()
        let symbols: [(String, ObjectPredicate.Operator)] = [
            ("==", .equalTo), ("=<", .lessThanOrEqualTo), ("=>", .greaterThanOrEqualTo), ("=", .equalTo),
            ("!=", .notEqualTo), ("<>", .notEqualTo), ("<=", .lessThanOrEqualTo), ("<", .lessThan),
            (">=", .greaterThanOrEqualTo), (">", .greaterThan),
        ]
        for (symbol, operation) in symbols where consumeSymbol(symbol) { return operation }
        let words: [(String, ObjectPredicate.Operator)] = [
            ("BEGINSWITH", .beginsWith), ("ENDSWITH", .endsWith), ("CONTAINS", .contains), ("LIKE", .like),
            ("MATCHES", .matches), ("IN", .in), ("BETWEEN", .between),
        ]
        for (word, operation) in words where consumeWord(word) { return operation }
        throw syntax("a comparison operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES, IN, BETWEEN)")
    }

    /// `[c]`, `[d]`, `[n]` and their combinations, after an operator.
    private mutating func parseOptions() throws -> StringComparisonOptions {
        skipSpace()
        guard position < characters.count, characters[position] == "[" else { return [] }
        position += 1
        var options: StringComparisonOptions = []
        while position < characters.count, characters[position] != "]" {
            switch characters[position] {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            case "n", "N": options.insert(.normalized)
            default: throw syntax("'c', 'd', 'n' or ']' in the comparison options")
            }
            position += 1
        }
        guard position < characters.count else { throw syntax("']'") }
        position += 1
        return options
    }

    // MARK: Expressions

    mutating func parseExpression() throws -> ObjectExpression {
        skipSpace()
        guard position < characters.count else { throw syntax("an expression") }
        var (expression, takesKeys) = try parsePrimaryExpression()
        while true {
            skipSpace()
            guard position < characters.count else { break }
            if characters[position] == ".", takesKeys {
                position += 1
                expression = .keyPath(try parseKeyPath(), of: expression)
            } else if characters[position] == "[" {
                position += 1
                expression = .element(expression, try parseIndex())
                takesKeys = true
            } else {
                break
            }
        }
        return expression
    }

    /// A primary expression, and whether a `.key` may follow it.
    private mutating func parsePrimaryExpression() throws -> (ObjectExpression, Bool) {
        let c = characters[position]
        if c == "%" {
            if position + 1 < characters.count, characters[position + 1] == "K" { return (.keyPath(try parseKeyPath()), true) }
            return (try parseArgument(), false)
        }
        if c == "\"" || c == "'" { return (.constant(.string(try parseString())), false) }
        if c == "{" {
            position += 1
            let items = try nested { parser in
                var items: [ObjectExpression] = []
                parser.skipSpace()
                if !parser.consumeSymbol("}") {
                    repeat { items.append(try parser.parseExpression()) } while parser.consumeSymbol(",")
                    guard parser.consumeSymbol("}") else { throw parser.syntax("'}' or ','") }
                }
                return items
            }
            return (ObjectExpression.aggregateOrConstant(items), true)
        }
        if c == "$" {
            position += 1
            let name = try readIdentifier()
            guard !name.isEmpty else { throw syntax("a variable name") }
            return (.variable(name), true)
        }
        if c.isASCIIDigit || ((c == "-" || c == "+") && position + 1 < characters.count && characters[position + 1].isASCIIDigit) {
            return (.constant(try parseNumber()), false)
        }
        if consumeWord("NIL") || consumeWord("NULL") { return (.constant(.null), false) }
        if consumeWord("TRUE") || consumeWord("YES") { return (.constant(.bool(true)), false) }
        if consumeWord("FALSE") || consumeWord("NO") { return (.constant(.bool(false)), false) }
        if consumeWord("CAST") { return (try parseCast(), false) }
        if consumeWord("SUBQUERY") { return (try parseSubquery(), true) }
        if consumeWord("SELF") { return (.evaluatedObject, true) }
        if Self.isIdentifierStart(c) || c == "#" || c == "@" || c == "\\" {
            return (.keyPath(try parseKeyPath()), true)
        }
        throw syntax("an expression")
    }

    /// A dotted key path: identifiers, `#`-escaped reserved words, `@operators` and `%K`s.
    private mutating func parseKeyPath() throws -> String {
        var parts: [String] = []
        repeat {
            skipSpace()
            if position + 1 < characters.count, characters[position] == "%", characters[position + 1] == "K" {
                guard case .keyPath(let path) = try parseArgument() else { throw syntax("a key") }
                parts.append(path)
                continue
            }
            let start = position
            var escaped = false
            if position < characters.count, characters[position] == "#" { escaped = true; position += 1 }
            var name = ""
            if !escaped, position < characters.count, characters[position] == "@" { name = "@"; position += 1 }
            let identifierStart = position
            if position < characters.count, characters[position].isASCIIDigit, name.isEmpty, parts.isEmpty {
                throw syntax("a key name")
            }
            let identifier = try readIdentifier()
            name += identifier
            guard !identifier.isEmpty else { throw syntax("a key name") }
            let plain = !escaped && !name.hasPrefix("@") && position - identifierStart == identifier.unicodeScalars.count
            if plain, PredicateFormatter.reservedWords.contains(name.uppercased()) {
                position = start
                throw syntax("a key name (escape reserved words with #)")
            }
            parts.append(name)
        } while consumeDot()
        return parts.joined(separator: ".")
    }

    private mutating func consumeDot() -> Bool {
        let saved = position
        skipSpace()
        guard position < characters.count, characters[position] == "." else { position = saved; return false }
        position += 1
        return true
    }

    /// The inside of `[FIRST]`, `[LAST]`, `[SIZE]`, `[2]`, `[%d]` after the `[`.
    private mutating func parseIndex() throws -> ObjectExpression.ElementIndex {
        skipSpace()
        let index: ObjectExpression.ElementIndex
        if consumeWord("FIRST") { index = .first }
        else if consumeWord("LAST") { index = .last }
        else if consumeWord("SIZE") { index = .size }
        else {
            let start = position
            guard position < characters.count, characters[position] == "%" || characters[position].isASCIIDigit else {
                throw syntax("FIRST, LAST, SIZE or an index")
            }
            guard case .constant(.integer(let value)) = try parsePrimaryExpression().0, value >= 0 else {
                throw ObjectPredicateError.syntax(format: format, column: start + 1,
                                                  expected: "an index of 0 or more", found: found(at: start))
            }
            index = .index(value)
        }
        guard consumeSymbol("]") else { throw syntax("']'") }
        return index
    }

    /// `SUBQUERY(collection, $variable, predicate)` after the word.
    private mutating func parseSubquery() throws -> ObjectExpression {
        guard consumeSymbol("(") else { throw syntax("'(' after SUBQUERY") }
        return try nested { parser in
            let collection = try parser.parseExpression()
            guard parser.consumeSymbol(",") else { throw parser.syntax("',' after the SUBQUERY collection") }
            guard parser.consumeSymbol("$") else { throw parser.syntax("a $variable in SUBQUERY") }
            let variable = try parser.readIdentifier()
            guard !variable.isEmpty else { throw parser.syntax("a variable name") }
            guard parser.consumeSymbol(",") else { throw parser.syntax("',' after the SUBQUERY variable") }
            let predicate = try parser.parseOr()
            guard parser.consumeSymbol(")") else { throw parser.syntax("')' closing SUBQUERY") }
            return .subquery(collection: collection, variable: variable, predicate: predicate)
        }
    }

    /// Runs `body` one nesting level deeper, refusing input nested past ``maximumDepth``.
    private mutating func nested<T>(_ body: (inout PredicateParser) throws -> T) throws -> T {
        guard depth < Self.maximumDepth else { throw syntax("less nesting (at most \(Self.maximumDepth) levels)") }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    // MARK: Arguments

    private static let specifiers: Set<String> = ["@", "K", "d", "i", "ld", "lld", "lu", "llu", "u", "f", "lf", "g", "e", "s"]

    /// A `%` specifier and its argument.
    mutating func parseArgument() throws -> ObjectExpression {
        let column = position + 1
        position += 1
        guard position < characters.count else { throw syntax("a format specifier after '%'") }
        var specifier = String(characters[position])
        position += 1
        if specifier == "%" { throw syntax("an expression, not '%%' (a literal percent sign)") }
        while specifier.hasSuffix("l"), position < characters.count { specifier.append(characters[position]); position += 1 }
        guard Self.specifiers.contains(specifier) else {
            position = column - 1
            throw syntax("a format specifier (%@, %K, %d, %i, %ld, %lld, %u, %f, %lf, %s)")
        }
        guard nextArgument < arguments.count else { throw ObjectPredicateError.missingArgument(format: format, column: column) }
        let argument = arguments[nextArgument].flatMap(unwrappedOptional)
        nextArgument += 1
        func bad(_ expected: String) -> ObjectPredicateError {
            .badArgument(format: format, column: column, expected: expected)
        }
        switch specifier {
        case "@":
            return .constant(PredicateValue(argument))
        case "K":
            guard let key = (argument as? String) ?? (argument as? Substring).map(String.init), !key.isEmpty,
                  key.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty }) else {
                throw bad("a key path string")
            }
            return .keyPath(key)
        case "d", "i", "ld", "lld", "lu", "llu", "u":
            guard argument is any BinaryInteger, case .integer(let v) = PredicateValue(argument) else { throw bad("an integer") }
            return .constant(.integer(v))
        case "f", "lf", "g", "e":
            guard !(argument is String), !(argument is Bool), let v = PredicateValue(argument).doubleValue else {
                throw bad("a number")
            }
            return .constant(.double(v))
        default:
            guard let v = (argument as? String) ?? (argument as? Substring).map(String.init) else { throw bad("a string") }
            return .constant(.string(v))
        }
    }

    // MARK: CAST

    /// `CAST(value, "Type")` after the word: a constant converted to the type.
    private mutating func parseCast() throws -> ObjectExpression {
        guard consumeSymbol("(") else { throw syntax("'(' after CAST") }
        skipSpace()
        let valueColumn = position + 1
        let value = try nested { try $0.parseExpression() }
        guard consumeSymbol(",") else { throw syntax("',' in CAST") }
        skipSpace()
        let typeColumn = position + 1
        let type = try parseString()
        guard consumeSymbol(")") else { throw syntax("')' closing CAST") }
        guard case .constant(let constant) = value else {
            throw ObjectPredicateError.syntax(format: format, column: valueColumn, expected: "a constant to CAST",
                                              found: found(at: valueColumn - 1))
        }
        guard let converted = Self.cast(constant, to: type) else {
            throw ObjectPredicateError.badArgument(format: format, column: typeColumn, expected: "a value that converts to \(type)")
        }
        return .constant(converted)
    }

    private static func cast(_ constant: PredicateValue, to type: String) -> PredicateValue? {
        switch (type, constant) {
        case ("NSDate", .date): return constant
        case ("NSDate", .string): return nil
        case ("NSDate", _): return constant.doubleValue.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case ("NSNumber", .integer), ("NSNumber", .double), ("NSNumber", .decimal): return constant
        case ("NSNumber", .bool(let v)): return .integer(v ? 1 : 0)
        case ("NSNumber", .string(let s)): return Double(s).map { .double($0) }
        case ("NSDecimalNumber", .decimal): return constant
        case ("NSDecimalNumber", .integer(let v)): return .decimal(Decimal(v))
        case ("NSDecimalNumber", .string(let s)):
            return Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) }
        case ("NSData", .string(let s)): return Data(base64Encoded: s).map { .data($0) }
        case ("NSUUID", .string(let s)): return UUID(uuidString: s).map { .uuid($0) }
        case ("NSURL", .string(let s)): return URL(string: s).map { .url($0) }
        case ("NSManagedObjectID", .string(let s)):
            return URL(string: s).flatMap { ManagedObjectID(parsing: $0) }.map { .objectID($0) }
        case ("NSString", .string): return constant
        case ("NSString", .integer(let v)): return .string(String(v))
        case ("NSString", .double(let v)): return .string("\(v)")
        default: return nil
        }
    }

    // MARK: Errors

    func syntax(_ expected: String) -> ObjectPredicateError {
        .syntax(format: format, column: position + 1, expected: expected, found: found(at: position))
    }

    func found(at index: Int) -> String {
        guard index < characters.count else { return "end of input" }
        let c = characters[index]
        guard let scalar = c.unicodeScalars.first, scalar.value >= 0x20, scalar.value != 0x7F else {
            return String(format: "U+%04X", c.unicodeScalars.first?.value ?? 0)
        }
        return "'\(c)'"
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
