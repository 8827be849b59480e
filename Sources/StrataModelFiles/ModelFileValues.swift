import Foundation
import StrataCore

/// How the `contents` format spells Booleans, numbers and default values, both ways.
enum ModelFileValues {
    /// `YES`/`NO` (what Xcode writes); `true`/`false` and `1`/`0` are read too.
    static func boolean(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "yes", "true", "1": true
        case "no", "false", "0": false
        default: nil
        }
    }

    /// `YES` or `NO`.
    static func text(_ value: Bool) -> String { value ? "YES" : "NO" }

    /// A finite or infinite number, as Swift parses it (`0`, `-1.5`, `1e6`).
    static func number(_ text: String) -> Double? {
        Double(text.trimmingCharacters(in: .whitespaces))
    }

    /// A whole number in `Int`.
    static func integer(_ text: String) -> Int? {
        Int(text.trimmingCharacters(in: .whitespaces))
    }

    /// A number as Xcode writes it: whole numbers without a fraction (`0`, `100`), others in
    /// Swift's shortest form that reads back to the same bits.
    static func text(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15, !(value == 0 && value.sign == .minus) {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// Converts the text of a default value (`defaultValueString`, or `defaultDateTimeInterval`
    /// for dates) to a value of `type`; `nil` when it does not convert.
    static func defaultValue(_ text: String, type: AttributeType) -> AttributeValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16, .integer32, .integer64:
            let value: Int64
            if let exact = Int64(trimmed) {
                value = exact
            } else if let number = Double(trimmed), number.isFinite, number == number.rounded(),
                      let exact = Int64(exactly: number) {
                value = exact  // "0.0" in an integer attribute, as NSNumber would read it
            } else {
                return nil
            }
            let candidate = AttributeValue.integer(value)
            return candidate.matches(type) ? candidate : nil
        case .decimal:
            guard isDecimalLiteral(trimmed),
                  let decimal = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
            return .decimal(decimal)
        case .double:
            return Double(trimmed).map { .double($0) }
        case .float:
            return Float(trimmed).map { .float($0) }
        case .string:
            return .string(text)
        case .boolean:
            return boolean(trimmed).map { .boolean($0) }
        case .date:
            return Double(trimmed).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .uuid:
            return UUID(uuidString: trimmed).map { .uuid($0) }
        case .uri:
            guard !trimmed.isEmpty else { return nil }
            return URL(string: trimmed).map { .uri($0) }
        case .binaryData, .transformable, .objectID:
            return nil
        }
    }

    /// The text a default value is written as; `nil` for a value the format cannot hold.
    static func text(_ value: AttributeValue) -> String? {
        switch value {
        case .integer(let v): "\(v)"
        case .decimal(let v): v.description
        case .double(let v): "\(v)"
        case .float(let v): "\(v)"
        case .string(let v): v
        case .boolean(let v): text(v)
        case .date(let v): text(v.timeIntervalSinceReferenceDate)
        case .uuid(let v): v.uuidString
        case .uri(let v): v.absoluteString
        case .binary, .objectID: nil
        }
    }

    /// `[-+]digits[.digits][e[-+]digits]`, so that `Decimal(string:)` cannot stop half way.
    private static func isDecimalLiteral(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        func digits() -> Int {
            var count = 0
            while let first = scalars.first, ("0"..."9").contains(first) { scalars.removeFirst(); count += 1 }
            return count
        }
        if let first = scalars.first, first == "-" || first == "+" { scalars.removeFirst() }
        var mantissa = digits()
        if scalars.first == "." { scalars.removeFirst(); mantissa += digits() }
        guard mantissa > 0 else { return false }
        if let first = scalars.first, first == "e" || first == "E" {
            scalars.removeFirst()
            if let sign = scalars.first, sign == "-" || sign == "+" { scalars.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return scalars.isEmpty
    }
}
