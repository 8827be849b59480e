import Foundation

/// A keyed archive built by hand, object by object, so that a test can give any object any class
/// name and any keys, references included (cycles too), and write it as a binary property list.
///
/// ```swift
/// var archive = HandMadeArchive()
/// let entity = archive.object("NSEntityDescription", ["NSEntityName": archive.string("Person")])
/// let entities = archive.dictionary(["Person": entity])
/// let root = archive.object("NSManagedObjectModel", ["NSEntities": entities])
/// let data = archive.data(root: root)
/// ```
struct HandMadeArchive {
    /// A property-list value.
    indirect enum Value {
        case string(String)
        case integer(Int)
        case bool(Bool)
        /// A reference into `$objects`.
        case reference(Int)
        case array([Value])
        case dictionary([(String, Value)])
    }

    /// The archived objects, `$null` first.
    private(set) var objects: [Value] = [.string("$null")]
    private var classes: [String: Int] = [:]

    /// `$null`.
    static let null = Value.reference(0)

    /// Adds `value` to `$objects` and returns a reference to it.
    mutating func add(_ value: Value) -> Value {
        objects.append(value)
        return .reference(objects.count - 1)
    }

    /// A string object.
    mutating func string(_ text: String) -> Value { add(.string(text)) }

    /// A place for an object filled in later with ``fill(_:className:_:)``, for cycles.
    mutating func placeholder() -> Value { add(.string("placeholder")) }

    /// The superclasses Core Data's archived classes name, below `NSObject`.
    static let ancestors: [String: [String]] = [
        "NSAttributeDescription": ["NSPropertyDescription"],
        "NSDerivedAttributeDescription": ["NSAttributeDescription", "NSPropertyDescription"],
        "NSRelationshipDescription": ["NSPropertyDescription"],
        "NSFetchedPropertyDescription": ["NSPropertyDescription"],
        "NSKeyPathExpression": ["NSFunctionExpression", "NSExpression"],
        "NSFunctionExpression": ["NSExpression"],
        "NSKeyPathSpecifierExpression": ["NSExpression"],
        "NSSelfExpression": ["NSExpression"],
        "NSConstantValueExpression": ["NSExpression"],
        "NSVariableExpression": ["NSExpression"],
        "NSComparisonPredicate": ["NSPredicate"],
        "NSCompoundPredicate": ["NSPredicate"],
        "NSStringPredicateOperator": ["NSPredicateOperator"],
        "NSFetchRequest": ["NSPersistentStoreRequest"],
        "NSMutableDictionary": ["NSDictionary"],
        "NSMutableArray": ["NSArray"],
    ]

    /// An object of class `className` (with its ``ancestors`` and `NSObject`) with `fields`.
    mutating func object(_ className: String, _ fields: [String: Value]) -> Value {
        let reference = placeholder()
        fill(reference, className: className, fields)
        return reference
    }

    /// Makes the placeholder `reference` an object of class `className` with `fields`.
    mutating func fill(_ reference: Value, className: String, _ fields: [String: Value]) {
        guard case .reference(let index) = reference else { return }
        let classReference: Int
        if let known = classes[className] {
            classReference = known
        } else {
            let chain = [className] + (Self.ancestors[className] ?? []) + ["NSObject"]
            objects.append(.dictionary([("$classname", .string(className)), ("$classes", .array(chain.map { .string($0) }))]))
            classReference = objects.count - 1
            classes[className] = classReference
        }
        objects[index] = .dictionary([("$class", .reference(classReference))] + fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// An `NSDictionary` of string keys.
    mutating func dictionary(_ entries: [String: Value]) -> Value {
        var keys: [Value] = []
        var values: [Value] = []
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            keys.append(string(key))
            values.append(value)
        }
        return object("NSDictionary", ["NS.keys": .array(keys), "NS.objects": .array(values)])
    }

    /// An `NSArray`.
    mutating func array(_ items: [Value]) -> Value { object("NSArray", ["NS.objects": .array(items)]) }

    /// The archive as a binary property list, with `root` as `$top.root`.
    func data(root: Value) -> Data {
        var writer = BinaryPropertyListWriter()
        return writer.write(.dictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .integer(100_000)),
            ("$top", .dictionary([("root", root)])), ("$objects", .array(objects)),
        ]))
    }
}

/// Writes a ``HandMadeArchive/Value`` tree as a `bplist00` file: ASCII strings, integers,
/// Booleans, UIDs, arrays and dictionaries; 4-byte offsets, 2-byte references.
struct BinaryPropertyListWriter {
    private var encoded: [[UInt8]] = []

    mutating func write(_ top: HandMadeArchive.Value) -> Data {
        _ = add(top)
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in encoded {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += Self.bigEndian(UInt64(offset), size: 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 2]
        bytes += Self.bigEndian(UInt64(encoded.count), size: 8)
        bytes += Self.bigEndian(0, size: 8)
        bytes += Self.bigEndian(UInt64(table), size: 8)
        return Data(bytes)
    }

    private static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    private static func marker(_ high: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [high << 4 | UInt8(count)] : [high << 4 | 0x0F, 0x13] + bigEndian(UInt64(count), size: 8)
    }

    /// Encodes `value` (its children first) and returns its object number.
    private mutating func add(_ value: HandMadeArchive.Value) -> Int {
        let index = encoded.count
        encoded.append([])
        switch value {
        case .string(let text):
            encoded[index] = Self.marker(0x5, count: text.utf8.count) + Array(text.utf8)
        case .integer(let number):
            encoded[index] = [0x13] + Self.bigEndian(UInt64(bitPattern: Int64(number)), size: 8)
        case .bool(let flag):
            encoded[index] = [flag ? 0x09 : 0x08]
        case .reference(let target):
            encoded[index] = [0x83] + Self.bigEndian(UInt64(target), size: 4)
        case .array(let items):
            let references = items.map { add($0) }
            encoded[index] = Self.marker(0xA, count: items.count) + references.flatMap { Self.bigEndian(UInt64($0), size: 2) }
        case .dictionary(let entries):
            let keys = entries.map { add(.string($0.0)) }
            let values = entries.map { add($0.1) }
            encoded[index] = Self.marker(0xD, count: entries.count)
                + (keys + values).flatMap { Self.bigEndian(UInt64($0), size: 2) }
        }
        return index
    }
}
