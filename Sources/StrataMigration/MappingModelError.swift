import StrataCore

/// Why a mapping model could not be read or resolved. Every case names the file (the
/// `xcmapping.xml`), and the object or entity mapping at fault where there is one.
public enum MappingModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bundle or file does not exist or cannot be read.
    case unreadable(file: String, reason: String)
    /// The file is not a Core Data XML store of Xcode's mapping model (malformed XML, an
    /// unknown entity or property, a value of the wrong type, a dangling `idrefs`…); the store
    /// error names the line.
    case unreadableStore(file: String, StoreError)
    /// The store reads, but is not a mapping model document (no `XDDevMappingModel`, or more
    /// than one).
    case invalidDocument(file: String, reason: String)
    /// One object of the document holds a value that cannot be used: an archived expression or
    /// user info that is not a keyed archive of the expected classes, a key path that does not
    /// parse. `object` names the entity and the object's `id` in the file (`XDDevAttributeMapping z104`).
    case invalidObject(file: String, object: String, reason: String)
    /// Resolving the mapping model against its two models failed: an entity mapping names an
    /// entity the model does not hold, a property mapping a property the entity does not have.
    /// `file` is the mapping model's file, or `nil` for a mapping model made in code.
    case mismatch(file: String?, entityMapping: String, reason: String)

    /// The file the error is about, when there is one.
    public var file: String? {
        switch self {
        case .unreadable(let file, _), .unreadableStore(let file, _), .invalidDocument(let file, _),
            .invalidObject(let file, _, _):
            file
        case .mismatch(let file, _, _):
            file
        }
    }

    /// One line that says what failed and where.
    public var description: String {
        switch self {
        case let .unreadable(file, reason): "\(file): cannot read the mapping model: \(reason)"
        case let .unreadableStore(_, error): "\(error)"
        case let .invalidDocument(file, reason): "\(file): not a mapping model: \(reason)"
        case let .invalidObject(file, object, reason): "\(file): \(object): \(reason)"
        case let .mismatch(file, entityMapping, reason):
            "\(file.map { "\($0): " } ?? "")entity mapping \(entityMapping): \(reason)"
        }
    }
}
