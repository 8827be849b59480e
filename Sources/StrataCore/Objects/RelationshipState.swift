import OrderedCollections

/// The relationship state that most objects never need, kept out of the object until first used:
/// the to-manys loaded as objects or known by ID, and the to-one and to-many destinations as last
/// saved where they are not the current ones.
///
/// An object fetched and read holds none of it (its to-ones are its saved to-ones, and its
/// to-manys fault on first use), and so is a box's reference smaller per map: a fetch of many
/// objects touches a fifth less memory for them.
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
}
