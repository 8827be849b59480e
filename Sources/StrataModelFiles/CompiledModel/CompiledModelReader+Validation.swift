import Foundation
import StrataCore

extension CompiledModelReader {
    /// An attribute's minimum, maximum and pattern, from the validation predicates Xcode compiles
    /// them into: `SELF >= 16` and `SELF <= 99` (numbers, dates), `length >= 3` and
    /// `length <= 50` (strings, binary data), `SELF MATCHES "…"`, alone or joined by AND.
    /// Other predicates are left unread.
    func readValidation(_ archived: [String: PlistValue], into attribute: inout AttributeDescription, of owner: String) throws(CompiledModelError) {
        let comparisons = try reading(owner) { () throws(PlistError) in
            var found: [[String: PlistValue]] = []
            var pending = try archive.elements("NSValidationPredicates", in: archived)
            var seen = 0
            while let next = pending.popLast() {
                seen += 1
                guard seen <= KeyedArchive.maximumDepth * 4, let predicate = try archive.object(next) else { break }
                let classes = try archive.classes(of: predicate)
                if classes[0] == "NSCompoundPredicate", try archive.integer("NSCompoundPredicateType", in: predicate) == 1 {
                    pending += try archive.elements("NSSubpredicates", in: predicate)
                } else if classes[0] == "NSComparisonPredicate" {
                    found.append(predicate)
                }
            }
            return found
        }
        for predicate in comparisons {
            try reading(owner) { () throws(PlistError) in try apply(predicate, to: &attribute) }
        }
    }

    /// One `measured OPERATOR constant` comparison of a validation predicate.
    private func apply(_ predicate: [String: PlistValue], to attribute: inout AttributeDescription) throws(PlistError) {
        guard let left = predicate["NSLeftExpression"], let right = predicate["NSRightExpression"],
              let operation = try predicate["NSPredicateOperator"].flatMap({ value throws(PlistError) in try archive.object(value) }),
              try archive.integer("NSModifier", in: operation) ?? 0 == 0,
              let type = try archive.integer("NSOperatorType", in: operation) else { return }
        let measured = try archive.expression(left, depth: 1)
        guard case .constant(let bound) = try archive.expression(right, depth: 1) else { return }
        let isLength = attribute.type == .string || attribute.type == .binaryData
        let expected: ArchivedExpression = isLength ? .keyPath(.evaluatedObject, "length") : .evaluatedObject
        if type == 6, measured == .evaluatedObject, attribute.type == .string, case .string(let pattern) = bound {
            attribute.regularExpression = pattern
            return
        }
        guard measured == expected, type == 1 || type == 3 else { return }
        let number: Double? = switch bound {
        case .integer(let value): Double(value)
        case .double(let value): value
        case .date(let date): date.timeIntervalSinceReferenceDate
        default: nil
        }
        guard let number else { return }
        if type == 3 { attribute.minimum = number } else { attribute.maximum = number }
    }

    /// An archived `NSDecimalNumber` (exponent, length, sign and the mantissa's 16-bit words
    /// little-endian); `nil` when it does not describe one.
    static func decimalNumber(_ object: [String: PlistValue]) -> Decimal? {
        guard case .integer(let exponent)? = object["NS.exponent"], (-128...127).contains(exponent),
              case .integer(let length)? = object["NS.length"], (0...8).contains(length),
              case .data(let bytes)? = object["NS.mantissa"] else { return nil }
        let raw = [UInt8](bytes)
        var words = (0..<Int(length)).map { index in
            2 * index + 1 < raw.count ? UInt16(raw[2 * index]) | UInt16(raw[2 * index + 1]) << 8 : 0
        }
        // The mantissa in decimal digits: divide the words by 10 until nothing is left.
        var digits: [Character] = []
        while words.contains(where: { $0 != 0 }) {
            var remainder: UInt32 = 0
            for index in words.indices.reversed() {
                let value = remainder << 16 | UInt32(words[index])
                words[index] = UInt16(value / 10)
                remainder = value % 10
            }
            digits.append(Character(String(remainder)))
        }
        let negative: Bool = if case .bool(let flag)? = object["NS.negative"] { flag } else { false }
        let mantissa = digits.isEmpty ? "0" : String(digits.reversed())
        return Decimal(string: (negative ? "-" : "") + mantissa + "e" + String(exponent), locale: Locale(identifier: "en_US_POSIX"))
    }
}
