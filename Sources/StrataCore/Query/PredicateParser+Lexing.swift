import Foundation

// The lexical level of the predicate parser: strings, numbers, identifiers, words, symbols.
extension PredicateParser {
    // MARK: Strings

    /// A single- or double-quoted string with its escapes: `\n \t \r \a \b \f \v`, `\\ \" \'`,
    /// octal `\ooo` (`\0` alone is NUL), `\xHH` and `\uXXXX` (surrogate pairs combine); any
    /// other escaped character stands for itself.
    mutating func parseString() throws -> String {
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
            if let scalar = try readEscape(inString: true) {
                scalars.append(scalar)
            }
        }
        throw syntax("a closing \(quote)")
    }

    /// The escape after a backslash (the backslash already read), or nil in an identifier
    /// when the character after it starts no escape there.
    private mutating func readEscape(inString: Bool) throws -> Unicode.Scalar? {
        let e = characters[position]
        switch e {
        case "u", "U":
            position += 1
            let high = try readHex(count: 4, what: "four hex digits after \\u")
            if (0xD800...0xDBFF).contains(high) {
                // A surrogate pair spelled as two \u escapes.
                guard position + 1 < characters.count, characters[position] == "\\",
                      characters[position + 1] == "u" || characters[position + 1] == "U" else {
                    throw syntax("a low surrogate \\uDC00-\\uDFFF after a high surrogate")
                }
                position += 2
                let low = try readHex(count: 4, what: "four hex digits after \\u")
                guard (0xDC00...0xDFFF).contains(low),
                      let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) else {
                    position -= 4
                    throw syntax("a low surrogate \\uDC00-\\uDFFF after a high surrogate")
                }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else {
                position -= 4
                throw syntax("a Unicode scalar, not a lone surrogate")
            }
            return scalar
        case "x", "X":
            position += 1
            let value = try readHex(count: 2, what: "two hex digits after \\x")
            return Unicode.Scalar(value)
        case "0"..."7":
            var value: UInt32 = 0
            var digits = 0
            while digits < 3, position < characters.count, let digit = characters[position].wholeNumberValue,
                  characters[position].isASCII, digit < 8 {
                value = value * 8 + UInt32(digit)
                position += 1
                digits += 1
            }
            return Unicode.Scalar(value)
        default:
            guard inString else { return nil }
            position += 1
            switch e {
            case "n": return "\n"
            case "t": return "\t"
            case "r": return "\r"
            case "a": return "\u{07}"
            case "b": return "\u{08}"
            case "f": return "\u{0C}"
            case "v": return "\u{0B}"
            default: return e.unicodeScalars.first
            }
        }
    }

    private mutating func readHex(count: Int, what: String) throws -> UInt32 {
        let end = position + count
        guard end <= characters.count, characters[position..<end].allSatisfy(\.isHexDigit),
              let value = UInt32(String(characters[position..<end]), radix: 16) else {
            throw syntax(what)
        }
        position = end
        return value
    }

    // MARK: Numbers

    /// An integer (decimal, `0x` hex, `0o` octal, `0b` binary) or a floating-point number
    /// with an optional exponent; an integer too large for 64 bits becomes a double.
    mutating func parseNumber() throws -> PredicateValue {
        let start = position
        var text = ""
        if characters[position] == "-" || characters[position] == "+" { text.append(characters[position]); position += 1 }
        let negative = text == "-"
        if position + 1 < characters.count, characters[position] == "0",
           let radix = ["x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2][characters[position + 1]] {
            position += 2
            let digits = readWhile { $0.isHexDigit }
            guard let magnitude = UInt64(digits, radix: radix),
                  let value = negative ? (magnitude == UInt64(Int64.max) + 1 ? Int64.min : Int64(exactly: magnitude).map { -$0 })
                                       : Int64(exactly: magnitude) else {
                position = start
                throw syntax("a number in base \(radix)")
            }
            return .integer(value)
        }
        text += readWhile { $0.isASCIIDigit || $0 == "." }
        if position < characters.count, characters[position] == "e" || characters[position] == "E" {
            text.append("e"); position += 1
            if position < characters.count, characters[position] == "-" || characters[position] == "+" {
                text.append(characters[position]); position += 1
            }
            text += readWhile { $0.isASCIIDigit }
        }
        if !text.contains("."), !text.contains("e"), let integer = Int64(text) { return .integer(integer) }
        guard text.filter({ $0 == "." }).count <= 1, text.last?.isASCIIDigit == true, let double = Double(text) else {
            position = start
            throw syntax("a number")
        }
        return .double(double)
    }

    // MARK: Identifiers

    static func isIdentifierStart(_ c: Character) -> Bool {
        c.isLetter || c == "_"
    }

    static func isIdentifierPart(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || isCombiningMark(c)
    }

    /// Whether a one-scalar character is a combining mark (part of a decomposed letter).
    static func isCombiningMark(_ character: Character) -> Bool {
        switch character.unicodeScalars.first?.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// The letters, digits, underscores and combining marks of an identifier, with its
    /// `\uXXXX`, `\xHH` and `\ooo` escapes decoded (empty when none is there).
    mutating func readIdentifier() throws -> String {
        var scalars = String.UnicodeScalarView()
        while position < characters.count {
            let c = characters[position]
            if c == "\\", position + 1 < characters.count {
                position += 1
                guard let scalar = try readEscape(inString: false) else {
                    position -= 1
                    throw syntax("an escape \\uXXXX, \\xHH or \\ooo in the identifier")
                }
                scalars.append(scalar)
            } else if Self.isIdentifierPart(c) {
                scalars.append(contentsOf: c.unicodeScalars)
                position += 1
            } else {
                break
            }
        }
        return String(scalars)
    }

    // MARK: Words and symbols

    mutating func skipSpace() {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
    }

    mutating func readWhile(_ test: (Character) -> Bool) -> String {
        var text = ""
        while position < characters.count, test(characters[position]) { text.append(characters[position]); position += 1 }
        return text
    }

    /// Whether the keyword `word` (upper case) comes next, in any case, as a whole word.
    mutating func peekWord(_ word: String) -> Bool {
        skipSpace()
        let end = position + word.count
        guard end <= characters.count else { return false }
        for (offset, letter) in word.enumerated() where !characters[position + offset].isASCII || characters[position + offset].uppercased() != String(letter) {
            return false
        }
        if end < characters.count, Self.isIdentifierPart(characters[end]) || characters[end] == "\\" { return false }
        return true
    }

    mutating func consumeWord(_ word: String) -> Bool {
        guard peekWord(word) else { return false }
        position += word.count
        return true
    }

    mutating func peekSymbol(_ symbol: String) -> Bool {
        skipSpace()
        let end = position + symbol.count
        guard end <= characters.count else { return false }
        for (offset, c) in symbol.enumerated() where characters[position + offset] != c { return false }
        return true
    }

    mutating func consumeSymbol(_ symbol: String) -> Bool {
        guard peekSymbol(symbol) else { return false }
        position += symbol.count
        return true
    }
}
