import Foundation
@_spi(StoreImplementation) import StrataCore

/// The tags of typed values in the binary format (`docs/formats/binary.md`).
enum ValueTag: UInt8 {
    case integer = 1, decimal, double, float, string, boolean, date, binary, uuid, uri, objectID
}

/// The tags of property-list values in the binary format.
enum PlistTag: UInt8 {
    case string = 1, integer, double, bool, date, data, array, dictionary
}

extension ByteWriter {
    mutating func value(_ value: AttributeValue) {
        switch value {
        case .integer(let v): u8(ValueTag.integer.rawValue); signed(v)
        case .decimal(let v): u8(ValueTag.decimal.rawValue); string(v.description)
        case .double(let v): u8(ValueTag.double.rawValue); fixed(v.bitPattern)
        case .float(let v): u8(ValueTag.float.rawValue); fixed(v.bitPattern)
        case .string(let v): u8(ValueTag.string.rawValue); string(v)
        case .boolean(let v): u8(ValueTag.boolean.rawValue); u8(v ? 1 : 0)
        case .date(let v): u8(ValueTag.date.rawValue); fixed(v.timeIntervalSinceReferenceDate.bitPattern)
        case .binary(let v): u8(ValueTag.binary.rawValue); blob(v)
        case .uuid(let v): u8(ValueTag.uuid.rawValue); withUnsafeBytes(of: v.uuid) { append(Array($0)) }
        case .uri(let v): u8(ValueTag.uri.rawValue); string(v.absoluteString)
        case .objectID(let v): u8(ValueTag.objectID.rawValue); string(v.description)
        }
    }

    mutating func plist(_ value: PropertyListValue) {
        switch value {
        case .string(let v): u8(PlistTag.string.rawValue); string(v)
        case .integer(let v): u8(PlistTag.integer.rawValue); signed(v)
        case .double(let v): u8(PlistTag.double.rawValue); fixed(v.bitPattern)
        case .bool(let v): u8(PlistTag.bool.rawValue); u8(v ? 1 : 0)
        case .date(let v): u8(PlistTag.date.rawValue); fixed(v.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let v): u8(PlistTag.data.rawValue); blob(v)
        case .array(let items):
            u8(PlistTag.array.rawValue); count(items.count)
            for item in items { plist(item) }
        case .dictionary(let entries):
            u8(PlistTag.dictionary.rawValue); count(entries.count)
            for key in entries.keys.sorted() {
                string(key)
                plist(entries[key] ?? .string(""))
            }
        }
    }
}

extension ByteReader {
    mutating func value() throws -> AttributeValue {
        let start = offset
        let raw = try u8()
        guard let tag = ValueTag(rawValue: raw) else { throw corrupt("unknown value tag \(raw)", at: start) }
        switch tag {
        case .integer: return .integer(try signed())
        case .decimal:
            let text = try string()
            guard let decimal = Decimal(exactly: text) else {
                throw corrupt("'\(text)' is not a decimal number of at most \(Decimal.maximumSignificantDigits) significant digits", at: start)
            }
            return .decimal(decimal)
        case .double: return .double(Double(bitPattern: try fixed(UInt64.self)))
        case .float: return .float(Float(bitPattern: try fixed(UInt32.self)))
        case .string: return .string(try string())
        case .boolean:
            let byte = try u8()
            guard byte <= 1 else { throw corrupt("Boolean byte \(byte) is neither 0 nor 1", at: start) }
            return .boolean(byte == 1)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try fixed(UInt64.self))))
        case .binary: return .binary(Data(try blob()))
        case .uuid:
            var bytes: [UInt8] = []
            for _ in 0..<16 { bytes.append(try u8()) }
            let uuid = bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }
            return .uuid(UUID(uuid: uuid))
        case .uri:
            let text = try string()
            guard let url = URL(string: text) else { throw corrupt("'\(text)' is not a URL", at: start) }
            return .uri(url)
        case .objectID:
            let text = try string()
            guard let url = URL(string: text), let id = ManagedObjectID(parsing: url) else {
                throw corrupt("'\(text)' is not an object ID", at: start)
            }
            return .objectID(id)
        }
    }

    mutating func plist(depth: Int = 0) throws -> PropertyListValue {
        let start = offset
        guard depth < 64 else { throw corrupt("property list nested more than 64 levels", at: start) }
        let raw = try u8()
        guard let tag = PlistTag(rawValue: raw) else { throw corrupt("unknown property-list tag \(raw)", at: start) }
        switch tag {
        case .string: return .string(try string())
        case .integer: return .integer(try signed())
        case .double: return .double(Double(bitPattern: try fixed(UInt64.self)))
        case .bool:
            let byte = try u8()
            guard byte <= 1 else { throw corrupt("Boolean byte \(byte) is neither 0 nor 1", at: start) }
            return .bool(byte == 1)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try fixed(UInt64.self))))
        case .data: return .data(Data(try blob()))
        case .array:
            let count = try count()
            var items: [PropertyListValue] = []
            for _ in 0..<count { items.append(try plist(depth: depth + 1)) }
            return .array(items)
        case .dictionary:
            let count = try count(minimumItemSize: 2)
            var entries: [String: PropertyListValue] = [:]
            for _ in 0..<count {
                let keyOffset = offset
                let key = try string()
                guard entries[key] == nil else { throw corrupt("duplicate property-list key '\(key)'", at: keyOffset) }
                entries[key] = try plist(depth: depth + 1)
            }
            return .dictionary(entries)
        }
    }
}
