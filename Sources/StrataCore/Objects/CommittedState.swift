/// The part of an object's last saved state that every loaded object has: the row's version and,
/// once they differ from the current ones, the attribute values as saved. The rest of the saved
/// state (the to-one destinations as saved once they change, the to-manys known as saved) is rare
/// and kept in the object's ``RelationshipState``; the ID is the object's own.
///
/// Sixteen bytes, nil included: the object is a size class smaller than with the whole snapshot's
/// parts in it.
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
