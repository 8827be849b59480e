/// Why `strata codegen` cannot write classes for a model.
public enum CodegenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Two entities would be written as classes of the same name.
    case duplicateClassName(className: String, entities: [String])
    /// A class name that is not a Swift identifier.
    case invalidClassName(entity: String, className: String)

    /// One line saying what and where.
    public var description: String {
        switch self {
        case .duplicateClassName(let className, let entities):
            "entities \(entities.joined(separator: ", ")) would all be written as class \(className): give them distinct class names in the model"
        case .invalidClassName(let entity, let className):
            "entity \(entity): class name '\(className)' is not a Swift identifier"
        }
    }
}
