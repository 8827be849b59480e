import Foundation

/// An entity: a named kind of object with attributes, relationships and fetched properties,
/// optionally inheriting from a parent entity.
///
/// Describe an entity with its own (declared) properties; a ``ManagedObjectModel`` resolves
/// inheritance, checks the whole graph and fills in the resolved parts (inherited properties,
/// sub-entities, version hash).
public struct EntityDescription: Sendable, Hashable {
    /// The entity's name, unique in the model.
    public var name: String {
        get { storage.fields.name }
        set { storage.update { $0.name = newValue } }
    }
    /// The name of the parent entity, if any.
    public var superentityName: String? {
        get { storage.fields.superentityName }
        set { storage.update { $0.superentityName = newValue } }
    }
    /// Whether objects of exactly this entity cannot be created (only of its sub-entities).
    public var isAbstract: Bool {
        get { storage.fields.isAbstract }
        set { storage.update { $0.isAbstract = newValue } }
    }
    /// The properties declared on this entity (inherited ones are in ``properties``).
    public var declaredProperties: [PropertyDescription] {
        get { storage.fields.declaredProperties }
        set { storage.update { $0.declaredProperties = newValue } }
    }
    /// The name of the ``ManagedObject`` subclass instances get, for generated code.
    public var managedObjectClassName: String? {
        get { storage.fields.managedObjectClassName }
        set { storage.update { $0.managedObjectClassName = newValue } }
    }
    /// Free-form user info.
    public var userInfo: [String: String] {
        get { storage.fields.userInfo }
        set { storage.update { $0.userInfo = newValue } }
    }
    /// The entity's name in an earlier model version, for migration.
    public var renamingIdentifier: String? {
        get { storage.fields.renamingIdentifier }
        set { storage.update { $0.renamingIdentifier = newValue } }
    }
    /// A string that changes the version hash without changing the schema.
    public var versionHashModifier: String? {
        get { storage.fields.versionHashModifier }
        set { storage.update { $0.versionHashModifier = newValue } }
    }
    /// Groups of property names whose values must be unique together among stored objects.
    public var uniquenessConstraints: [[String]] {
        get { storage.fields.uniquenessConstraints }
        set { storage.update { $0.uniquenessConstraints = newValue } }
    }
    /// Indexes stores should build.
    public var indexes: [FetchIndexDescription] {
        get { storage.fields.indexes }
        set { storage.update { $0.indexes = newValue } }
    }

    /// Every property, inherited ones first (filled in by the model).
    public internal(set) var properties: [PropertyDescription] {
        get { storage.fields.properties }
        set { storage.update { $0.properties = newValue } }
    }
    /// Every property by name, inherited included (filled in by the model).
    public internal(set) var propertiesByName: [String: PropertyDescription] {
        get { storage.fields.propertiesByName }
        set { storage.update { $0.propertiesByName = newValue } }
    }
    /// Names of the direct sub-entities (filled in by the model).
    public internal(set) var subentityNames: [String] {
        get { storage.fields.subentityNames }
        set { storage.update { $0.subentityNames = newValue } }
    }
    /// The top of this entity's inheritance chain; primary keys are numbered per root.
    public internal(set) var rootEntityName: String {
        get { storage.fields.rootEntityName }
        set { storage.update { $0.rootEntityName = newValue } }
    }
    /// Core Data's 32-byte version hash of this entity (filled in by the model).
    public internal(set) var versionHash: Data {
        get { storage.fields.versionHash }
        set { storage.update { $0.versionHash = newValue } }
    }

    /// Every attribute in declaration order, inherited first (kept with ``properties``).
    public var attributes: [AttributeDescription] { storage.fields.attributes }

    /// Every relationship in declaration order, inherited first (kept with ``properties``).
    public var relationships: [RelationshipDescription] { storage.fields.relationships }

    /// The rules of the properties the model gives one, in their order, as validation reads
    /// them: non-optional attributes and to-ones, attributes with a minimum, maximum or pattern,
    /// to-manys with a minimum or maximum count.
    var propertyRules: [PropertyRule] { storage.fields.propertyRules }

    /// Whether some attribute is transient (kept in memory only).
    var hasTransientAttributes: Bool { storage.fields.hasTransientAttributes }

    /// Whether some relationship's delete rule is `deny`: the one rule that can fail a delete.
    var hasDenyRule: Bool { storage.fields.hasDenyRule }

    /// The default values of the attributes that have one, in ``attributeLayout``: what an
    /// inserted object starts with.
    var defaultAttributeValues: AttributeValues { storage.fields.defaultAttributeValues }

    /// Where each attribute's value sits in the ``AttributeValues`` of the entity's objects and
    /// snapshots: every attribute, inherited first, in order.
    @_spi(StoreImplementation) public var attributeLayout: AttributeLayout { storage.fields.attributeLayout }

    /// The type of the attribute at each position of ``attributeLayout``.
    var attributeTypesByPosition: [AttributeType] { storage.fields.attributeTypesByPosition }

    /// The names of the to-one relationships that are stored (not transient), in order: what a
    /// snapshot of an object is made of, without copying the relationships' descriptions.
    var storedToOneNames: [String] { storage.fields.storedToOneNames }

    /// The names of the to-many relationships that are stored (not transient), in order.
    var storedToManyNames: [String] { storage.fields.storedToManyNames }

    /// Each stored to-many with no destinations: the to-manys of a new object that has loaded
    /// none, one map shared by the snapshots of every such object (copied only if changed).
    var emptyStoredToMany: [String: [ManagedObjectID]] { storage.fields.emptyStoredToMany }

    /// The names of the to-one relationships (stored and transient), in order, each once: an
    /// object keeps its first to-one destination by its position here
    /// (``ManagedObject/firstToOnePosition``).
    var toOneNames: [String] { storage.fields.toOneNames }

    /// The position of the to-one `name` in ``toOneNames``; nil when no to-one has that name.
    @inline(__always)
    func toOnePosition(of name: String) -> Int? {
        switch storage.fields.toOneWords.lookUp(NameBits(name)) {
        case .found(let position): position
        case .notAName: nil
        case .unknown: storage.fields.toOneNames.firstIndex(of: name)
        }
    }

    /// Whether `name` is the name of the to-one at `position` of ``toOneNames``, which must be
    /// one of its positions: at once for the very string of the model's name.
    @inline(__always)
    func namesToOne(_ name: String, at position: Int) -> Bool {
        let names = storage.fields.toOneNames
        return NameBits.same(names[position], name) || toOnePosition(of: name) == position
    }

    /// Whether `name` is the name of a to-one relationship, by the words of the string: true or
    /// false for the very strings of the entity's properties, nil for any other string.
    @inline(__always)
    func namesToOne(_ name: String) -> Bool? {
        switch storage.fields.toOneWords.lookUp(NameBits(name)) {
        case .found: true
        case .notAName: false
        case .unknown: nil
        }
    }

    /// The inverse of each relationship that has one, by the relationship's name: the
    /// destination entity's relationship (filled in by the model).
    var inverseRelationships: NameMap<RelationshipDescription> {
        get { storage.fields.inverseRelationships }
        set { storage.update { $0.inverseRelationships = newValue } }
    }

    /// The name of the stored to-one, the inverse of the unordered to-many `name`, whose
    /// destinations' rows can carry that to-many; nil for any other to-many.
    func inverseToOneHolding(_ name: String) -> String? {
        guard let relationship = relationship(named: name), relationship.isToMany, !relationship.isOrdered, !relationship.isTransient,
              let inverse = inverseRelationships[name], !inverse.isToMany, !inverse.isTransient else { return nil }
        return inverse.name
    }

    /// The description's values, shared by every copy: an object or a model holding an entity
    /// holds one reference, and the property lists are made once, when the properties are set.
    private var storage: SharedFields<Fields>

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
        storage = SharedFields(Fields(
            name: name, superentityName: parent, isAbstract: isAbstract, declaredProperties: properties(),
            managedObjectClassName: managedObjectClassName, userInfo: userInfo,
            renamingIdentifier: renamingIdentifier, versionHashModifier: versionHashModifier,
            uniquenessConstraints: uniquenessConstraints, indexes: indexes))
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

    /// The attribute called `name`, inherited included.
    public func attribute(named name: String) -> AttributeDescription? {
        propertiesByName[name]?.attribute
    }

    /// The relationship called `name`, inherited included (found by comparing names: setting a
    /// relationship asks for it every time).
    public func relationship(named name: String) -> RelationshipDescription? {
        storage.fields.relationshipMap[name]
    }
}

extension EntityDescription {
    /// The composite attributes, inherited ones included, in model order. Their elements are among
    /// ``attributes``, each named by its dotted path (see ``CompositeAttributeDescription``).
    public var compositeAttributes: [CompositeAttributeDescription] { storage.fields.compositeAttributes }

    /// The composite attribute named `name`, if any.
    public func compositeAttribute(named name: String) -> CompositeAttributeDescription? {
        guard storage.fields.compositePaths.contains(name) else { return nil }
        return storage.fields.compositeAttributes.first { $0.name == name }
    }

    /// Whether `path` names a composite attribute or a composite nested in one (`address`,
    /// `address.geo`).
    public func isCompositePath(_ path: String) -> Bool {
        storage.fields.compositePaths.contains(path)
    }

    /// When the key path `components` starts with a composite attribute, the name of the element
    /// attribute it reaches (`magnitude.richter`) and how many components that takes; nil when it
    /// does not start with a composite or stops at one.
    public func compositeElement<S: StringProtocol>(startingKeyPath components: ArraySlice<S>) -> (name: String, count: Int)? {
        guard let first = components.first, storage.fields.compositePaths.contains(String(first)) else { return nil }
        var name = String(first)
        var count = 1
        for component in components.dropFirst() {
            name += "." + component
            count += 1
            if storage.fields.compositePaths.contains(name) { continue }
            return attributesByName[name] == nil ? nil : (name, count)
        }
        return nil
    }

    /// The components of a key path starting at this entity, with each composite element path
    /// (`magnitude`, `richter`) joined into the name of its element attribute
    /// (`magnitude.richter`), following to-one and to-many relationships through `model`.
    public func joiningCompositePaths(_ components: [String], model: ManagedObjectModel) -> [String] {
        var result: [String] = []
        var entity: EntityDescription? = self
        var index = 0
        while index < components.count {
            if let current = entity, let element = current.compositeElement(startingKeyPath: components[index...]) {
                result.append(element.name)
                index += element.count
                entity = nil
                continue
            }
            let part = components[index]
            result.append(part)
            entity = entity?.relationship(named: part).flatMap { model.entity(named: $0.destinationEntityName) }
            index += 1
        }
        return result
    }

    /// The value of the composite path `path` (a composite or a nested one) as a dictionary of
    /// element name to value, built from `element`, which answers the value of an element
    /// attribute by its full dotted name; nil when every element is nil.
    func compositeDictionary(_ path: String, element: (AttributeDescription) throws -> Any?) rethrows -> [String: Any]? {
        var dictionary: [String: Any] = [:]
        let prefix = path + "."
        for attribute in attributes where attribute.composite != nil && attribute.name.hasPrefix(prefix) {
            let rest = attribute.name.dropFirst(prefix.count)
            let key = String(rest.prefix { $0 != "." })
            if rest.count == key.count {
                if let value = try element(attribute) { dictionary[key] = value }
            } else if dictionary[key] == nil, let nested = try compositeDictionary(prefix + key, element: element) {
                dictionary[key] = nested
            }
        }
        return dictionary.isEmpty ? nil : dictionary
    }

    /// The values of a description, with the lists made from ``properties``.
    fileprivate struct Fields: Sendable, Hashable {
        var name: String
        var superentityName: String?
        var isAbstract: Bool
        var declaredProperties: [PropertyDescription]
        var managedObjectClassName: String?
        var userInfo: [String: String]
        var renamingIdentifier: String?
        var versionHashModifier: String?
        var uniquenessConstraints: [[String]]
        var indexes: [FetchIndexDescription]
        var properties: [PropertyDescription] = [] {
            didSet { makeLists() }
        }
        var propertiesByName: [String: PropertyDescription] = [:]
        var subentityNames: [String] = []
        var rootEntityName: String = ""
        var versionHash = Data()
        var inverseRelationships: NameMap<RelationshipDescription> = [:]
        private(set) var attributes: [AttributeDescription] = []
        private(set) var relationships: [RelationshipDescription] = []
        private(set) var propertyRules: [PropertyRule] = []
        private(set) var hasTransientAttributes = false
        private(set) var hasDenyRule = false
        private(set) var defaultAttributeValues = AttributeValues()
        private(set) var attributeLayout = AttributeLayout.empty
        private(set) var attributeTypesByPosition: [AttributeType] = []
        private(set) var relationshipMap: NameMap<RelationshipDescription> = [:]
        private(set) var storedToOneNames: [String] = []
        private(set) var storedToManyNames: [String] = []
        private(set) var emptyStoredToMany: [String: [ManagedObjectID]] = [:]
        private(set) var toOneNames: [String] = []
        private(set) var toOneWords = NameWordTable([])
        private(set) var compositeAttributes: [CompositeAttributeDescription] = []
        private(set) var compositePaths: Set<String> = []

        private mutating func makeLists() {
            attributes = properties.compactMap(\.attribute)
            relationships = properties.compactMap(\.relationship)
            compositeAttributes = []
            for attribute in attributes {
                guard let composite = attribute.composite,
                      !compositeAttributes.contains(where: { $0.name == composite.name }) else { continue }
                compositeAttributes.append(composite)
            }
            compositePaths = Set(compositeAttributes.flatMap(\.compositePaths))
            hasTransientAttributes = attributes.contains(where: \.isTransient)
            hasDenyRule = relationships.contains { $0.deleteRule == .deny }
            attributeLayout = AttributeLayout(names: attributes.map(\.name),
                                              otherNames: properties.filter { $0.attribute == nil }.map(\.name),
                                              narrowNames: Set(attributes.filter(\.type.fitsNarrowSlot).map(\.name)))
            defaultAttributeValues = AttributeValues(layout: attributeLayout)
            for attribute in attributes { if let value = attribute.defaultValue { defaultAttributeValues[attribute.name] = value } }
            relationshipMap = [:]
            for relationship in relationships where relationshipMap[relationship.name] == nil {
                relationshipMap[relationship.name] = relationship
            }
            storedToOneNames = relationships.filter { !$0.isTransient && !$0.isToMany }.map(\.name)
            storedToManyNames = relationships.filter { !$0.isTransient && $0.isToMany }.map(\.name)
            emptyStoredToMany = Dictionary(storedToManyNames.map { ($0, []) }, uniquingKeysWith: { first, _ in first })
            toOneNames = []
            var toOnePositions: [String: Int] = [:]
            for relationship in relationships where !relationship.isToMany && toOnePositions[relationship.name] == nil {
                toOnePositions[relationship.name] = toOneNames.count
                toOneNames.append(relationship.name)
            }
            toOneWords = NameWordTable(properties.map { property in
                (property.name, property.relationship.flatMap { $0.isToMany ? nil : toOnePositions[$0.name] })
            })
            let types = Dictionary(attributes.map { ($0.name, $0.type) }, uniquingKeysWith: { _, last in last })
            attributeTypesByPosition = attributeLayout.names.compactMap { types[$0] }
            let propertiesWithRules = properties.filter { property in
                switch property {
                case .attribute(let attribute):
                    !attribute.isOptional || attribute.minimum != nil || attribute.maximum != nil
                        || attribute.regularExpression != nil
                case .relationship(let relationship):
                    relationship.isToMany ? relationship.minCount > 0 || relationship.maxCount > 0 : !relationship.isOptional
                case .fetchedProperty:
                    false
                }
            }
            propertyRules = propertiesWithRules.compactMap { [attributeLayout] property in
                switch property {
                case .attribute(let attribute):
                    let slot = attribute.type == .transformable ? nil : attributeLayout.position(of: attribute.name)
                    return PropertyRule(attribute, slot: slot ?? -1)
                case .relationship(let relationship):
                    return PropertyRule(relationship)
                case .fetchedProperty:
                    return nil
                }
            }
        }
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
