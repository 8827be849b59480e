import Foundation

/// A Swift type that the values of one attribute type are read as and written from without
/// going through `Any`: the types ``ManagedObject/value(forKey:)`` hands out for attributes.
///
/// Typed reads and writes (`ManagedObject/value(forKey:as:)`, `ManagedObject/setValue(_:forKey:)`
/// with a typed value, and the typed properties of subclasses) give the same results and errors
/// as the untyped ones: a value of an attribute of ``attributeType`` converts directly, any other
/// takes the untyped path. They skip boxing the value and casting it back.
///
/// Strata's own conformances below are the ones that take the direct path; a type conformed
/// elsewhere is read and written through the untyped path, whatever it says of itself.
public protocol AttributeConvertible: Sendable {
    /// The attribute type whose values are of this Swift type.
    static var attributeType: AttributeType { get }
    /// The value inside `value`, when it is of this type's case; nil otherwise.
    init?(attributeValue value: AttributeValue)
    /// This value in its stored form, for an attribute of ``attributeType``.
    var attributeValue: AttributeValue { get }
}

extension AttributeType {
    /// The Swift type whose own conformance converts values of this type directly; nil for a
    /// transformable attribute.
    @inlinable
    var convertibleType: (any AttributeConvertible.Type)? {
        switch self {
        case .integer16: Int16.self
        case .integer32: Int32.self
        case .integer64: Int64.self
        case .decimal: Decimal.self
        case .double: Double.self
        case .float: Float.self
        case .string: String.self
        case .boolean: Bool.self
        case .date: Date.self
        case .binaryData: Data.self
        case .uuid: UUID.self
        case .uri: URL.self
        case .objectID: ManagedObjectID.self
        case .transformable: nil
        }
    }
}

extension AttributeConvertible {
    /// Whether this is the type Strata converts its ``attributeType``'s values to and from.
    @inlinable
    static var convertsDirectly: Bool { attributeType.convertibleType.map { $0 == Self.self } ?? false }
}

extension Int16: AttributeConvertible {
    /// `Integer 16`.
    @inlinable public static var attributeType: AttributeType { .integer16 }
    /// The value of `.integer`.
    public init?(attributeValue value: AttributeValue) {
        guard case .integer(let v) = value else { return nil }
        self = Int16(truncatingIfNeeded: v)
    }
    /// `.integer` of this value.
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
}

extension Int32: AttributeConvertible {
    /// `Integer 32`.
    @inlinable public static var attributeType: AttributeType { .integer32 }
    /// The value of `.integer`.
    public init?(attributeValue value: AttributeValue) {
        guard case .integer(let v) = value else { return nil }
        self = Int32(truncatingIfNeeded: v)
    }
    /// `.integer` of this value.
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
}

extension Int64: AttributeConvertible {
    /// `Integer 64`.
    @inlinable public static var attributeType: AttributeType { .integer64 }
    /// The value of `.integer`.
    public init?(attributeValue value: AttributeValue) {
        guard case .integer(let v) = value else { return nil }
        self = v
    }
    /// `.integer` of this value.
    public var attributeValue: AttributeValue { .integer(self) }
}

extension Decimal: AttributeConvertible {
    /// `Decimal`.
    @inlinable public static var attributeType: AttributeType { .decimal }
    /// The value of `.decimal`.
    public init?(attributeValue value: AttributeValue) {
        guard case .decimal(let v) = value else { return nil }
        self = v
    }
    /// `.decimal` of this value.
    public var attributeValue: AttributeValue { .decimal(self) }
}

extension Double: AttributeConvertible {
    /// `Double`.
    @inlinable public static var attributeType: AttributeType { .double }
    /// The value of `.double`.
    public init?(attributeValue value: AttributeValue) {
        guard case .double(let v) = value else { return nil }
        self = v
    }
    /// `.double` of this value.
    public var attributeValue: AttributeValue { .double(self) }
}

extension Float: AttributeConvertible {
    /// `Float`.
    @inlinable public static var attributeType: AttributeType { .float }
    /// The value of `.float`.
    public init?(attributeValue value: AttributeValue) {
        guard case .float(let v) = value else { return nil }
        self = v
    }
    /// `.float` of this value.
    public var attributeValue: AttributeValue { .float(self) }
}

extension String: AttributeConvertible {
    /// `String`.
    @inlinable public static var attributeType: AttributeType { .string }
    /// The value of `.string`.
    public init?(attributeValue value: AttributeValue) {
        guard case .string(let v) = value else { return nil }
        self = v
    }
    /// `.string` of this value.
    public var attributeValue: AttributeValue { .string(self) }
}

extension Bool: AttributeConvertible {
    /// `Boolean`.
    @inlinable public static var attributeType: AttributeType { .boolean }
    /// The value of `.boolean`.
    public init?(attributeValue value: AttributeValue) {
        guard case .boolean(let v) = value else { return nil }
        self = v
    }
    /// `.boolean` of this value.
    public var attributeValue: AttributeValue { .boolean(self) }
}

extension Date: AttributeConvertible {
    /// `Date`.
    @inlinable public static var attributeType: AttributeType { .date }
    /// The value of `.date`.
    public init?(attributeValue value: AttributeValue) {
        guard case .date(let v) = value else { return nil }
        self = v
    }
    /// `.date` of this value.
    public var attributeValue: AttributeValue { .date(self) }
}

extension Data: AttributeConvertible {
    /// `Binary Data`.
    @inlinable public static var attributeType: AttributeType { .binaryData }
    /// The value of `.binary`.
    public init?(attributeValue value: AttributeValue) {
        guard case .binary(let v) = value else { return nil }
        self = v
    }
    /// `.binary` of this value.
    public var attributeValue: AttributeValue { .binary(self) }
}

extension UUID: AttributeConvertible {
    /// `UUID`.
    @inlinable public static var attributeType: AttributeType { .uuid }
    /// The value of `.uuid`.
    public init?(attributeValue value: AttributeValue) {
        guard case .uuid(let v) = value else { return nil }
        self = v
    }
    /// `.uuid` of this value.
    public var attributeValue: AttributeValue { .uuid(self) }
}

extension URL: AttributeConvertible {
    /// `URI`.
    @inlinable public static var attributeType: AttributeType { .uri }
    /// The value of `.uri`.
    public init?(attributeValue value: AttributeValue) {
        guard case .uri(let v) = value else { return nil }
        self = v
    }
    /// `.uri` of this value.
    public var attributeValue: AttributeValue { .uri(self) }
}

extension ManagedObjectID: AttributeConvertible {
    /// `Object ID`.
    @inlinable public static var attributeType: AttributeType { .objectID }
    /// The value of `.objectID`.
    public init?(attributeValue value: AttributeValue) {
        guard case .objectID(let v) = value else { return nil }
        self = v
    }
    /// `.objectID` of this value.
    public var attributeValue: AttributeValue { .objectID(self) }
}
