import StrataCore
import StrataModelFiles

/// The Swift text of one entity's class or extension (``SwiftClassGenerator``).
struct EntityClassWriter {
    let generator: SwiftClassGenerator
    let entity: EntityDescription
    let settings: [String: EntityCodeGeneration]

    private var className: String { generator.className(of: entity) }

    /// The generated class of the parent entity, if it has one.
    private var parentClass: String? {
        guard let parent = entity.superentityName, settings[parent] == .classDefinition,
              let parentEntity = generator.model.entity(named: parent) else { return nil }
        return generator.className(of: parentEntity)
    }

    /// The Swift type of the objects of `entityName`: its generated or hand-written class, else
    /// `ManagedObject`.
    private func objectType(_ entityName: String) -> String {
        guard let destination = generator.model.entity(named: entityName) else { return "ManagedObject" }
        if settings[entityName] != nil { return generator.className(of: destination) }
        return SwiftNames.className(destination.managedObjectClassName) ?? "ManagedObject"
    }

    /// The properties the class declares: its own when it derives from its parent's class, else
    /// all.
    private var declaredProperties: [Member] {
        members(parentClass == nil ? entity.properties : entity.declaredProperties)
    }

    /// A Swift property of the class: a model property, or a composite attribute, whose
    /// elements the model lists as attributes named by their dotted paths.
    enum Member {
        case property(PropertyDescription)
        case composite(name: String, isOptional: Bool)

        var name: String {
            switch self {
            case .property(let property): property.name
            case .composite(let name, _): name
            }
        }
    }

    /// `properties` with each composite's elements folded into one member, where its first
    /// element stands.
    private func members(_ properties: [PropertyDescription]) -> [Member] {
        var members: [Member] = []
        var composites: Set<String> = []
        for property in properties {
            guard case .attribute(let attribute) = property, attribute.composite != nil,
                  let top = attribute.name.split(separator: ".").first.map(String.init) else {
                members.append(.property(property))
                continue
            }
            if composites.insert(top).inserted {
                let isOptional = entity.compositeAttribute(named: top)?.isOptional ?? true
                members.append(.composite(name: top, isOptional: isOptional))
            }
        }
        return members
    }

    // MARK: Files

    func classFile() -> String {
        let isFinal = entity.subentityNames.isEmpty
        let superclass = parentClass ?? "ManagedObject"
        let conformances = parentClass == nil ? ", ModelKeyPaths, Managed" : ""
        var lines = [GeneratedFile.header, "", "import Foundation", "import Strata", ""]
        lines.append("/// An object of the entity \(entity.name)\(entity.isAbstract ? " (abstract)" : "").")
        lines.append("public \(isFinal ? "final " : "")class \(className): \(superclass)\(conformances) {")
        lines.append("    /// The entity this class is the class of.")
        lines.append("    public override class var entityName: String { \(SwiftNames.literal(entity.name)) }")
        lines.append("")
        lines += keysEnum()
        for member in declaredProperties {
            lines += accessor(member)
        }
        lines.append("")
        lines.append("    /// The model key of each property, for sorts by key path and `#Predicate`.")
        let keyPathsKeyword = parentClass != nil ? "public override class var" : (isFinal ? "public static var" : "public class var")
        lines.append("    \(keyPathsKeyword) modelKeyPaths: [AnyKeyPath: String] {")
        let keyed = members(entity.properties).filter(isAccessible)
        if keyed.isEmpty {
            lines.append("        [:]")
        } else {
            lines.append("        [")
            for property in keyed {
                lines.append("            \\\(className).\(SwiftNames.property(property.name)): \(SwiftNames.literal(property.name)),")
            }
            lines.append("        ]")
        }
        lines.append("    }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    func extensionFile() -> String {
        var lines = [GeneratedFile.header, "", "import Foundation", "import Strata", ""]
        lines.append("// The properties of the entity \(entity.name), for the class \(className) written by hand.")
        lines.append("extension \(className) {")
        lines += keysEnum()
        for member in members(entity.properties) {
            lines += accessor(member)
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Parts

    private func keysEnum() -> [String] {
        var lines = ["    /// The entity's model keys."]
        lines.append("    public enum Keys {")
        for property in members(entity.properties) where isAccessible(property) {
            lines.append("        /// `\(property.name)`.")
            let name = SwiftNames.keywords.contains(property.name) ? "`\(property.name)`" : property.name
            lines.append("        public static let \(name) = \(SwiftNames.literal(property.name))")
        }
        lines.append("    }")
        return lines
    }

    /// Whether the member gets a Swift property (fetched properties do not).
    private func isAccessible(_ member: Member) -> Bool {
        switch member {
        case .property(.attribute(let attribute)): Self.swiftType(attribute.type) != nil
        case .property(.relationship), .composite: true
        case .property(.fetchedProperty): false
        }
    }

    private func accessor(_ member: Member) -> [String] {
        switch member {
        case .property(.attribute(let attribute)): attributeAccessor(attribute)
        case .property(.relationship(let relationship)): relationshipAccessor(relationship)
        case .property(.fetchedProperty): []
        case .composite(let name, let isOptional): compositeAccessor(name, isOptional: isOptional)
        }
    }

    /// A composite attribute: its elements as one dictionary of element name to value, nested
    /// composites as nested dictionaries.
    private func compositeAccessor(_ name: String, isOptional: Bool) -> [String] {
        let key = SwiftNames.literal(name)
        return [
            "",
            "    /// The composite attribute `\(name)`\(isOptional ? " (optional)" : ""): element name to value.",
            "    public var \(SwiftNames.property(name)): [String: Any]? {",
            "        get { self[typed: \(key), as: [String: Any].self] }",
            "        set { setTyped(newValue, forKey: \(key)) }",
            "    }",
        ]
    }

    private func attributeAccessor(_ attribute: AttributeDescription) -> [String] {
        guard let swiftType = Self.swiftType(attribute.type) else { return [] }
        let key = SwiftNames.literal(attribute.name)
        let name = SwiftNames.property(attribute.name)
        var lines = ["", "    /// The attribute `\(attribute.name)` (\(attribute.type.rawValue)\(attribute.isOptional ? ", optional" : "")\(attribute.isDerived ? ", derived" : ""))."]
        if let zero = Self.zero(attribute.type), !attribute.isOptional {
            lines.append("    public var \(name): \(swiftType) {")
            lines.append("        get { self[typed: \(key), as: \(swiftType).self] ?? \(zero) }")
        } else {
            lines.append("    public var \(name): \(swiftType)? {")
            lines.append("        get { self[typed: \(key), as: \(swiftType).self] }")
        }
        if !attribute.isDerived {
            lines.append("        set { setTyped(newValue, forKey: \(key)) }")
        }
        lines.append("    }")
        return lines
    }

    private func relationshipAccessor(_ relationship: RelationshipDescription) -> [String] {
        let key = SwiftNames.literal(relationship.name)
        let name = SwiftNames.property(relationship.name)
        let destination = objectType(relationship.destinationEntityName)
        var lines = [""]
        if !relationship.isToMany {
            lines.append("    /// The to-one `\(relationship.name)` (\(relationship.destinationEntityName)).")
            lines.append("    public var \(name): \(destination)? {")
            lines.append("        get { self[typed: \(key), as: \(destination).self] }")
            lines.append("        set { setTyped(newValue, forKey: \(key)) }")
        } else if relationship.isOrdered {
            lines.append("    /// The ordered to-many `\(relationship.name)` (\(relationship.destinationEntityName)).")
            lines.append("    public var \(name): [\(destination)] {")
            lines.append("        get { self[orderedToMany: \(key), as: \(destination).self] }")
            lines.append("        set { self[orderedToMany: \(key), as: \(destination).self] = newValue }")
        } else {
            lines.append("    /// The to-many `\(relationship.name)` (\(relationship.destinationEntityName)).")
            lines.append("    public var \(name): Set<\(destination)> {")
            lines.append("        get { self[toMany: \(key), as: \(destination).self] }")
            lines.append("        set { self[toMany: \(key), as: \(destination).self] = newValue }")
        }
        lines.append("    }")
        return lines
    }

    /// The Swift type of an attribute type's values; nil for a type with no values.
    static func swiftType(_ type: AttributeType) -> String? {
        switch type {
        case .integer16: "Int16"
        case .integer32: "Int32"
        case .integer64: "Int64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Bool"
        case .date: "Date"
        case .binaryData: "Data"
        case .uuid: "UUID"
        case .uri: "URL"
        case .transformable: "Any"
        case .objectID: "ManagedObjectID"
        }
    }

    /// What a plain (non-optional) number or Boolean reads as when the object holds nil.
    static func zero(_ type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float: "0"
        case .boolean: "false"
        default: nil
        }
    }
}
