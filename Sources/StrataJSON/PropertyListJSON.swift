import Collections
import Foundation
import StrataCore

/// Store metadata (a property list) as JSON, without losing a type: strings, Booleans, arrays
/// and dictionaries as themselves, integers as integers, doubles always with a fraction or an
/// exponent, and what JSON lacks as one-member objects: `{"$data": "base64"}`,
/// `{"$date": seconds-since-1970}` and `{"$double": "Infinity"}` (also `"-Infinity"`, `"NaN"`,
/// `"NaN(0x…)"`) for doubles that are not finite. A dictionary whose only key starts with `$` is wrapped as
/// `{"$dictionary": {…}}` so it is never mistaken for one of those.
public enum PropertyListJSON {
    /// The JSON form of a property-list value. Dictionary keys are written sorted.
    public static func encode(_ value: PropertyListValue) -> JSONValue {
        switch value {
        case .string(let string): return .string(string)
        case .integer(let integer): return .integer(integer)
        case .double(let double):
            guard double.isFinite else { return .object(["$double": AttributeJSON.encode(double)]) }
            let text = double.description
            return .number(text.contains(where: { $0 == "." || $0 == "e" }) ? text : text + ".0")
        case .bool(let flag): return .bool(flag)
        case .date(let date): return .object(["$date": AttributeJSON.encode(date)])
        case .data(let data): return .object(["$data": .string(data.base64EncodedString())])
        case .array(let items): return .array(items.map(encode))
        case .dictionary(let dictionary):
            let members = OrderedDictionary(uniqueKeysWithValues: dictionary.keys.sorted().map { ($0, encode(dictionary[$0]!)) })
            if members.count == 1, let key = members.keys.first, key.hasPrefix("$") { return .object(["$dictionary": .object(members)]) }
            return .object(members)
        }
    }

    /// Reads the JSON form back.
    ///
    /// - Throws: a problem naming the member (relative path) that does not fit.
    public static func decode(_ json: JSONValue) throws(JSONValueProblem) -> PropertyListValue {
        switch json {
        case .null: throw JSONValueProblem("null has no property-list form")
        case .bool(let flag): return .bool(flag)
        case .string(let string): return .string(string)
        case .number(let text):
            if let integer = Int64(text) { return .integer(integer) }
            guard let double = Double(text), double.isFinite else {
                throw JSONValueProblem("the number \(text) is beyond a Double's range")
            }
            return .double(double)
        case .array(let items):
            var values: [PropertyListValue] = []
            for item in items { values.append(try decode(item)) }
            return .array(values)
        case .object(let members):
            if members.count == 1, let (key, inner) = members.elements.first {
                switch (key, inner) {
                case ("$data", .string(let base64)):
                    guard let data = Data(base64Encoded: base64) else { throw JSONValueProblem("\"$data\" is not base64") }
                    return .data(data)
                case ("$date", _):
                    let date = try AttributeJSON.decode(inner, as: AttributeDescription(name: "$date", type: .date))
                    guard case .date(let value)? = date else { throw JSONValueProblem("\"$date\" is not seconds since 1970") }
                    return .date(value)
                case ("$double", .string):
                    let double = try AttributeJSON.decode(inner, as: AttributeDescription(name: "$double", type: .double))
                    guard case .double(let value)? = double else { throw JSONValueProblem("\"$double\" is not a number") }
                    return .double(value)
                case ("$dictionary", .object):
                    return try decodeDictionary(inner)
                default: break
                }
            }
            return try decodeDictionary(json)
        }
    }

    private static func decodeDictionary(_ json: JSONValue) throws(JSONValueProblem) -> PropertyListValue {
        guard case .object(let members) = json else { throw JSONValueProblem("expected an object") }
        var dictionary: [String: PropertyListValue] = [:]
        for (key, value) in members {
            do {
                dictionary[key] = try decode(value)
            } catch {
                throw JSONValueProblem("\(key): \(error.message)")
            }
        }
        return .dictionary(dictionary)
    }
}
