/// What an entity mapping does (Core Data's `NSEntityMappingType`, same raw values).
public enum EntityMappingType: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Not stated. Xcode saves every entity mapping so (`mappingTypeName` `Undefined`) and
    /// leaves the type to be worked out from the two models: see
    /// ``MappingModel/resolved(source:destination:)``.
    case undefined = 0
    /// A custom mapping, carried out by the entity migration policy.
    case custom = 1
    /// The entity is new in the destination model: there is no source entity.
    case add = 2
    /// The entity is not in the destination model: its objects are not carried over.
    case remove = 3
    /// Source objects are carried over as they are (the two entities hash the same).
    case copy = 4
    /// The entity exists in both models and its objects are transformed.
    case transform = 5

    /// The name Xcode writes in `mappingTypeName` (`Undefined`, `Custom`, `Add`, `Remove`,
    /// `Copy`, `Transform`).
    public var xcodeName: String {
        switch self {
        case .undefined: "Undefined"
        case .custom: "Custom"
        case .add: "Add"
        case .remove: "Remove"
        case .copy: "Copy"
        case .transform: "Transform"
        }
    }

    /// ``xcodeName``.
    public var description: String { xcodeName }

    /// The type Xcode's `mappingTypeName` names, ignoring case, with or without Core Data's
    /// `NS…EntityMappingType` spelling; `nil` for any other text.
    public init?(xcodeName: String) {
        var name = xcodeName.trimmingCharacters(in: .whitespaces).lowercased()
        if name.hasPrefix("ns") && name.hasSuffix("entitymappingtype") {
            name = String(name.dropFirst(2).dropLast("entitymappingtype".count))
        }
        guard let type = Self.allCases.first(where: { $0.xcodeName.lowercased() == name }) else { return nil }
        self = type
    }
}
