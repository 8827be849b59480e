import Foundation

/// A constant in a predicate, and the normalised form of any value a predicate compares.
///
/// Objects become their IDs, every integer width becomes `integer`, `Float` becomes `double`.
public enum PredicateValue: Sendable, Hashable {
    /// nil / NULL.
    case null
    /// A Boolean (compares as 0 or 1 against numbers).
    case bool(Bool)
    /// An integer.
    case integer(Int64)
    /// A floating-point number.
    case double(Double)
    /// A decimal number.
    case decimal(Decimal)
    /// A string.
    case string(String)
    /// A date.
    case date(Date)
    /// Bytes.
    case data(Data)
    /// A UUID.
    case uuid(UUID)
    /// A URL.
    case url(URL)
    /// An object, by ID.
    case objectID(ManagedObjectID)
    /// A collection.
    case array([PredicateValue])

    /// Normalises any Swift value; values of unknown types become their description string.
    public init(_ value: Any?) {
        guard let value = value.flatMap(unwrappedOptional) else { self = .null; return }
        switch value {
        case let v as PredicateValue: self = v
        case let v as Bool: self = .bool(v)
        case let v as Int: self = .integer(Int64(v))
        case let v as Int8: self = .integer(Int64(v))
        case let v as Int16: self = .integer(Int64(v))
        case let v as Int32: self = .integer(Int64(v))
        case let v as Int64: self = .integer(v)
        case let v as UInt8: self = .integer(Int64(v))
        case let v as UInt16: self = .integer(Int64(v))
        case let v as UInt32: self = .integer(Int64(v))
        case let v as UInt: self = Int64(exactly: v).map { .integer($0) } ?? .double(Double(v))
        case let v as UInt64: self = Int64(exactly: v).map { .integer($0) } ?? .double(Double(v))
        case let v as Double: self = .double(v)
        case let v as Float: self = .double(Double(v))
        case let v as Decimal: self = .decimal(v)
        case let v as String: self = .string(v)
        case let v as Substring: self = .string(String(v))
        case let v as Date: self = .date(v)
        case let v as Data: self = .data(v)
        case let v as UUID: self = .uuid(v)
        case let v as URL: self = .url(v)
        case let v as ManagedObjectID: self = .objectID(v)
        case let v as ManagedObject: self = .objectID(v.objectID)
        case let v as AttributeValue: self = PredicateValue(v.untypedSwiftValue)
        default:
            if let elements = KeyPathEvaluator.elements(of: value) {
                self = .array(elements.map { PredicateValue($0) })
            } else if let node = value as? any IdentifiedKeyValue {
                self = .objectID(node.objectID)
            } else {
                self = .string(String(describing: value))
            }
        }
    }

    /// The number inside as a `Double`, if this is a number or a Boolean.
    public var doubleValue: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .double(let v): v
        case .decimal(let v): NSDecimalNumber(decimal: v).doubleValue
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }

    /// The natural Swift value.
    public var swiftValue: Any? {
        switch self {
        case .null: nil
        case .bool(let v): v
        case .integer(let v): v
        case .double(let v): v
        case .decimal(let v): v
        case .string(let v): v
        case .date(let v): v
        case .data(let v): v
        case .uuid(let v): v
        case .url(let v): v
        case .objectID(let v): v
        case .array(let v): v.map(\.swiftValue)
        }
    }
}

/// A key-value value that stands for a stored object (a snapshot seen through its store).
public protocol IdentifiedKeyValue: KeyValueCoding {
    /// The object's ID.
    var objectID: ManagedObjectID { get }
}
