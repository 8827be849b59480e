/// Why an operation on objects, keys or IDs failed. Every case names the entity and key or the ID.
public enum ObjectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The entity has no property with that name.
    case unknownKey(entity: String, key: String)
    /// The model has no entity with that name.
    case unknownEntity(String)
    /// A value is not of the attribute's or relationship's type.
    case wrongValueType(entity: String, key: String, expected: AttributeType?, found: String)
    /// A number does not fit the attribute's width.
    case valueOutOfRange(entity: String, key: String, value: String)
    /// A key path is malformed or walks through something that has no keys.
    case invalidKeyPath(keyPath: String, reason: String)
    /// No store holds an object with this ID.
    case objectNotFound(ManagedObjectID)
    /// The object was deleted and can no longer be used.
    case objectDeleted(ManagedObjectID)
    /// An object from one context was used in another.
    case wrongContext(ManagedObjectID)
    /// An abstract entity cannot have instances of its own.
    case abstractEntity(String)
    /// A transformable attribute names a transformer nobody registered.
    case unknownValueTransformer(entity: String, key: String, name: String)
    /// A transformer refused a value.
    case transformationFailed(entity: String, key: String, reason: String)
    /// A notification given to merge carries no ``ContextChanges`` (it is not a Strata context's
    /// did-save notification).
    case missingContextChanges(notification: String)

    /// A composite attribute's dictionary names an element the composite does not have.
    case unknownCompositeElement(entity: String, attribute: String, element: String)

    /// A composite attribute was given something other than a dictionary of element values.
    case wrongCompositeValue(entity: String, attribute: String, found: String)

    /// One line that says what is wrong and where.
    public var description: String {
        switch self {
        case let .unknownKey(entity, key): "entity '\(entity)' has no property '\(key)'"
        case .unknownEntity(let name): "the model has no entity '\(name)'"
        case let .wrongValueType(entity, key, expected, found):
            "entity '\(entity)', key '\(key)': expected \(expected.map { "a \($0.rawValue) value" } ?? "a managed object"), found \(found)"
        case let .valueOutOfRange(entity, key, value): "entity '\(entity)', key '\(key)': \(value) does not fit the attribute type"
        case let .invalidKeyPath(keyPath, reason): "key path '\(keyPath)': \(reason)"
        case .objectNotFound(let id): "no object with ID \(id)"
        case .objectDeleted(let id): "object \(id) was deleted"
        case .wrongContext(let id): "object \(id) belongs to another context"
        case .abstractEntity(let name): "entity '\(name)' is abstract and cannot be instantiated"
        case let .unknownValueTransformer(entity, key, name): "entity '\(entity)', key '\(key)': no value transformer named '\(name)'"
        case let .transformationFailed(entity, key, reason): "entity '\(entity)', key '\(key)': \(reason)"
        case let .unknownCompositeElement(entity, attribute, element):
            "entity '\(entity)', composite attribute '\(attribute)' has no element '\(element)'"
        case let .wrongCompositeValue(entity, attribute, found):
            "entity '\(entity)', composite attribute '\(attribute)': expected a [String: Any] dictionary, found \(found)"
        case .missingContextChanges(let name): "notification '\(name)' carries no context changes to merge"
        }
    }
}
