/// One property's model rules in the form a save checks them, worked out once per entity: the
/// few values validation reads for every object, without copying the property's description
/// (its name, user info, default value, …) for each of them.
struct PropertyRule: Sendable, Hashable {
    /// What kind of property the rules are of.
    enum Kind: Sendable, Hashable {
        /// An attribute of `type`; `slot` is its position in the entity's attribute layout, or
        /// −1 when its value is read by name (transformable attributes).
        case attribute(slot: Int, type: AttributeType)
        /// A to-one: only whether it is set is checked.
        case toOne
        /// A to-many, whose count is checked.
        case toMany
    }

    /// The property's name.
    let name: String
    /// What kind of property it is.
    let kind: Kind
    /// Whether the property may be nil (an attribute, a to-one) or empty (a to-many).
    let isOptional: Bool
    /// An attribute's smallest value or length.
    let minimum: Double?
    /// An attribute's largest value or length.
    let maximum: Double?
    /// The pattern a string attribute's whole value matches.
    let regularExpression: String?

    /// Whether the rules are of a Binary Data attribute, whose minimum and maximum are lengths.
    var isBinaryData: Bool {
        if case .attribute(_, .binaryData) = kind { true } else { false }
    }

    /// The rules of an attribute at `slot` of its entity's layout (−1: read by name).
    init(_ attribute: AttributeDescription, slot: Int) {
        name = attribute.name
        kind = .attribute(slot: slot, type: attribute.type)
        isOptional = attribute.isOptional
        minimum = attribute.minimum
        maximum = attribute.maximum
        regularExpression = attribute.regularExpression
    }

    /// The rules of a relationship: a to-many's counts are read from its description.
    init(_ relationship: RelationshipDescription) {
        name = relationship.name
        kind = relationship.isToMany ? .toMany : .toOne
        isOptional = relationship.isOptional
        minimum = nil
        maximum = nil
        regularExpression = nil
    }
}
