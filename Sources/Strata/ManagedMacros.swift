// The `@Managed` macro and its property markers; their implementation is the `StrataMacros`
// compiler plug-in. See docs/typed-models.md.

/// Makes a `ManagedObject` subclass's stored `var`s typed properties over the object's storage.
///
/// ```swift
/// @Managed final class Mood: ManagedObject {
///     var date: Date
///     @Attribute(.indexed, minValue: 0, maxValue: 5) var rating: Int16 = 0
///     @Relationship(inverse: "moods") var country: Country?
///     var tags: Set<Tag>
/// }
/// ```
///
/// Each stored instance `var` reads and writes the object's value with its Swift type (change
/// tracking and inverse upkeep as `setValue(_:forKey:)`): optional where the type is optional,
/// a `Set` for an unordered to-many and an array for an ordered one. The class gets
/// `entityName` (the class name, or `entity`), `entityDescription` (the entity its properties
/// describe, for ``ManagedObjectModel/init(classes:configurations:)``) and `modelKeyPaths`.
/// `let`, `static`, computed and `@Transient` properties are left alone.
///
/// Typed properties follow one error rule: nil means only "no value"; every other failure stops
/// the program with a message naming entity, key, type expected and what was found.
@attached(member, names: named(entityName), named(entityDescription), named(modelKeyPaths))
@attached(memberAttribute)
@attached(extension, conformances: EntityDescribing)
public macro Managed(entity: String? = nil) = #externalMacro(module: "StrataMacros", type: "ManagedMacro")

/// The accessors `@Managed` gives each stored property; not written by hand.
@attached(accessor, names: named(init), named(get), named(set))
public macro _ManagedProperty() = #externalMacro(module: "StrataMacros", type: "ManagedPropertyMacro")

/// Options of an attribute of a `@Managed` class: `@Attribute(.unique, .indexed, minValue: 0)`.
/// Optional-ness comes from the Swift type, the default from the initial value.
@attached(peer)
public macro Attribute(_ options: AttributeOption..., minValue: Double? = nil, maxValue: Double? = nil)
    = #externalMacro(module: "StrataMacros", type: "PropertyOptionsMacro")

/// Options of a relationship of a `@Managed` class:
/// `@Relationship(inverse: "moods", deleteRule: .cascade, minCount: 1)`. The inverse is the name
/// of the destination's relationship (a string: a key path to a class whose own `@Relationship`
/// names this class back is a circular reference for the compiler); the model checks it when it
/// is built. The counts apply to a to-many.
@attached(peer)
public macro Relationship(inverse: String? = nil, deleteRule: DeleteRule = .nullify, minCount: Int = 0, maxCount: Int = 0)
    = #externalMacro(module: "StrataMacros", type: "PropertyOptionsMacro")

/// Leaves a stored property of a `@Managed` class out of the model: a plain Swift property,
/// never stored (unlike ``AttributeOption/transient``, a model attribute kept in memory).
@attached(peer)
public macro Transient() = #externalMacro(module: "StrataMacros", type: "PropertyOptionsMacro")
