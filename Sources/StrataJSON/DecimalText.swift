/// A decimal number held exactly as digits and a power of ten, for the one sum JSON dates need:
/// moving a time between Core Data's 2001 reference date and the Unix epoch without rounding.
///
/// `value = (negative ? -1 : 1) × digits × 10^exponent`.
struct DecimalText: Equatable {
    /// Decimal digits, most significant first, without leading zeros (empty for zero).
    private(set) var digits: [UInt8]
    /// The power of ten of the last digit.
    private(set) var exponent: Int
    /// The sign (never set for zero).
    private(set) var isNegative: Bool

    /// Reads a JSON number literal (or Swift's `description` of a finite `Double`); nil for
    /// anything else, or an exponent beyond ±100,000.
    init?(_ text: String) {
        var utf8 = Substring(text).utf8[...]
        isNegative = utf8.first == UInt8(ascii: "-")
        if isNegative { utf8 = utf8.dropFirst() }
        var digits: [UInt8] = []
        var exponent = 0
        var sawDigit = false
        var sawPoint = false
        while let byte = utf8.first {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits.append(byte - UInt8(ascii: "0"))
                if sawPoint { exponent -= 1 }
                sawDigit = true
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            utf8 = utf8.dropFirst()
        }
        guard sawDigit else { return nil }
        if let marker = utf8.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            guard let power = Int(String(Substring(utf8.dropFirst()))), abs(power) <= 100_000 else { return nil }
            exponent += power
        } else if !utf8.isEmpty {
            return nil
        }
        self.digits = digits
        self.exponent = exponent
        normalize()
    }

    /// An integer.
    init(_ integer: Int64) {
        isNegative = integer < 0
        digits = String(integer.magnitude).utf8.map { $0 - UInt8(ascii: "0") }
        exponent = 0
        normalize()
    }

    private mutating func normalize() {
        let leading = digits.firstIndex { $0 != 0 } ?? digits.count
        digits.removeFirst(leading)
        while digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty {
            exponent = 0
            isNegative = false
        }
    }

    /// The exact sum.
    static func + (lhs: DecimalText, rhs: DecimalText) -> DecimalText {
        let exponent = min(lhs.exponent, rhs.exponent)
        let a = lhs.digits + [UInt8](repeating: 0, count: lhs.exponent - exponent)
        let b = rhs.digits + [UInt8](repeating: 0, count: rhs.exponent - exponent)
        var result = DecimalText(0)
        result.exponent = exponent
        if lhs.isNegative == rhs.isNegative {
            result.digits = add(a, b)
            result.isNegative = lhs.isNegative
        } else if compare(a, b) >= 0 {
            result.digits = subtract(a, b)
            result.isNegative = lhs.isNegative
        } else {
            result.digits = subtract(b, a)
            result.isNegative = rhs.isNegative
        }
        result.normalize()
        return result
    }

    /// The exact difference.
    static func - (lhs: DecimalText, rhs: DecimalText) -> DecimalText {
        var negated = rhs
        if !negated.digits.isEmpty { negated.isNegative.toggle() }
        return lhs + negated
    }

    /// Plain decimal notation, no exponent: `-12.5`, `0.001`, `978307200`.
    var plainText: String {
        guard !digits.isEmpty else { return "0" }
        let characters = digits.map { Character(Unicode.Scalar($0 + UInt8(ascii: "0"))) }
        var text = isNegative ? "-" : ""
        if exponent >= 0 {
            text += String(characters) + String(repeating: "0", count: exponent)
        } else {
            let integerCount = characters.count + exponent
            if integerCount > 0 {
                text += String(characters[..<integerCount]) + "." + String(characters[integerCount...])
            } else {
                text += "0." + String(repeating: "0", count: -integerCount) + String(characters)
            }
        }
        return text
    }

    private static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let a = a.drop { $0 == 0 }, b = b.drop { $0 == 0 }
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    private static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var carry: UInt8 = 0
        var i = a.count - 1, j = b.count - 1
        while i >= 0 || j >= 0 || carry > 0 {
            let sum = (i >= 0 ? a[i] : 0) + (j >= 0 ? b[j] : 0) + carry
            result.append(sum % 10)
            carry = sum / 10
            i -= 1
            j -= 1
        }
        return result.reversed()
    }

    /// `a - b` for `a >= b`.
    private static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var borrow: Int = 0
        var i = a.count - 1, j = b.count - 1
        while i >= 0 {
            var difference = Int(a[i]) - (j >= 0 ? Int(b[j]) : 0) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 10 }
            result.append(UInt8(difference))
            i -= 1
            j -= 1
        }
        return result.reversed()
    }
}
