import Foundation
@_spi(StoreImplementation) import StrataCore

/// How attribute values are written in a JSON document and read back (see
/// `docs/formats/json.md`): integers as integers, `Double` and `Float` as numbers that read back
/// to the same bits, `Decimal` as a string, dates as exact seconds since 1970, bytes as base64.
public enum AttributeJSON {
    /// Seconds from 1970-01-01T00:00:00Z to Core Data's reference date 2001-01-01T00:00:00Z.
    static let unixToReferenceSeconds = DecimalText(978_307_200)

    /// The JSON form of a stored value.
    public static func encode(_ value: AttributeValue) -> JSONValue {
        switch value {
        case .integer(let integer): .integer(integer)
        case .decimal(let decimal): .string(decimal.description)
        case .double(let double): encode(double)
        case .float(let float): encode(float)
        case .string(let string): .string(string)
        case .boolean(let flag): .bool(flag)
        case .date(let date): encode(date)
        case .binary(let data): .string(data.base64EncodedString())
        case .uuid(let uuid): .string(uuid.uuidString)
        case .uri(let url): .string(url.absoluteString)
        case .objectID(let id): .string(id.uriRepresentation.absoluteString)
        }
    }

    /// A `Double` as its shortest round-tripping digits; infinities and NaN (which JSON numbers
    /// cannot be) as the strings `"Infinity"`, `"-Infinity"`, `"NaN"` or `"NaN(0x…)"` with the bits.
    static func encode(_ double: Double) -> JSONValue {
        if double.isFinite { return .number(double.description) }
        if double.isInfinite { return .string(double < 0 ? "-Infinity" : "Infinity") }
        let bits = double.bitPattern
        return .string(bits == Double.nan.bitPattern ? "NaN" : "NaN(0x\(String(bits, radix: 16)))")
    }

    /// A `Float` as its shortest round-tripping digits (as a `Float`, not widened to `Double`).
    static func encode(_ float: Float) -> JSONValue {
        if float.isFinite { return .number(float.description) }
        if float.isInfinite { return .string(float < 0 ? "-Infinity" : "Infinity") }
        let bits = float.bitPattern
        return .string(bits == Float.nan.bitPattern ? "NaN" : "NaN(0x\(String(bits, radix: 16)))")
    }

    /// A date as seconds since 1970, exactly: the shortest digits of its seconds since 2001,
    /// plus 978,307,200 in decimal arithmetic, so reading subtracts them back without rounding.
    static func encode(_ date: Date) -> JSONValue {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite, let exact = DecimalText(seconds.description) else { return encode(seconds) }
        return .number((exact + unixToReferenceSeconds).plainText)
    }

    /// Reads the JSON form of a value of `attribute`'s type; nil for `null`.
    ///
    /// - Throws: a message saying what was expected and what was found.
    public static func decode(_ json: JSONValue, as attribute: AttributeDescription) throws(JSONValueProblem) -> AttributeValue? {
        if case .null = json { return nil }
        func mismatch(_ expected: String) -> JSONValueProblem {
            JSONValueProblem("expected \(expected) for \(attribute.type.rawValue) attribute '\(attribute.name)', found \(json.kindDescription)")
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            guard case .number(let text) = json, let integer = Int64(text) else { throw mismatch("an integer") }
            let range: ClosedRange<Int64> = switch attribute.type {
            case .integer16: Int64(Int16.min)...Int64(Int16.max)
            case .integer32: Int64(Int32.min)...Int64(Int32.max)
            default: Int64.min...Int64.max
            }
            guard range.contains(integer) else { throw mismatch("an integer in \(range.lowerBound)...\(range.upperBound)") }
            return .integer(integer)
        case .decimal:
            let text: String
            switch json {
            case .string(let string): text = string
            case .number(let number): text = number
            default: throw mismatch("a decimal number as a string")
            }
            guard DecimalText(text) != nil else { throw mismatch("a decimal number as a string") }
            guard let decimal = Decimal(exactly: text) else {
                throw mismatch("a decimal number of at most \(Decimal.maximumSignificantDigits) significant digits (a Decimal keeps no more)")
            }
            return .decimal(decimal)
        case .double:
            guard let double = decodeFloatingPoint(json, as: Double.self) else {
                throw mismatch("a number within Double's range (magnitude at most \(Double.greatestFiniteMagnitude))")
            }
            return .double(double)
        case .float:
            guard let float = decodeFloatingPoint(json, as: Float.self) else {
                throw mismatch("a number within Float's range (magnitude at most \(Float.greatestFiniteMagnitude))")
            }
            return .float(float)
        case .string:
            guard case .string(let string) = json else { throw mismatch("a string") }
            return .string(string)
        case .boolean:
            guard case .bool(let flag) = json else { throw mismatch("true or false") }
            return .boolean(flag)
        case .date:
            guard let date = decodeDate(json) else { throw mismatch("seconds since 1970 as a number") }
            return .date(date)
        case .binaryData, .transformable:
            guard case .string(let string) = json, let data = Data(base64Encoded: string) else { throw mismatch("base64 bytes") }
            return .binary(data)
        case .uuid:
            guard case .string(let string) = json, let uuid = UUID(uuidString: string) else { throw mismatch("a UUID string") }
            return .uuid(uuid)
        case .uri:
            guard case .string(let string) = json, let url = URL(string: string) else { throw mismatch("a URI string") }
            return .uri(url)
        case .objectID:
            guard case .string(let string) = json, let url = URL(string: string), let id = ManagedObjectID(parsing: url) else {
                throw mismatch("an object ID URI (x-coredata://…)")
            }
            return .objectID(id)
        }
    }

    private static func decodeFloatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ json: JSONValue, as: T.Type) -> T?
    where T.RawSignificand: FixedWidthInteger {
        switch json {
        case .number(let text):
            // A number beyond the type's range would become an infinity: no value of it.
            guard let value = T(text), value.isFinite else { return nil }
            return value
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string("NaN"): return .nan
        case .string(let text) where text.hasPrefix("NaN(0x") && text.hasSuffix(")"):
            let hex = text.dropFirst(6).dropLast()
            if T.self == Double.self, let bits = UInt64(hex, radix: 16) {
                let value = Double(bitPattern: bits)
                return value.isNaN ? value as? T : nil
            }
            if T.self == Float.self, let bits = UInt32(hex, radix: 16) {
                let value = Float(bitPattern: bits)
                return value.isNaN ? value as? T : nil
            }
            return nil
        default:
            return nil
        }
    }

    private static func decodeDate(_ json: JSONValue) -> Date? {
        if case .number(let text) = json {
            guard let exact = DecimalText(text), let seconds = Double((exact - unixToReferenceSeconds).plainText),
                  seconds.isFinite else { return nil }
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        return decodeFloatingPoint(json, as: Double.self).map { Date(timeIntervalSinceReferenceDate: $0) }
    }
}

/// A JSON value that does not fit where it stands; the document reader adds the path.
public struct JSONValueProblem: Error, Sendable, Hashable {
    /// What was expected and what was found.
    public var message: String
    /// Creates a problem.
    public init(_ message: String) { self.message = message }
}
