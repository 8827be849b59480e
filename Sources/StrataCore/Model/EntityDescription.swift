import Foundation

/// An entity: a named kind of object with attributes, relationships and fetched properties,
/// optionally inheriting from a parent entity.
///
/// Describe an entity with its own (declared) properties; a ``ManagedObjectModel`` resolves
/// inheritance, checks the whole graph and fills in the resolved parts (inherited properties,
/// sub-entities, version hash).
public struct EntityDescription: Sendable, Hashable {
    /// The entity's name, unique in the model.
    public var name: String
    /// The name of the parent entity, if any.
    public var superentityName: String?
    /// Whether objects of exactly this entity cannot be created (only of its sub-entities).
    public var isAbstract: Bool
    /// The properties declared on this entity (inherited ones are in ``properties``).
    public var declaredProperties: [PropertyDescription]
    /// The name of the ``ManagedObject`` subclass instances get, for generated code.
    public var managedObjectClassName: String?
    /// Free-form user info.
    public var userInfo: [String: String]
    /// The entity's name in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// A string that changes the version hash without changing the schema.
    public var versionHashModifier: String?
    /// Groups of property names whose values must be unique together among stored objects.
    public var uniquenessConstraints: [[String]]
    /// Indexes stores should build.
    public var indexes: [FetchIndexDescription]

    /// Every property, inherited ones first (filled in by the model).
    public internal(set) var properties: [PropertyDescription] = []
    /// Every property by name, inherited included (filled in by the model).
    public internal(set) var propertiesByName: [String: PropertyDescription] = [:]
    /// Names of the direct sub-entities (filled in by the model).
    public internal(set) var subentityNames: [String] = []
    /// The top of this entity's inheritance chain; primary keys are numbered per root.
    public internal(set) var rootEntityName: String = ""
    /// Core Data's 32-byte version hash of this entity (filled in by the model).
    public internal(set) var versionHash: Data = Data()

    /// Creates an entity description from its declared properties.
    public init(
        _ name: String,
        parent: String? = nil,
        isAbstract: Bool = false,
        managedObjectClassName: String? = nil,
        userInfo: [String: String] = [:],
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        uniquenessConstraints: [[String]] = [],
        indexes: [FetchIndexDescription] = [],
        @PropertiesBuilder properties: () -> [PropertyDescription] = { [] }
    ) {
        self.name = name
        self.superentityName = parent
        self.isAbstract = isAbstract
        self.declaredProperties = properties()
        self.managedObjectClassName = managedObjectClassName
        self.userInfo = userInfo
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.uniquenessConstraints = uniquenessConstraints
        self.indexes = indexes
    }

    /// Every attribute by name, inherited included.
    public var attributesByName: [String: AttributeDescription] {
        propertiesByName.compactMapValues(\.attribute)
    }

    /// Every relationship by name, inherited included.
    public var relationshipsByName: [String: RelationshipDescription] {
        propertiesByName.compactMapValues(\.relationship)
    }

    /// Every fetched property by name, inherited included.
    public var fetchedPropertiesByName: [String: FetchedPropertyDescription] {
        propertiesByName.compactMapValues(\.fetchedProperty)
    }

    /// Every attribute in declaration order, inherited first.
    public var attributes: [AttributeDescription] { properties.compactMap(\.attribute) }

    /// Every relationship in declaration order, inherited first.
    public var relationships: [RelationshipDescription] { properties.compactMap(\.relationship) }

    /// The attribute called `name`, inherited included.
    public func attribute(named name: String) -> AttributeDescription? {
        propertiesByName[name]?.attribute
    }

    /// The relationship called `name`, inherited included.
    public func relationship(named name: String) -> RelationshipDescription? {
        propertiesByName[name]?.relationship
    }
}

/// An index over one or more properties of an entity.
public struct FetchIndexDescription: Sendable, Hashable {
    /// The index's name.
    public var name: String
    /// The indexed properties in order, each ascending or not.
    public var elements: [Element]

    /// One property of an index.
    public struct Element: Sendable, Hashable {
        /// The property's name.
        public var property: String
        /// Whether the index sorts ascending.
        public var ascending: Bool

        /// Creates an index element.
        public init(property: String, ascending: Bool = true) {
            self.property = property
            self.ascending = ascending
        }
    }

    /// Creates an index description.
    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}
