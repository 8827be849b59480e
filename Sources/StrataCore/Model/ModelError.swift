/// Why a model was rejected. Every case names the entity and, where there is one, the property.
public enum ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An entity or property has an empty name.
    case emptyName(entity: String)
    /// Two entities share a name.
    case duplicateEntity(String)
    /// A property name appears twice in one entity or clashes with an inherited one.
    case duplicateProperty(entity: String, property: String)
    /// An entity names a parent that is not in the model.
    case unknownParent(entity: String, parent: String)
    /// Entities inherit from each other in a circle.
    case cyclicInheritance(entities: [String])
    /// A relationship or fetched property names a destination entity that is not in the model.
    case unknownDestination(entity: String, property: String, destination: String)
    /// A relationship names an inverse that the destination does not have.
    case unknownInverse(entity: String, relationship: String, inverse: String)
    /// A relationship's inverse does not lead back to it.
    case inverseMismatch(entity: String, relationship: String, inverse: String)
    /// A default value is not of its attribute's type.
    case invalidDefaultValue(entity: String, attribute: String)
    /// A uniqueness constraint or index names a property the entity does not have.
    case unknownConstraintProperty(entity: String, property: String)
    /// A configuration lists an entity that is not in the model.
    case unknownConfigurationEntity(configuration: String, entity: String)
    /// A relationship's counts are negative or the minimum exceeds the maximum.
    case invalidCount(entity: String, relationship: String)
    /// A derived attribute's derivation expression is one Strata cannot compute.
    case unsupportedDerivation(entity: String, attribute: String, expression: String, reason: DerivationProblem)
    /// An element of a composite attribute has a type or option composites do not allow
    /// (`ObjectID`, externally stored binary data, a derivation).
    case invalidCompositeElement(entity: String, attribute: String, element: String, reason: String)

    /// One line that says what is wrong and where.
    public var description: String {
        switch self {
        case .emptyName(let entity):
            "entity '\(entity)': a name is empty"
        case .duplicateEntity(let name):
            "entity '\(name)' is defined more than once"
        case let .duplicateProperty(entity, property):
            "entity '\(entity)': property '\(property)' is defined more than once (or clashes with an inherited one)"
        case let .unknownParent(entity, parent):
            "entity '\(entity)': parent entity '\(parent)' is not in the model"
        case .cyclicInheritance(let entities):
            "entities \(entities.map { "'\($0)'" }.joined(separator: " → ")) inherit from each other in a cycle"
        case let .unknownDestination(entity, property, destination):
            "entity '\(entity)', property '\(property)': destination entity '\(destination)' is not in the model"
        case let .unknownInverse(entity, relationship, inverse):
            "entity '\(entity)', relationship '\(relationship)': inverse '\(inverse)' is not a relationship of the destination"
        case let .inverseMismatch(entity, relationship, inverse):
            "entity '\(entity)', relationship '\(relationship)': inverse '\(inverse)' does not lead back to it"
        case let .invalidDefaultValue(entity, attribute):
            "entity '\(entity)', attribute '\(attribute)': default value does not match the attribute type"
        case let .unknownConstraintProperty(entity, property):
            "entity '\(entity)': constraint or index names unknown property '\(property)'"
        case let .unknownConfigurationEntity(configuration, entity):
            "configuration '\(configuration)': entity '\(entity)' is not in the model"
        case let .invalidCount(entity, relationship):
            "entity '\(entity)', relationship '\(relationship)': invalid minimum or maximum count"
        case let .unsupportedDerivation(entity, attribute, expression, reason):
            "entity '\(entity)', attribute '\(attribute)': derivation '\(expression)' cannot be computed: \(reason)"
        case let .invalidCompositeElement(entity, attribute, element, reason):
            "entity '\(entity)', composite attribute '\(attribute)', element '\(element)': \(reason)"
        }
    }
}
