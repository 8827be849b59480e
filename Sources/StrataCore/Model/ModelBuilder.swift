import Foundation

/// Builds the property list of an ``EntityDescription``:
///
/// ```swift
/// EntityDescription("Employee") {
///     Attribute("name", .string, optional: false)
///     Relationship("whereIWork", to: "Employer", inverse: "employees")
///     Relationship("reports", toMany: "Employee", inverse: "manager", ordered: true)
/// }
/// ```
@resultBuilder
public enum PropertiesBuilder {
    /// One property.
    public static func buildExpression(_ property: PropertyDescription) -> [PropertyDescription] { [property] }
    /// One property written with the DSL's `Attribute`, `Relationship` or `FetchedProperty`.
    public static func buildExpression(_ property: some PropertyConvertible) -> [PropertyDescription] { [property.propertyDescription] }
    /// Several properties.
    public static func buildExpression(_ properties: [PropertyDescription]) -> [PropertyDescription] { properties }
    /// A composite attribute, as the attributes that store its elements.
    public static func buildExpression(_ composite: CompositeAttributeDescription) -> [PropertyDescription] {
        composite.storedAttributes.map { .attribute($0) }
    }
    /// A composite attribute written with the DSL's `Composite`.
    public static func buildExpression(_ composite: Composite) -> [PropertyDescription] {
        buildExpression(composite.description)
    }
    /// A block of properties.
    public static func buildBlock(_ parts: [PropertyDescription]...) -> [PropertyDescription] { parts.flatMap { $0 } }
    /// An `if` without `else`.
    public static func buildOptional(_ part: [PropertyDescription]?) -> [PropertyDescription] { part ?? [] }
    /// The first branch of an `if`/`else`.
    public static func buildEither(first: [PropertyDescription]) -> [PropertyDescription] { first }
    /// The second branch of an `if`/`else`.
    public static func buildEither(second: [PropertyDescription]) -> [PropertyDescription] { second }
    /// A `for` loop.
    public static func buildArray(_ parts: [[PropertyDescription]]) -> [PropertyDescription] { parts.flatMap { $0 } }
}

/// Builds the entity list of a ``ManagedObjectModel``.
@resultBuilder
public enum EntitiesBuilder {
    /// One entity.
    public static func buildExpression(_ entity: EntityDescription) -> [EntityDescription] { [entity] }
    /// A block of entities.
    public static func buildBlock(_ parts: [EntityDescription]...) -> [EntityDescription] { parts.flatMap { $0 } }
    /// An `if` without `else`.
    public static func buildOptional(_ part: [EntityDescription]?) -> [EntityDescription] { part ?? [] }
    /// The first branch of an `if`/`else`.
    public static func buildEither(first: [EntityDescription]) -> [EntityDescription] { first }
    /// The second branch of an `if`/`else`.
    public static func buildEither(second: [EntityDescription]) -> [EntityDescription] { second }
    /// A `for` loop.
    public static func buildArray(_ parts: [[EntityDescription]]) -> [EntityDescription] { parts.flatMap { $0 } }
}

/// A DSL element that stands for one property.
public protocol PropertyConvertible {
    /// The property it describes.
    var propertyDescription: PropertyDescription { get }
}

/// An attribute, for the builder DSL: `Attribute("age", .integer16, minimum: 0)`.
public struct Attribute: PropertyConvertible {
    /// The attribute described.
    public var description: AttributeDescription
    /// The attribute as a property.
    public var propertyDescription: PropertyDescription { .attribute(description) }

    /// Describes an attribute; see ``AttributeDescription`` for each option.
    public init(
        _ name: String,
        _ type: AttributeType,
        optional: Bool = true,
        transient: Bool = false,
        indexed: Bool = false,
        defaultValue: AttributeValue? = nil,
        minimum: Double? = nil,
        maximum: Double? = nil,
        regularExpression: String? = nil,
        valueTransformerName: String? = nil,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        userInfo: [String: String] = [:]
    ) {
        description = AttributeDescription(
            name: name, type: type, isOptional: optional, isTransient: transient, isIndexed: indexed,
            defaultValue: defaultValue, minimum: minimum, maximum: maximum,
            regularExpression: regularExpression, valueTransformerName: valueTransformerName,
            userInfo: userInfo, renamingIdentifier: renamingIdentifier, versionHashModifier: versionHashModifier)
    }
}

/// A relationship, for the builder DSL:
/// `Relationship("country", to: "Country", inverse: "moods")` for a to-one,
/// `Relationship("moods", toMany: "Mood", inverse: "country", deleteRule: .cascade)` for a to-many.
public struct Relationship: PropertyConvertible {
    /// The relationship described.
    public var description: RelationshipDescription
    /// The relationship as a property.
    public var propertyDescription: PropertyDescription { .relationship(description) }

    /// Describes a to-one relationship.
    public init(
        _ name: String,
        to destination: String,
        inverse: String? = nil,
        optional: Bool = true,
        deleteRule: DeleteRule = .nullify,
        transient: Bool = false,
        renamingIdentifier: String? = nil,
        userInfo: [String: String] = [:]
    ) {
        description = RelationshipDescription(
            name: name, destination: destination, inverse: inverse, toMany: false,
            minCount: optional ? 0 : 1, maxCount: 1, deleteRule: deleteRule, isOptional: optional,
            isTransient: transient, userInfo: userInfo, renamingIdentifier: renamingIdentifier)
    }

    /// Describes a to-many relationship (`maxCount` 0: unbounded).
    public init(
        _ name: String,
        toMany destination: String,
        inverse: String? = nil,
        ordered: Bool = false,
        minCount: Int = 0,
        maxCount: Int = 0,
        deleteRule: DeleteRule = .nullify,
        transient: Bool = false,
        renamingIdentifier: String? = nil,
        userInfo: [String: String] = [:]
    ) {
        description = RelationshipDescription(
            name: name, destination: destination, inverse: inverse, toMany: true, isOrdered: ordered,
            minCount: minCount, maxCount: maxCount == 1 ? 0 : maxCount, deleteRule: deleteRule,
            isOptional: minCount == 0, isTransient: transient, userInfo: userInfo,
            renamingIdentifier: renamingIdentifier)
    }
}

/// A fetched property, for the builder DSL:
/// `FetchedProperty("recentMoods", of: "Mood", predicate: "country == $FETCH_SOURCE")`.
public struct FetchedProperty: PropertyConvertible {
    /// The fetched property described.
    public var description: FetchedPropertyDescription
    /// The fetched property as a property.
    public var propertyDescription: PropertyDescription { .fetchedProperty(description) }

    /// Describes a fetched property.
    public init(_ name: String, of destination: String, predicate: String? = nil) {
        description = FetchedPropertyDescription(name: name, destination: destination, predicateFormat: predicate)
    }
}
