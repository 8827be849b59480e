import Foundation
@_spi(StoreImplementation) import StrataCore

/// The in-memory evaluator asked about single values: what a comparison gives for two given
/// values, with exactly the semantics of every other store (`ObjectPredicate.evaluate`).
///
/// The translator asks it what a comparison gives for nil, NaN or −0.0, and checks its fast SQL
/// forms against it on probe values; the SQL functions registered on the connection ask it for
/// every row they see. Nothing here re-implements a comparison.
enum PredicateOracle {
    /// `left OPERATOR[options] right` for two constants, or nil when evaluating it throws (an
    /// invalid regular expression).
    static func test(_ left: PredicateValue, _ operation: ObjectPredicate.Operator, _ right: PredicateValue,
                     options: StringComparisonOptions = []) -> Bool? {
        let comparison = ObjectPredicate.Comparison(.constant(left), operation, .constant(right), options: options)
        return try? ObjectPredicate.comparison(comparison).evaluate(with: nil)
    }

    /// The value a snapshot view gives for a stored attribute value (integers narrowed to the
    /// attribute's width, as `AttributeValue.swiftValue(for:entity:)` does).
    static func predicateValue(_ value: AttributeValue?, type: AttributeType) -> PredicateValue {
        guard let value else { return .null }
        guard let description = descriptions[type], let swift = try? value.swiftValue(for: description, entity: "") else {
            return PredicateValue(value.untypedSwiftValue)
        }
        return PredicateValue(swift)
    }

    private static let descriptions: [AttributeType: AttributeDescription] = Dictionary(
        uniqueKeysWithValues: SQLValueType.attributeTypes.map { ($0, AttributeDescription(name: "value", type: $0)) })

    /// A constant as an attribute value of some type, so that it can be bound and decoded back
    /// by ``SQLValueType``; nil for collections.
    static func attributeValue(of constant: PredicateValue) -> (AttributeType, AttributeValue?)? {
        switch constant {
        case .null: return (.string, nil)
        case .bool(let v): return (.boolean, .boolean(v))
        case .integer(let v): return (.integer64, .integer(v))
        case .double(let v): return (.double, .double(v))
        case .decimal(let v): return (.decimal, .decimal(v))
        case .string(let v): return (.string, .string(v))
        case .date(let v): return (.date, .date(v))
        case .data(let v): return (.binaryData, .binary(v))
        case .uuid(let v): return (.uuid, .uuid(v))
        case .url(let v): return (.uri, .uri(v))
        case .objectID(let v): return (.objectID, .objectID(v))
        case .array: return nil
        }
    }

    /// Whether two constants are the same value, bit for bit where bits matter (NaN is NaN).
    static func identical(_ a: PredicateValue, _ b: PredicateValue) -> Bool {
        switch (a, b) {
        case let (.double(x), .double(y)): return x.bitPattern == y.bitPattern
        case let (.date(x), .date(y)):
            return x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        case let (.string(x), .string(y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case let (.decimal(x), .decimal(y)): return x == y && x.description == y.description
        case let (.url(x), .url(y)): return x.absoluteString == y.absoluteString
        default: return a == b
        }
    }
}

/// The type of a value an SQL function receives: an attribute type (the column's, or the
/// type a constant was encoded as), passed to the function as its index in
/// ``attributeTypes``. A function decodes the value exactly as the row reader does.
enum SQLValueType {
    /// Every attribute type, in a fixed order: the codes SQL functions take.
    static let attributeTypes: [AttributeType] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date,
        .binaryData, .uuid, .uri, .transformable, .objectID,
    ]

    /// The code of `type`.
    static func code(_ type: AttributeType) -> Int64 {
        Int64(attributeTypes.firstIndex(of: type) ?? 0)
    }

    /// The type of `code`, or nil for a code that is none.
    static func type(_ code: Int64) -> AttributeType? {
        code >= 0 && code < attributeTypes.count ? attributeTypes[Int(code)] : nil
    }

    /// The predicate value of a column or parameter value of type `type`, as a snapshot view
    /// reads it.
    static func decode(_ value: SQLiteValue, as type: AttributeType) throws(SQLiteDecodingProblem) -> PredicateValue {
        PredicateOracle.predicateValue(try SQLiteValueCoding.decode(value, as: type), type: type)
    }

    /// A constant as a type code and a value to bind, when it decodes back to exactly itself.
    static func encode(_ constant: PredicateValue) -> (code: Int64, value: SQLiteValue)? {
        guard let (type, attribute) = PredicateOracle.attributeValue(of: constant) else { return nil }
        let encoded = SQLiteValueCoding.encode(attribute)
        guard let back = try? decode(encoded, as: type), PredicateOracle.identical(back, constant) else { return nil }
        return (code(type), encoded)
    }
}
