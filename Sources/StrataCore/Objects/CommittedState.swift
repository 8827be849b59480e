/// An object's last saved state, as far as the object keeps it apart from its current state:
/// the row's version and, once they differ from the current ones, the attribute values as saved.
/// The rest of the saved state (the to-one destinations as saved once they change, the to-manys
/// known as saved) is kept in the object's ``RelationshipState``; the ID is the object's own.
///
/// The object does not hold this value: it keeps the version in place and the saved values in
/// its ``RelationshipState`` (``ManagedObject/committed`` puts them together), so that a loaded,
/// unchanged object has no room for saved values it does not have.
struct CommittedState {
    /// The optimistic-locking version of the row as read.
    var version: Int64
    /// The attribute values as saved, unless they are the object's current values (nil): a
    /// loaded object shares one storage of its values until the first change, which writes them
    /// down here first (``ManagedObject/keepCommittedAttributes()``). Read them through
    /// ``attributes(current:)``.
    var savedAttributes: AttributeValues?

    /// The attribute values as saved, for an object whose current attribute values are `current`.
    func attributes(current: AttributeValues) -> AttributeValues {
        savedAttributes ?? current
    }
}

/// Whether an object has a last saved state (``ManagedObject/committed``), and if so whether its
/// saved to-ones are its current to-one destinations: one byte for what were two flags.
enum CommittedKind: UInt8 {
    /// No saved state: an inserted object, or a fault.
    case none
    /// A saved state whose to-ones are the object's current destinations.
    case toOnesCurrent
    /// A saved state whose to-ones are kept apart (``RelationshipState/savedToOne``).
    case toOnesSaved
}
