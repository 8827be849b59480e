import Foundation
import StrataCore

/// Store metadata as the binary property list Core Data keeps in `Z_METADATA.Z_PLIST`.
enum MetadataPropertyList {
    /// The binary property list of `metadata`.
    static func encode(_ metadata: [String: PropertyListValue]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: foundation(.dictionary(metadata)), format: .binary, options: 0)
    }

    /// The metadata in a property list's bytes.
    ///
    /// - Throws: a message when the bytes are not a property list holding a dictionary.
    static func decode(_ data: Data) throws -> [String: PropertyListValue] {
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        guard case .dictionary(let dictionary)? = value(object) else {
            throw SQLiteMetadataProblem(reason: "the metadata property list is not a dictionary")
        }
        return dictionary
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
