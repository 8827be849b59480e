import Foundation
import StrataCore

extension CompiledModelReader {
    /// `NSDefaultValue` as a value of the attribute's type; `nil` when there is none or it is of
    /// a kind Strata does not read (an `NSDecimalNumber` object, a transformable attribute's
    /// archived custom object).
    func defaultValue(_ archived: [String: PlistValue], type: AttributeType, of owner: String) throws(CompiledModelError) -> AttributeValue? {
        guard let reference = archived["NSDefaultValue"],
              let value = try reading(owner, { () throws(PlistError) in try archive.resolve(reference) }) else { return nil }
        let object: [String: PlistValue] = if case .dictionary(let members) = value { members } else { [:] }
        let candidate: AttributeValue? = switch (type, value) {
        case (.integer16, .integer(let number)), (.integer32, .integer(let number)), (.integer64, .integer(let number)):
            .integer(number)
        case (.integer16, .bool(let flag)), (.integer32, .bool(let flag)), (.integer64, .bool(let flag)):
            .integer(flag ? 1 : 0)
        case (.double, .real(let number)): .double(number)
        case (.double, .integer(let number)): .double(Double(number))
        case (.float, .real(let number)): .float(Float(number))
        case (.float, .integer(let number)): .float(Float(number))
        case (.decimal, .integer(let number)): .decimal(Decimal(number))
        case (.decimal, .real(let number)): Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX")).map(AttributeValue.decimal)
        case (.boolean, .bool(let flag)): .boolean(flag)
        case (.boolean, .integer(let number)): .boolean(number != 0)
        case (.string, .string(let text)): .string(text)
        case (.string, .dictionary): (try? archive.string("NS.string", in: object)).flatMap { $0 }.map(AttributeValue.string)
        case (.date, .date(let time)): .date(Date(timeIntervalSinceReferenceDate: time))
        case (.date, .dictionary):
            if case .real(let time)? = object["NS.time"] { .date(Date(timeIntervalSinceReferenceDate: time)) } else { nil }
        case (.binaryData, .data(let bytes)): .binary(bytes)
        case (.binaryData, .dictionary):
            if case .data(let bytes)? = object["NS.data"] { .binary(bytes) } else { nil }
        case (.uuid, .dictionary):
            if case .data(let bytes)? = object["NS.uuidbytes"], bytes.count == 16 {
                .uuid(UUID(uuid: (bytes[bytes.startIndex], bytes[bytes.startIndex + 1], bytes[bytes.startIndex + 2], bytes[bytes.startIndex + 3],
                                  bytes[bytes.startIndex + 4], bytes[bytes.startIndex + 5], bytes[bytes.startIndex + 6], bytes[bytes.startIndex + 7],
                                  bytes[bytes.startIndex + 8], bytes[bytes.startIndex + 9], bytes[bytes.startIndex + 10], bytes[bytes.startIndex + 11],
                                  bytes[bytes.startIndex + 12], bytes[bytes.startIndex + 13], bytes[bytes.startIndex + 14], bytes[bytes.startIndex + 15])))
            } else { nil }
        case (.decimal, .dictionary) where object["NS.mantissa"] != nil:
            Self.decimalNumber(object).map(AttributeValue.decimal)
        case (.uri, .dictionary):
            (try? archive.string("NS.relative", in: object)).flatMap { $0 }.flatMap { URL(string: $0) }.map(AttributeValue.uri)
        default: nil
        }
        guard let candidate, candidate.matches(type) else { return nil }
        return candidate
    }

    /// `NSUserInfo`: the entries whose values are strings, numbers or Booleans, as text.
    func userInfo(_ archived: [String: PlistValue], of owner: String) throws(CompiledModelError) -> [String: String] {
        try reading(owner) { () throws(PlistError) in
            var info: [String: String] = [:]
            for (key, value) in try archive.stringKeyedEntries("NSUserInfo", in: archived) {
                switch try archive.propertyList(value, depth: 1) {
                case .string(let text): info[key] = text
                case .integer(let number): info[key] = String(number)
                case .double(let number): info[key] = String(number)
                case .bool(let flag): info[key] = flag ? "YES" : "NO"
                default: continue
                }
            }
            return info
        }
    }
}
