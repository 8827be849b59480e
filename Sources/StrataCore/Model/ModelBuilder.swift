import Foundation

/// Builds the property list of an ``EntityDescription``:
///
/// ```swift
/// EntityDescription("Employee") {
///     .attribute("name", .string, optional: false)
///     .relationship("whereIWork", to: "Employer", inverse: "employees")
///     .toMany("reports", to: "Employee", inverse: "manager", ordered: true)
/// }
/// ```
@resultBuilder
public enum PropertiesBuilder {
    /// One property.
    public static func buildExpression(_ property: PropertyDescription) -> [PropertyDescription] { [property] }
    /// Several properties.
    public static func buildExpression(_ properties: [PropertyDescription]) -> [PropertyDescription] { properties }
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

extension PropertyDescription {
    /// An attribute, for the builder DSL.
    public static func attribute(
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
        renamingIdentifier: String? = nil
    ) -> PropertyDescription {
        .attribute(AttributeDescription(
            name: name, type: type, isOptional: optional, isTransient: transient, isIndexed: indexed,
            defaultValue: defaultValue, minimum: minimum, maximum: maximum,
            regularExpression: regularExpression, valueTransformerName: valueTransformerName,
            renamingIdentifier: renamingIdentifier
        ))
    }

    /// A to-one relationship, for the builder DSL.
    public static func relationship(
        _ name: String,
        to destination: String,
        inverse: String? = nil,
        optional: Bool = true,
        deleteRule: DeleteRule = .nullify,
        renamingIdentifier: String? = nil
    ) -> PropertyDescription {
        .relationship(RelationshipDescription(
            name: name, destination: destination, inverse: inverse, toMany: false,
            minCount: optional ? 0 : 1, maxCount: 1, deleteRule: deleteRule, isOptional: optional,
            renamingIdentifier: renamingIdentifier
        ))
    }

    /// A to-many relationship, for the builder DSL.
    public static func toMany(
        _ name: String,
        to destination: String,
        inverse: String? = nil,
        ordered: Bool = false,
        minCount: Int = 0,
        maxCount: Int = 0,
        deleteRule: DeleteRule = .nullify,
        renamingIdentifier: String? = nil
    ) -> PropertyDescription {
        .relationship(RelationshipDescription(
            name: name, destination: destination, inverse: inverse, toMany: true, isOrdered: ordered,
            minCount: minCount, maxCount: maxCount == 1 ? 0 : maxCount, deleteRule: deleteRule,
            isOptional: minCount == 0, renamingIdentifier: renamingIdentifier
        ))
    }

    /// A fetched property, for the builder DSL.
    public static func fetched(_ name: String, of destination: String, predicate: String? = nil) -> PropertyDescription {
        .fetchedProperty(FetchedPropertyDescription(name: name, destination: destination, predicateFormat: predicate))
    }
}
