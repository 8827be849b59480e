/// A class that describes its own entity from its declarations: what `@Managed` makes of a class.
///
/// ``ManagedObjectModel/init(classes:configurations:)`` builds a model from such classes, and
/// ``ManagedObjectModel/check(classes:)`` checks them against a model from a file.
public protocol EntityDescribing: ModelKeyPaths {
    /// The entity the class's stored properties describe, named ``ManagedObject/entityName``.
    static var entityDescription: EntityDescription { get }
}

/// An option of an attribute declared on a `@Managed` class: `@Attribute(.unique, .indexed)`.
public enum AttributeOption: Sendable, Hashable {
    /// The entity has a uniqueness constraint on this attribute alone.
    case unique
    /// The attribute is indexed in stores that index (SQLite).
    case indexed
    /// The attribute is kept in memory and never stored (Core Data's transient attribute).
    case transient
}

/// The property descriptions `@Managed` writes for a class's stored properties, one overload per
/// kind of Swift type, so that the compiler, not the macro, decides which types are attributes.
public enum DeclaredProperty {
    /// An attribute of `type`'s ``AttributeConvertible/attributeType``, optional when the Swift
    /// property is, with the property's initial value as its default.
    public static func attribute<T: AttributeConvertible>(
        _ name: String, _ type: T.Type, optional: Bool, defaultValue: T? = nil,
        options: [AttributeOption] = [], minValue: Double? = nil, maxValue: Double? = nil
    ) -> PropertyDescription {
        .attribute(AttributeDescription(
            name: name, type: T.attributeType, isOptional: optional, isTransient: options.contains(.transient),
            isIndexed: options.contains(.indexed), defaultValue: defaultValue?.attributeValue,
            minimum: minValue, maximum: maxValue))
    }

    /// A to-one relationship to `T`'s entity.
    public static func toOne<T: ManagedObject>(
        _ name: String, _ destination: T.Type, optional: Bool, inverse: String? = nil,
        deleteRule: DeleteRule = .nullify, transient: Bool = false
    ) -> PropertyDescription {
        Relationship(name, to: T.entityName, inverse: inverse, optional: optional, deleteRule: deleteRule,
                     transient: transient).propertyDescription
    }

    /// A to-many relationship to `T`'s entity, ordered for an array property.
    public static func toMany<T: ManagedObject>(
        _ name: String, _ destination: T.Type, ordered: Bool, inverse: String? = nil,
        deleteRule: DeleteRule = .nullify, minCount: Int = 0, maxCount: Int = 0, transient: Bool = false
    ) -> PropertyDescription {
        Relationship(name, toMany: T.entityName, inverse: inverse, ordered: ordered, minCount: minCount,
                     maxCount: maxCount, deleteRule: deleteRule, transient: transient).propertyDescription
    }
}
