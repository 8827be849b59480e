import Foundation
import StrataCore

extension KeyedArchive {
    /// The root, read as a dictionary of property-list values (`NSDictionary` of strings,
    /// numbers, dates, data, arrays and dictionaries).
    ///
    /// - Throws: ``PlistError`` when the root is no dictionary or holds another kind of value.
    package func propertyListDictionary() throws(PlistError) -> [String: PropertyListValue] {
        guard case .dictionary(let dictionary) = try propertyList(root, depth: 0) else {
            throw PlistError("the archived object is not a dictionary")
        }
        return dictionary
    }

    /// An archived property-list value (string, number, date, data, `NSArray`, `NSDictionary`).
    ///
    /// - Throws: ``PlistError`` for `$null`, for an object of another class, or for values
    ///   nested deeper than ``maximumDepth``.
    package func propertyList(_ value: PlistValue, depth: Int) throws(PlistError) -> PropertyListValue {
        guard depth <= Self.maximumDepth else { throw PlistError("values nested deeper than \(Self.maximumDepth) levels") }
        guard let resolved = try resolve(value) else { throw PlistError("a nil value in a collection") }
        switch resolved {
        case .string(let s): return .string(s)
        case .integer(let i): return .integer(i)
        case .real(let d): return .double(d)
        case .bool(let b): return .bool(b)
        case .data(let d): return .data(d)
        case .date(let t): return .date(Date(timeIntervalSinceReferenceDate: t))
        case .dictionary(let object):
            let classes = try classes(of: object)
            if classes.contains("NSDictionary") {
                guard let keys = object["NS.keys"]?.array, let values = object["NS.objects"]?.array, keys.count == values.count else {
                    throw PlistError("an archived dictionary without matching NS.keys and NS.objects")
                }
                var result: [String: PropertyListValue] = [:]
                for (key, item) in zip(keys, values) {
                    guard case .string(let name) = try propertyList(key, depth: depth + 1) else {
                        throw PlistError("an archived dictionary has a key that is not a string")
                    }
                    result[name] = try propertyList(item, depth: depth + 1)
                }
                return .dictionary(result)
            }
            if classes.contains("NSArray") {
                var result: [PropertyListValue] = []
                for item in try array(value) { result.append(try propertyList(item, depth: depth + 1)) }
                return .array(result)
            }
            if let string = try string("NS.string", in: object) { return .string(string) }
            if case .real(let time)? = object["NS.time"] { return .date(Date(timeIntervalSinceReferenceDate: time)) }
            if case .data(let bytes)? = object["NS.data"] { return .data(bytes) }
            throw PlistError("a value of class \(classes[0]) cannot be read")
        case .null, .uid, .array:
            throw PlistError("a value that is not an archived object")
        }
    }
}
