import Foundation
@_spi(StoreImplementation) import StrataCore

/// Store metadata as the binary property list Core Data keeps in `Z_METADATA.Z_PLIST`.
enum MetadataPropertyList {
    /// The binary property list of `metadata`.
    static func encode(_ metadata: [String: PropertyListValue]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: foundation(.dictionary(metadata)), format: .binary, options: 0)
    }

    /// The metadata in a property list's bytes.
    ///
    /// - Throws: ``SQLiteMetadataProblem`` saying what the bytes are when they are not a
    ///   property list holding a dictionary (never Foundation's own error).
    static func decode(_ data: Data) throws(SQLiteMetadataProblem) -> [String: PropertyListValue] {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw SQLiteMetadataProblem(reason: "Z_METADATA.Z_PLIST holds " + describe(data))
        }
        guard case .dictionary(let dictionary)? = value(object) else {
            throw SQLiteMetadataProblem(reason: "Z_METADATA.Z_PLIST holds a property list that is not a dictionary")
        }
        return dictionary
    }

    /// What `data`, which does not read as a property list, looks like.
    private static func describe(_ data: Data) -> String {
        if data.starts(with: Array("bplist00".utf8)) {
            return "a binary property list of \(data.count) bytes that is damaged or cut short"
        }
        if data.starts(with: Array("<?xml".utf8)) || data.starts(with: Array("<plist".utf8)) {
            return "an XML property list of \(data.count) bytes that does not parse"
        }
        let head = data.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
        return "\(data.count) bytes that are no property list (they start \(head.isEmpty ? "with nothing" : head); Core Data writes a binary property list, starting 'bplist00')"
    }

    private static func foundation(_ value: PropertyListValue) -> Any {
        switch value {
        case .string(let string): string
        case .integer(let integer): NSNumber(value: integer)
        case .double(let double): NSNumber(value: double)
        case .bool(let flag): flag
        case .date(let date): date
        case .data(let data): data
        case .array(let items): items.map(foundation)
        case .dictionary(let dictionary): dictionary.mapValues(foundation)
        }
    }

    private static func value(_ object: Any) -> PropertyListValue? {
        if Swift.type(of: object) == Bool.self, let flag = object as? Bool { return .bool(flag) }
        switch object {
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            if type == "c" || type == "B" { return .bool(number.boolValue) }
            return type == "d" || type == "f" ? .double(number.doubleValue) : .integer(number.int64Value)
        case let string as String: return .string(string)
        case let date as Date: return .date(date)
        case let data as Data: return .data(data)
        case let array as [Any]: return .array(array.compactMap(value))
        case let dictionary as [String: Any]: return .dictionary(dictionary.compactMapValues(value))
        default: return nil
        }
    }
}

/// Metadata that is not what Core Data writes.
struct SQLiteMetadataProblem: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
