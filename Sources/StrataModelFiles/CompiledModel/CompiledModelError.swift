/// Why a compiled model (the `Z_MODELCACHE` content of an Apple-written SQLite store, or an
/// archived `NSManagedObjectModel`) could not be read.
public enum CompiledModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The compressed bytes do not inflate: truncated, damaged, or too large once inflated.
    case damagedCompression(reason: String)
    /// The inflated bytes are no `NSKeyedArchiver` binary property list.
    case invalidArchive(reason: String)
    /// An archived object is not what a compiled model holds there (wrong class, a missing or
    /// mistyped key, a reference to nothing); `object` names it, such as `entity Book` or
    /// `attribute Book.title`.
    case invalidObject(object: String, reason: String)
    /// The archive reads, but the model it describes is inconsistent (an unknown destination or
    /// inverse, an inheritance cycle…).
    case invalidModel(reason: String)

    /// One line naming what is wrong.
    public var description: String {
        switch self {
        case .damagedCompression(let reason): "the compiled model is damaged: \(reason)"
        case .invalidArchive(let reason): "the compiled model is not a readable keyed archive: \(reason)"
        case let .invalidObject(object, reason): "the compiled model's \(object) cannot be read: \(reason)"
        case .invalidModel(let reason): "the compiled model describes an invalid model: \(reason)"
        }
    }
}
