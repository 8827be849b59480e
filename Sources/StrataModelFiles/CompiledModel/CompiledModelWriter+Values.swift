import Foundation
import StrataCore

extension CompiledModelWriter {
    /// Core Data's validation error codes, archived as an attribute's validation warnings when
    /// the model gives no message of its own.
    enum ValidationCode {
        static let numberTooLarge: Int64 = 1610
        static let numberTooSmall: Int64 = 1620
        static let dateTooLate: Int64 = 1630
        static let dateTooSoon: Int64 = 1640
        static let stringTooLong: Int64 = 1660
        static let stringTooShort: Int64 = 1670
        static let stringPatternMatching: Int64 = 1680
    }

    /// `NSDefaultValue`: numbers, Booleans, strings and bytes as property-list values; dates,
    /// UUIDs, URLs and decimals as the Foundation objects Core Data archives.
    mutating func defaultValue(_ value: AttributeValue?) -> PlistValue {
        switch value {
        case nil, .objectID?: KeyedArchiveWriter.null
        case .integer(let number)?: archive.value(.integer(number))
        case .double(let number)?: archive.value(.real(number))
        case .float(let number)?: archive.value(.real(Double(number)))
        case .boolean(let flag)?: archive.value(.bool(flag))
        case .string(let text)?: archive.string(text)
        case .binary(let bytes)?: archive.value(.data(bytes))
        case .date(let date)?: archive.object("NSDate", ["NS.time": .real(date.timeIntervalSinceReferenceDate)])
        case .uuid(let uuid)?: archive.object("NSUUID", ["NS.uuidbytes": .data(withUnsafeBytes(of: uuid.uuid) { Data($0) })])
        case .uri(let url)?: archive.object("NSURL", ["NS.base": KeyedArchiveWriter.null, "NS.relative": archive.string(url.absoluteString)])
        case .decimal(let number)?: decimalNumber(number)
        }
    }

    /// An `NSDecimalNumber` as Foundation archives it: exponent, length (in 16-bit words), sign,
    /// and the mantissa's eight 16-bit words little-endian; made from the number's exact text.
    private mutating func decimalNumber(_ number: Decimal) -> PlistValue {
        var text = number.description
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        var exponent = 0
        if let point = text.firstIndex(of: ".") {
            exponent = -text.distance(from: point, to: text.endIndex) + 1
            text.remove(at: point)
        }
        var words = [UInt16](repeating: 0, count: 8)
        for digit in text.compactMap(\.wholeNumberValue) {
            var carry = UInt32(digit)
            for index in words.indices {
                let product = UInt32(words[index]) * 10 + carry
                words[index] = UInt16(product & 0xFFFF)
                carry = product >> 16
            }
        }
        let length = (words.lastIndex { $0 != 0 } ?? -1) + 1
        return archive.object("NSDecimalNumber", [
            "NS.exponent": .integer(Int64(exponent)), "NS.length": .integer(Int64(length)),
            "NS.negative": .bool(negative), "NS.compact": .bool(true),
            "NS.mantissa.bo": .integer(1), "NS.mantissa": .data(Data(words.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })),
        ])
    }

    /// The validation predicates Xcode compiles an attribute's minimum, maximum and pattern into
    /// (`SELF >= 16`, `length <= 50`, `SELF MATCHES "…"`), each with its warning code.
    mutating func validation(_ attribute: AttributeDescription) -> [(predicate: PlistValue, warning: PlistValue)] {
        let measured: ArchivedExpression = switch attribute.type {
        case .string, .binaryData: .keyPath(.evaluatedObject, "length")
        default: .evaluatedObject
        }
        let isDate = attribute.type == .date
        let isLength = measured != .evaluatedObject
        func bound(_ value: Double) -> ArchivedExpression.Constant {
            if isDate { return .date(Date(timeIntervalSinceReferenceDate: value)) }
            if value == value.rounded(), let whole = Int64(exactly: value) { return .integer(whole) }
            return .double(value)
        }
        var rules: [(predicate: PlistValue, warning: PlistValue)] = []
        if let minimum = attribute.minimum {
            let code = isDate ? ValidationCode.dateTooSoon : isLength ? ValidationCode.stringTooShort : ValidationCode.numberTooSmall
            rules.append((comparison(measured, type: 3, .constant(bound(minimum))), archive.value(.integer(code))))
        }
        if let maximum = attribute.maximum {
            let code = isDate ? ValidationCode.dateTooLate : isLength ? ValidationCode.stringTooLong : ValidationCode.numberTooLarge
            rules.append((comparison(measured, type: 1, .constant(bound(maximum))), archive.value(.integer(code))))
        }
        if let pattern = attribute.regularExpression {
            rules.append((comparison(.evaluatedObject, type: 6, .constant(.string(pattern))), archive.value(.integer(ValidationCode.stringPatternMatching))))
        }
        return rules
    }

    // MARK: Expressions

    /// The functions of Core Data's expression language a derivation may end in (`pages.@count`).
    private static let collectionOperators = ["@count": "count", "@sum": "sum", "@avg": "average", "@min": "min", "@max": "max"]

    /// A derivation as Xcode writes it, as an expression: `pages.@count` is `count:(pages)`,
    /// `lowercase:(name)` and `now()` are functions, anything else a key path.
    static func derivation(_ text: String) -> ArchivedExpression {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let dot = trimmed.range(of: ".@", options: .backwards) {
            let path = String(trimmed[..<dot.lowerBound])
            if let name = collectionOperators["@" + trimmed[dot.upperBound...]], isKeyPath(path) {
                return .builtInFunction(name: name, arguments: [.keyPath(.evaluatedObject, path)])
            }
        }
        if trimmed.hasSuffix(")"), let open = trimmed.firstIndex(of: "(") {
            var name = String(trimmed[..<open])
            if name.hasSuffix(":") { name.removeLast() }
            let inside = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            let arguments = inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if isKeyPath(name), !name.contains("."), arguments.allSatisfy(isKeyPath) {
                return .builtInFunction(name: name, arguments: arguments.map { .keyPath(.evaluatedObject, $0) })
            }
        }
        return .keyPath(.evaluatedObject, trimmed)
    }

    private static func isKeyPath(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
    }

    /// An archived `NSExpression` (see ``KeyedArchiveWriter/expression(_:)``).
    mutating func expression(_ expression: ArchivedExpression) -> PlistValue {
        archive.expression(expression)
    }

    /// `left OPERATOR right` as an archived `NSComparisonPredicate`.
    mutating func comparison(_ left: ArchivedExpression, type: Int64, _ right: ArchivedExpression,
                             modifier: Int64 = 0, options: Int64 = 0) -> PlistValue {
        archive.comparison(left, type: type, right, modifier: modifier, options: options)
    }

    /// A parsed predicate as an archived `NSPredicate`; `nil` when Strata does not archive it.
    mutating func predicate(_ predicate: ObjectPredicate) -> PlistValue? {
        archive.predicate(predicate)
    }
}
