import Foundation

extension Decimal {
    /// The most significant digits a `Decimal` keeps: 38 (its mantissa is 128 bits).
    @_spi(StoreImplementation) public static let maximumSignificantDigits = 38

    /// The decimal number `text` spells (POSIX digits, an optional sign, point and exponent),
    /// only when `Decimal` holds it exactly: nil for text of more than 38 significant digits,
    /// which `Decimal(string:)` would cut, or that is no number.
    @_spi(StoreImplementation) public init?(exactly text: String) {
        guard Self.significantDigits(text) <= Self.maximumSignificantDigits,
              let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN else { return nil }
        self = decimal
    }

    /// The significant digits of a number's text: its digits before any exponent, without
    /// leading or trailing zeros.
    package static func significantDigits(_ text: String) -> Int {
        var count = 0
        var pendingZeros = 0
        var started = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { continue }
            if byte == UInt8(ascii: "0") {
                if started { pendingZeros += 1 }
            } else {
                count += pendingZeros + 1
                pendingZeros = 0
                started = true
            }
        }
        return count
    }
}
