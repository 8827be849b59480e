import Foundation
@_spi(StoreImplementation) import StrataCore

/// Attribute values in SQLite columns, as Core Data stores them (dates as REAL seconds since
/// 2001, UUIDs as 16-byte BLOBs, Booleans as 0/1) and without losing a bit where Core Data would:
/// a double, float or date SQLite cannot keep exactly (NaN, which it turns into NULL, and −0.0,
/// which it may store as the integer 0) is written as an 8-byte BLOB of its bits; a decimal with
/// more than 15 significant digits (more than a REAL keeps) as a BLOB of its UTF-8 digits.
enum SQLiteValueCoding {
    /// The column value of an attribute value.
    static func encode(_ value: AttributeValue?) -> SQLiteValue {
        guard let value else { return .null }
        switch value {
        case .integer(let integer): return .integer(integer)
        case .decimal(let decimal):
            let text = decimal.description
            return significantDigits(text) <= 15 ? .text(text) : .blob(Data(text.utf8))
        case .double(let double): return encode(double)
        case .float(let float) where float.isNaN:
            return .blob(withUnsafeBytes(of: float.bitPattern.bigEndian) { Data($0) })   // the float's own bits
        case .float(let float): return encode(Double(float))
        case .string(let string): return .text(string)
        case .boolean(let flag): return .integer(flag ? 1 : 0)
        case .date(let date): return encode(date.timeIntervalSinceReferenceDate)
        case .binary(let data): return .blob(data)
        case .uuid(let uuid): return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        case .uri(let url): return .text(url.absoluteString)
        case .objectID(let id): return .text(id.uriRepresentation.absoluteString)
        }
    }

    private static func encode(_ double: Double) -> SQLiteValue {
        if double.isNaN || (double == 0 && double.sign == .minus) {
            return .blob(withUnsafeBytes(of: double.bitPattern.bigEndian) { Data($0) })
        }
        return .real(double)
    }

    private static func significantDigits(_ text: String) -> Int {
        let digits = text.prefix { $0 != "e" && $0 != "E" }.filter(\.isNumber).drop { $0 == "0" }
        return digits.reversed().drop { $0 == "0" }.count
    }

    /// The attribute value of a column value; nil for NULL.
    ///
    /// - Throws: a message naming what the column held when it cannot be a value of `type`.
    static func decode(_ value: SQLiteValue, as type: AttributeType) throws(SQLiteDecodingProblem) -> AttributeValue? {
        func mismatch() -> SQLiteDecodingProblem { SQLiteDecodingProblem(type: type, found: value) }
        switch (type, value) {
        case (_, .null): return nil
        case (.integer16, .integer(let i)), (.integer32, .integer(let i)), (.integer64, .integer(let i)):
            guard fits(i, type) else { throw mismatch() }
            return .integer(i)
        case (.integer16, .real(let d)), (.integer32, .real(let d)), (.integer64, .real(let d)):
            guard let i = Int64(exactly: d), fits(i, type) else { throw mismatch() }
            return .integer(i)
        // Core Data writes 0 and 1; any other number is no Boolean.
        case (.boolean, .integer(let i)) where i == 0 || i == 1: return .boolean(i != 0)
        case (.boolean, .real(let d)) where d == 0 || d == 1: return .boolean(d != 0)
        case (.double, _): return .double(try decodeDouble(value, type))
        case (.float, .blob(let data)) where data.count == 4:
            return .float(Float(bitPattern: data.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }))
        case (.float, _):
            let double = try decodeDouble(value, type)
            let float = Float(double)
            // A finite number beyond Float's range would become an infinity.
            guard float.isFinite || !double.isFinite else { throw mismatch() }
            return .float(float)
        case (.date, _): return .date(Date(timeIntervalSinceReferenceDate: try decodeDouble(value, type)))
        case (.decimal, .integer(let i)): return .decimal(Decimal(i))
        case (.decimal, .real(let d)): return .decimal(try decimal(String(format: "%.15g", d), value))
        case (.decimal, .text(let text)): return .decimal(try decimal(text, value))
        case (.decimal, .blob(let data)): return .decimal(try decimal(String(decoding: data, as: UTF8.self), value))
        case (.string, .text(let text)): return .string(text)
        case (.string, .integer(let i)): return .string(String(i))
        case (.string, .real(let d)): return .string(String(d))
        case (.binaryData, .blob(let data)), (.transformable, .blob(let data)): return .binary(data)
        case (.binaryData, .text(let text)), (.transformable, .text(let text)): return .binary(Data(text.utf8))
        case (.uuid, .blob(let data)) where data.count == 16:
            let bytes = [UInt8](data)
            return .uuid(UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                     bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])))
        case (.uuid, .text(let text)):
            guard let uuid = UUID(uuidString: text) else { throw mismatch() }
            return .uuid(uuid)
        case (.uri, .text(let text)):
            guard let url = URL(string: text) else { throw mismatch() }
            return .uri(url)
        case (.objectID, .text(let text)):
            guard let url = URL(string: text), let id = ManagedObjectID(parsing: url) else { throw mismatch() }
            return .objectID(id)
        default:
            throw mismatch()
        }
    }

    /// Whether `integer` is in the range of the integer type `type`.
    @inline(__always)
    static func fits(_ integer: Int64, _ type: AttributeType) -> Bool {
        switch type {
        case .integer16: Int64(Int16(truncatingIfNeeded: integer)) == integer
        case .integer32: Int64(Int32(truncatingIfNeeded: integer)) == integer
        default: true
        }
    }

    private static func decodeDouble(_ value: SQLiteValue, _ type: AttributeType) throws(SQLiteDecodingProblem) -> Double {
        switch value {
        case .real(let d): return d
        case .integer(let i): return Double(i)
        case .blob(let data) where data.count == 8:
            return Double(bitPattern: data.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        default: throw SQLiteDecodingProblem(type: type, found: value)
        }
    }

    private static func decimal(_ text: String, _ value: SQLiteValue) throws(SQLiteDecodingProblem) -> Decimal {
        guard let decimal = Decimal(exactly: text) else {
            throw SQLiteDecodingProblem(type: .decimal, found: value)
        }
        return decimal
    }
}

/// A column value that cannot be a value of its attribute's type.
struct SQLiteDecodingProblem: Error {
    var type: AttributeType
    var found: SQLiteValue

    var description: String {
        "a \(type.rawValue) column holds \(foundDescription)"
    }

    /// What the column held, in words: `the integer 99999`, `the text 'abc'`.
    var foundDescription: String {
        switch found {
        case .null: "NULL"
        case .integer(let i): "the integer \(i)"
        case .real(let d): "the real \(d)"
        case .text(let text): "the text '\(text.count > 40 ? text.prefix(40) + "…" : text)'"
        case .blob(let data): "a \(data.count)-byte blob"
        }
    }
}

extension AttributeType {
    /// Whether values of this type are numbers that ``SQLiteValueCoding`` stores as a BLOB when a
    /// REAL would not keep them exactly, and that SQL then orders after every other number.
    var storesInexactNumbersAsBlobs: Bool {
        switch self {
        case .double, .float, .date, .decimal: true
        default: false
        }
    }
}
