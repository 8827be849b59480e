import Foundation

/// Builds an `NSKeyedArchiver` archive (the counterpart of ``KeyedArchive``): `$objects`
/// with `$null` first, each archived object a dictionary whose `$class` points to a class entry
/// (`$classname`, `$classes`), references as `CF$UID`s, and `$top.root`.
///
/// Objects that refer to each other (an entity and its sub-entities, a relationship and its
/// inverse) are made in two steps: ``reserve()`` gives an object its number, ``set(_:className:_:)``
/// fills it in once everything it points to has a number too.
package struct KeyedArchiveWriter {
    /// The archived objects, `$null` first.
    private var objects: [PlistValue] = [.string("$null")]
    /// Class entries by class name.
    private var classEntries: [String: Int] = [:]
    /// Strings already archived.
    private var strings: [String: Int] = [:]

    /// The reference that stands for `nil`.
    package static let null = PlistValue.uid(0)

    /// An empty archive.
    package init() {}

    /// A number for an object filled in later with ``set(_:className:_:)``.
    package mutating func reserve() -> Int {
        objects.append(.null)
        return objects.count - 1
    }

    /// Fills in the object numbered `index`: an instance of `className` (its ancestors up to
    /// `NSObject` are taken from ``ancestors``) with `fields`.
    package mutating func set(_ index: Int, className: String, _ fields: [String: PlistValue]) {
        var object = fields
        object["$class"] = classEntry(className)
        objects[index] = .dictionary(object)
    }

    /// Archives a new object and returns the reference to it.
    package mutating func object(_ className: String, _ fields: [String: PlistValue]) -> PlistValue {
        let index = reserve()
        set(index, className: className, fields)
        return .uid(index)
    }

    /// A string, archived once however often it is used.
    package mutating func string(_ text: String) -> PlistValue {
        if let index = strings[text] { return .uid(index) }
        objects.append(.string(text))
        strings[text] = objects.count - 1
        return .uid(objects.count - 1)
    }

    /// An optional string: `$null` for `nil`.
    package mutating func string(_ text: String?) -> PlistValue {
        text.map { string($0) } ?? Self.null
    }

    /// A plain value (a number, a Boolean, bytes) archived as its own object.
    package mutating func value(_ value: PlistValue) -> PlistValue {
        objects.append(value)
        return .uid(objects.count - 1)
    }

    /// An `NSArray` (or `className`, such as `NSMutableArray` or `NSSet`) of references.
    package mutating func array(_ items: [PlistValue], className: String = "NSArray") -> PlistValue {
        object(className, ["NS.objects": .array(items)])
    }

    /// An `NSDictionary` (or `className`) of references, keys in the order given.
    package mutating func dictionary(_ entries: [(key: PlistValue, value: PlistValue)], className: String = "NSDictionary") -> PlistValue {
        object(className, ["NS.keys": .array(entries.map(\.key)), "NS.objects": .array(entries.map(\.value))])
    }

    /// The class entry of `className`, archived once.
    private mutating func classEntry(_ className: String) -> PlistValue {
        if let index = classEntries[className] { return .uid(index) }
        let names = [className] + (Self.ancestors[className] ?? []) + ["NSObject"]
        objects.append(.dictionary(["$classname": .string(className), "$classes": .array(names.map(PlistValue.string))]))
        classEntries[className] = objects.count - 1
        return .uid(objects.count - 1)
    }

    /// The ancestors (below `NSObject`) of the classes a compiled model is made of, as Core Data's
    /// archives list them.
    static let ancestors: [String: [String]] = [
        "NSMutableArray": ["NSArray"],
        "NSMutableDictionary": ["NSDictionary"],
        "NSMutableSet": ["NSSet"],
        "NSMutableString": ["NSString"],
        "NSKnownKeysDictionary1": ["NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary"],
        "NSKnownKeysMappingStrategy1": ["NSKnownKeysMappingStrategy"],
        "NSAttributeDescription": ["NSPropertyDescription"],
        "NSDerivedAttributeDescription": ["NSAttributeDescription", "NSPropertyDescription"],
        "NSRelationshipDescription": ["NSPropertyDescription"],
        "NSFetchedPropertyDescription": ["NSPropertyDescription"],
        "NSComparisonPredicate": ["NSPredicate"],
        "NSCompoundPredicate": ["NSPredicate"],
        "NSTruePredicate": ["NSPredicate"],
        "NSFalsePredicate": ["NSPredicate"],
        "NSComparisonPredicateOperator": ["NSPredicateOperator"],
        "NSEqualityPredicateOperator": ["NSPredicateOperator"],
        "NSLikePredicateOperator": ["NSStringPredicateOperator", "NSPredicateOperator"],
        "NSMatchingPredicateOperator": ["NSStringPredicateOperator", "NSPredicateOperator"],
        "NSBeginsWithPredicateOperator": ["NSStringPredicateOperator", "NSPredicateOperator"],
        "NSEndsWithPredicateOperator": ["NSStringPredicateOperator", "NSPredicateOperator"],
        "NSInPredicateOperator": ["NSPredicateOperator"],
        "NSFetchRequest": ["NSPersistentStoreRequest"],
        "NSBetweenPredicateOperator": ["NSPredicateOperator"],
        "NSConstantValueExpression": ["NSExpression"],
        "NSKeyPathExpression": ["NSFunctionExpression", "NSExpression"],
        "NSKeyPathSpecifierExpression": ["NSExpression"],
        "NSFunctionExpression": ["NSExpression"],
        "NSFetchRequestExpression": ["NSExpression"],
        "NSVariableExpression": ["NSExpression"],
        "NSSelfExpression": ["NSExpression"],
        "NSAggregateExpression": ["NSExpression"],
        "NSDecimalNumber": ["NSNumber", "NSValue"],
    ]

    /// The archive as a binary property list, `root` its `$top.root`.
    package func data(root: PlistValue) -> Data {
        BinaryPropertyListWriter.data(.dictionary([
            "$archiver": .string("NSKeyedArchiver"),
            "$version": .integer(100_000),
            "$top": .dictionary(["root": root]),
            "$objects": .array(objects),
        ]))
    }
}
