import StrataCore

/// The shape of a model: its entities with their parents and the names of the attributes and
/// relationships each declares.
///
/// A mapping model carries a copy of each of its two models, in Xcode's own editing form;
/// ``MappingModel/sourceModelOutline`` and ``MappingModel/destinationModelOutline`` are read
/// from those copies. Comparing them with the outline of a model version tells which versions
/// a mapping model was made for, whatever paths Xcode recorded:
///
/// ```swift
/// let bundle = try ModelBundle(at: URL(filePath: "Moody.xcdatamodeld"))
/// let source = bundle.versions.first { ModelOutline($0.value) == mapping.sourceModelOutline }?.key
/// ```
public struct ModelOutline: Sendable, Hashable {
    /// One entity of the outline.
    public struct Entity: Sendable, Hashable {
        /// The parent entity's name.
        public var parentName: String?
        /// Whether the entity is abstract.
        public var isAbstract: Bool
        /// The attributes the entity declares (not those it inherits), sorted.
        public var attributeNames: [String]
        /// The relationships the entity declares (not those it inherits), sorted.
        public var relationshipNames: [String]

        /// Creates an entity outline; the names are sorted.
        public init(parentName: String? = nil, isAbstract: Bool = false, attributeNames: [String] = [], relationshipNames: [String] = []) {
            self.parentName = parentName
            self.isAbstract = isAbstract
            self.attributeNames = attributeNames.sorted()
            self.relationshipNames = relationshipNames.sorted()
        }
    }

    /// The entities by name.
    public var entities: [String: Entity]

    /// Creates an outline.
    public init(entities: [String: Entity]) {
        self.entities = entities
    }

    /// The outline of a model (its fetched properties are left out, as Xcode's copy has them
    /// apart).
    public init(_ model: ManagedObjectModel) {
        var entities: [String: Entity] = [:]
        for entity in model.entities {
            var attributes: [String] = []
            var relationships: [String] = []
            for property in entity.declaredProperties {
                switch property {
                case .attribute(let attribute): attributes.append(attribute.name)
                case .relationship(let relationship): relationships.append(relationship.name)
                case .fetchedProperty: break
                }
            }
            entities[entity.name] = Entity(parentName: entity.superentityName, isAbstract: entity.isAbstract,
                                           attributeNames: attributes, relationshipNames: relationships)
        }
        self.entities = entities
    }
}
