import Foundation
import StrataCore

/// An `NSKeyedArchiver` archive: `$objects` (the archived objects, `$null` first), `$top.root`
/// (the archived object) and `CF$UID` references between them.
///
/// Only what mapping models archive is read: `NSExpression` trees and user info dictionaries of
/// property-list values. References are followed at most ``maximumDepth`` deep, so a cycle or a
/// deep chain is an error rather than a crash.
struct KeyedArchive {
    static let maximumDepth = 64

    private let objects: [PlistValue]
    private let root: PlistValue

    init(_ data: Data) throws(PlistError) {
        guard let top = try BinaryPropertyList.parse(data).dictionary else { throw PlistError("the archive is not a dictionary") }
        guard top["$archiver"]?.string == "NSKeyedArchiver" else { throw PlistError("not an NSKeyedArchiver archive") }
        guard let objects = top["$objects"]?.array else { throw PlistError("the archive has no $objects") }
        guard let root = top["$top"]?.dictionary?["root"] else { throw PlistError("the archive has no $top root") }
        self.objects = objects
        self.root = root
    }

    /// The object a value stands for: a `CF$UID` is looked up in `$objects`; `$null` is `nil`.
    private func resolve(_ value: PlistValue) throws(PlistError) -> PlistValue? {
        guard case .uid(let index) = value else { return value }
        guard objects.indices.contains(index) else { throw PlistError("reference \(index) points past the archive's \(objects.count) objects") }
        let object = objects[index]
        if case .string("$null") = object { return nil }
        return object
    }

    /// The class name of an archived object (`$class` → `$classname`), with its ancestors.
    private func classes(of object: [String: PlistValue]) throws(PlistError) -> [String] {
        guard let reference = object["$class"], let info = try resolve(reference)?.dictionary,
              let name = info["$classname"]?.string else { throw PlistError("an archived object has no class") }
        let ancestors = info["$classes"]?.array?.compactMap(\.string) ?? []
        return [name] + ancestors.filter { $0 != name }
    }

    /// The string an object holds under `key`, if it holds one.
    private func string(_ key: String, in object: [String: PlistValue]) throws(PlistError) -> String? {
        guard let value = object[key], let resolved = try resolve(value) else { return nil }
        if case .string(let string) = resolved { return string }
        // An NSMutableString is archived as an object holding NS.string.
        if case .dictionary(let inner) = resolved, case .string(let string)? = inner["NS.string"] { return string }
        return nil
    }

    /// The elements of an archived `NSArray`.
    private func array(_ value: PlistValue) throws(PlistError) -> [PlistValue] {
        guard let object = try resolve(value)?.dictionary, let items = object["NS.objects"]?.array else {
            throw PlistError("an archived array has no NS.objects")
        }
        return items
    }

    // MARK: Expressions

    /// The root, read as an `NSExpression`.
    func expression() throws(PlistError) -> MappingExpression {
        try expression(root, depth: 0)
    }

    private func expression(_ value: PlistValue, depth: Int) throws(PlistError) -> MappingExpression {
        guard depth <= Self.maximumDepth else { throw PlistError("expressions nested deeper than \(Self.maximumDepth) levels") }
        guard let object = try resolve(value)?.dictionary else { throw PlistError("an expression is missing or not an archived object") }
        let classes = try classes(of: object)
        guard classes.contains("NSExpression") else { throw PlistError("\(classes[0]) is not an NSExpression") }
        switch classes[0] {
        case "NSConstantValueExpression":
            if let className = try string("NSConstantValueClassName", in: object) {
                return .constant(.className(className))
            }
            return .constant(try constant(object["NSConstantValue"], depth: depth + 1))
        case "NSVariableExpression":
            guard let name = try string("NSVariable", in: object) else {
                throw PlistError("a variable expression has no name")
            }
            return .variable(name)
        case "NSSelfExpression":
            return .evaluatedObject
        case "NSKeyPathSpecifierExpression":
            // Only ever an argument of a key path expression; on its own it reads as the path.
            return .keyPath(.evaluatedObject, try keyPath(object))
        case "NSKeyPathExpression":
            let base = try operand(object, depth: depth)
            let arguments = try array(object["NSArguments"] ?? .null)
            guard arguments.count == 1, let specifier = try resolve(arguments[0])?.dictionary,
                  try self.classes(of: specifier).first == "NSKeyPathSpecifierExpression" else {
                throw PlistError("a key path expression without its key path")
            }
            return .keyPath(base, try keyPath(specifier))
        case "NSFunctionExpression":
            let receiver = try operand(object, depth: depth)
            guard let selector = try string("NSSelectorName", in: object) else {
                throw PlistError("a function expression has no selector")
            }
            var arguments: [MappingExpression] = []
            if let list = object["NSArguments"], try resolve(list) != nil {
                for argument in try array(list) { arguments.append(try expression(argument, depth: depth + 1)) }
            }
            if case .constant(.className("_NSPredicateUtilities")) = receiver {
                let name = selector.hasSuffix(":") ? String(selector.dropLast()) : selector
                return .builtInFunction(name: name, arguments: arguments)
            }
            return .function(receiver: receiver, selector: selector, arguments: arguments)
        default:
            return .unsupported(className: classes[0])
        }
    }

    private func operand(_ object: [String: PlistValue], depth: Int) throws(PlistError) -> MappingExpression {
        guard let operand = object["NSOperand"] else { throw PlistError("a function expression has no operand") }
        return try expression(operand, depth: depth + 1)
    }

    private func keyPath(_ specifier: [String: PlistValue]) throws(PlistError) -> String {
        guard let path = try string("NSKeyPath", in: specifier), !path.isEmpty else {
            throw PlistError("a key path specifier has no key path")
        }
        return path
    }

    private func constant(_ value: PlistValue?, depth: Int) throws(PlistError) -> MappingExpression.Constant {
        guard let value, let resolved = try resolve(value) else { return .null }
        switch resolved {
        case .string(let s): return .string(s)
        case .integer(let i): return .integer(i)
        case .real(let d): return .double(d)
        case .bool(let b): return .bool(b)
        case .data(let d): return .data(d)
        case .dictionary(let object):
            let classes = try classes(of: object)
            if let string = try string("NS.string", in: object) { return .string(string) }
            if case .real(let time)? = object["NS.time"] { return .date(Date(timeIntervalSinceReferenceDate: time)) }
            if case .data(let bytes)? = object["NS.data"] { return .data(bytes) }
            throw PlistError("a constant of class \(classes[0]) cannot be read")
        default:
            throw PlistError("a constant that is not a property-list value")
        }
    }

    // MARK: Xcode's copy of a model

    /// The outline of an archived `XDPMModel` (Xcode's editing form of a model): every
    /// `XDPMEntity` with its name, abstract flag, owned `XDPMAttribute`s and `XDPMRelationship`s
    /// and the `_general` end of its generalization (the parent).
    func modelOutline() throws(PlistError) -> ModelOutline {
        var entities: [String: ModelOutline.Entity] = [:]
        for object in objects {
            guard case .dictionary(let entity) = object, entity["$class"] != nil,
                  try classes(of: entity).first == "XDPMEntity" else { continue }
            guard let name = try string("_name", in: entity) else { throw PlistError("an entity without a name") }
            var attributes: [String] = []
            var relationships: [String] = []
            if let storage = entity["XDBucketForOwnedAttributesstorage"], let bucket = try resolve(storage)?.dictionary {
                for reference in bucket["NS.objects"]?.array ?? [] {
                    guard let property = try resolve(reference)?.dictionary else { continue }
                    guard let propertyName = try string("_name", in: property) else { throw PlistError("a property of \(name) without a name") }
                    switch try classes(of: property).first {
                    case "XDPMAttribute": attributes.append(propertyName)
                    case "XDPMRelationship": relationships.append(propertyName)
                    default: break
                    }
                }
            }
            var parent: String?
            if let storage = entity["XDBucketForGeneralizationsstorage"], let bucket = try resolve(storage)?.dictionary {
                for reference in bucket["NS.objects"]?.array ?? [] {
                    guard let generalization = try resolve(reference)?.dictionary, let general = generalization["_general"],
                          let parentEntity = try resolve(general)?.dictionary else { continue }
                    parent = try string("_name", in: parentEntity)
                }
            }
            let isAbstract = if case .bool(true)? = entity["_isAbstract"] { true } else { false }
            entities[name] = ModelOutline.Entity(parentName: parent, isAbstract: isAbstract,
                                                 attributeNames: attributes, relationshipNames: relationships)
        }
        return ModelOutline(entities: entities)
    }

    // MARK: User info

    /// The root, read as a dictionary of property-list values (`NSDictionary` of strings,
    /// numbers, dates, data, arrays and dictionaries).
    func propertyListDictionary() throws(PlistError) -> [String: PropertyListValue] {
        guard case .dictionary(let dictionary) = try propertyList(root, depth: 0) else {
            throw PlistError("the archived object is not a dictionary")
        }
        return dictionary
    }

    private func propertyList(_ value: PlistValue, depth: Int) throws(PlistError) -> PropertyListValue {
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
