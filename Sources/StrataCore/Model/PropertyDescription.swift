/// A property of an entity: an attribute, a relationship or a fetched property.
public enum PropertyDescription: Sendable, Hashable {
    /// A stored or transient value.
    case attribute(AttributeDescription)
    /// A link to other objects.
    case relationship(RelationshipDescription)
    /// A lazily evaluated fetch.
    case fetchedProperty(FetchedPropertyDescription)

    /// The property's name.
    public var name: String {
        switch self {
        case .attribute(let a): a.name
        case .relationship(let r): r.name
        case .fetchedProperty(let f): f.name
        }
    }

    /// Whether the property lives only in memory (fetched properties always do).
    public var isTransient: Bool {
        switch self {
        case .attribute(let a): a.isTransient
        case .relationship(let r): r.isTransient
        case .fetchedProperty: true
        }
    }

    /// The attribute, if this is one.
    public var attribute: AttributeDescription? {
        if case .attribute(let a) = self { return a }
        return nil
    }

    /// The relationship, if this is one.
    public var relationship: RelationshipDescription? {
        if case .relationship(let r) = self { return r }
        return nil
    }

    /// The fetched property, if this is one.
    public var fetchedProperty: FetchedPropertyDescription? {
        if case .fetchedProperty(let f) = self { return f }
        return nil
    }

    /// The property's renaming identifier, if any.
    public var renamingIdentifier: String? {
        switch self {
        case .attribute(let a): a.renamingIdentifier
        case .relationship(let r): r.renamingIdentifier
        case .fetchedProperty(let f): f.renamingIdentifier
        }
    }
}
