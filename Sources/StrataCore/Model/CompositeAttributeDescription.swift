/// A composite attribute (Core Data's `NSCompositeAttributeDescription`, type code 2100): a named
/// group of attributes, possibly nested, read and written as one dictionary of element name to
/// value.
///
/// An entity stores a composite as its elements: each element is an ordinary attribute of the
/// entity named by its dotted path (`magnitude.richter`, `address.geo.latitude`), so that stores
/// keep one value (one SQLite column) per element and predicates and sort descriptors use the
/// path as a key path. ``ManagedObject/value(forKey:)`` with the composite's own name answers the
/// dictionary. Add one to an entity with the property builder like any other attribute.
public struct CompositeAttributeDescription: Sendable, Hashable {
    /// The composite's name, unique among the entity's properties.
    public var name: String
    /// The elements, in model order.
    public var elements: [Element]
    /// Whether the whole composite may be nil when the object is saved. A non-optional composite
    /// requires its non-optional elements.
    public var isOptional: Bool
    /// The composite's name in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// A string that changes the version hash without changing the schema.
    public var versionHashModifier: String?
    /// Free-form user info.
    public var userInfo: [String: String]
    /// The name of the model-level definition (Xcode's `<composite name>`) the attribute uses;
    /// nil to use the attribute's own name.
    public var definitionName: String?

    /// One element of a composite: an attribute, or a nested composite.
    public enum Element: Sendable, Hashable {
        /// An attribute of any stored type but `ObjectID` and externally stored binary data.
        case attribute(AttributeDescription)
        /// A composite inside the composite.
        case composite(CompositeAttributeDescription)

        /// The element's name within its composite.
        public var name: String {
            switch self {
            case .attribute(let attribute): attribute.name
            case .composite(let composite): composite.name
            }
        }
    }

    /// Creates a composite attribute description.
    public init(
        name: String,
        isOptional: Bool = true,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        userInfo: [String: String] = [:],
        definitionName: String? = nil,
        elements: [Element]
    ) {
        self.definitionName = definitionName
        self.name = name
        self.elements = elements
        self.isOptional = isOptional
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
    }

    /// Creates a composite whose elements are all attributes.
    public init(name: String, isOptional: Bool = true, attributes: [AttributeDescription]) {
        self.init(name: name, isOptional: isOptional, elements: attributes.map { .attribute($0) })
    }

    /// The element named `name`, if any.
    public func element(named name: String) -> Element? {
        elements.first { $0.name == name }
    }

    /// The entity attributes that store this composite: one per attribute element, nested ones
    /// included, each named by its dotted path from the composite and carrying the composite in
    /// ``AttributeDescription/composite``. An element is optional when it or any composite around
    /// it is.
    public var storedAttributes: [AttributeDescription] {
        flattened(prefix: name, optional: isOptional).map { attribute in
            var attribute = attribute
            attribute.composite = self
            return attribute
        }
    }

    /// The dotted paths of this composite and of every composite nested in it.
    var compositePaths: [String] {
        [name] + elements.flatMap { element -> [String] in
            guard case .composite(let nested) = element else { return [] }
            return nested.compositePaths.map { "\(name).\($0)" }
        }
    }

    private func flattened(prefix: String, optional: Bool) -> [AttributeDescription] {
        elements.flatMap { element -> [AttributeDescription] in
            switch element {
            case .attribute(let attribute):
                var stored = attribute
                stored.name = "\(prefix).\(attribute.name)"
                stored.isOptional = attribute.isOptional || optional
                stored.isTransient = false
                return [stored]
            case .composite(let nested):
                return nested.flattened(prefix: "\(prefix).\(nested.name)", optional: optional || nested.isOptional)
            }
        }
    }
}
