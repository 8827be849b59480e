/// Why a class does not fit the model it is checked against
/// (``ManagedObjectModel/check(classes:)``). Every case names the class, the entity and, where
/// there is one, the property.
public enum ModelClassMismatch: Error, Equatable, Sendable, CustomStringConvertible {
    /// The model has no entity of the class's ``ManagedObject/entityName``.
    case missingEntity(class: String, entity: String)
    /// The class declares a property its entity does not have.
    case missingProperty(class: String, property: String, entity: String)
    /// The class declares an attribute where the entity has a relationship, or the reverse.
    case wrongKind(class: String, property: String, entity: String, expected: String, found: String)
    /// The attribute's type in the model is not the class property's.
    case wrongType(class: String, property: String, entity: String, expected: AttributeType, found: AttributeType)
    /// The property is optional in one and not in the other.
    case optionality(class: String, property: String, entity: String, modelOptional: Bool)
    /// The relationship leads to another entity.
    case wrongDestination(class: String, property: String, entity: String, expected: String, found: String)
    /// To-one, unordered to-many and ordered to-many do not agree.
    case toManyKind(class: String, property: String, entity: String, expected: String, found: String)

    /// The mismatch in words.
    public var description: String {
        switch self {
        case let .missingEntity(type, entity):
            "class \(type): the model has no entity '\(entity)'"
        case let .missingProperty(type, property, entity):
            "class \(type), property '\(property)': entity '\(entity)' has no such property"
        case let .wrongKind(type, property, entity, expected, found):
            "class \(type), property '\(property)': entity '\(entity)' has \(expected), the class \(found)"
        case let .wrongType(type, property, entity, expected, found):
            "class \(type), property '\(property)': entity '\(entity)' stores \(expected.rawValue), the class \(found.rawValue)"
        case let .optionality(type, property, entity, modelOptional):
            "class \(type), property '\(property)': entity '\(entity)' has it \(modelOptional ? "optional" : "non-optional"), "
                + "the class \(modelOptional ? "non-optional" : "optional")"
        case let .wrongDestination(type, property, entity, expected, found):
            "class \(type), property '\(property)': entity '\(entity)' leads to '\(expected)', the class to '\(found)'"
        case let .toManyKind(type, property, entity, expected, found):
            "class \(type), property '\(property)': entity '\(entity)' has a \(expected), the class a \(found)"
        }
    }
}
