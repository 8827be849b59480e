import OrderedCollections

/// The state that most objects never need, kept out of the object until first used: the
/// to-manys loaded as objects or known by ID, the to-one destinations of an object that has more
/// than its first or needs the rest,
/// the to-one and to-many destinations as last saved where they are not the current ones, and
/// the attribute values as last saved once they differ from the current ones.
///
/// An object fetched and read holds none of it (its one to-one is in the object, its to-ones are
/// its saved to-ones, its values its saved values, and its to-manys fault on first use), and so
/// is a reference smaller per map: a fetch of many objects touches less memory for them. An
/// object that changes makes it on its first change, to keep its saved values.
final class RelationshipState {
    // Two of the maps skip run-time exclusivity checks: they are used on the context's queue only,
    // and never while another access to the same one is open.

    /// The destinations of the to-manys loaded as objects.
    // Unchecked: read and written for every inverse kept as a to-one is set or an object deleted.
    @exclusivity(unchecked) var toManyValues: NameMap<OrderedSet<ManagedObject>> = NameMap()
    /// The destinations of to-manys known by ID and not loaded as objects yet.
    // Unchecked: read with ``toManyValues`` for every to-many use.
    @exclusivity(unchecked) var unresolvedToMany: NameMap<[ManagedObjectID]> = NameMap()
    /// The to-one destinations as saved, unless the object's saved to-ones are its current ones
    /// (``ManagedObject/committedToOneIsCurrent``).
    var savedToOne: NameMap<ManagedObjectID> = NameMap()
    /// The to-many destinations known as saved.
    var savedToMany: [String: [ManagedObjectID]] = [:]
    /// The destinations of the object's to-ones: all of them, once the object has this state
    /// (before, its one to-one is ``ManagedObject/firstToOne``).
    // Unchecked: read for every to-one read of an object that has this state.
    @exclusivity(unchecked) var toOnes: NameMap<ManagedObject> = NameMap()
    /// The attribute values as saved, once they differ from the current ones
    /// (``CommittedState/savedAttributes``).
    // Unchecked: read for every attribute set (``ManagedObject/keepCommittedAttributes()``).
    @exclusivity(unchecked) var savedAttributes: AttributeValues?
    /// The object's ``ManagedObject/committedVersion`` when it does not fit the object's four
    /// bytes for it (negative, or `UInt32.max` and above).
    var largeVersion: Int64 = 0
    // Six references and a version: 72 bytes, in the same 80-byte glibc block as the six alone.
}
