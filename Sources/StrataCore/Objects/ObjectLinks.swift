/// What an object holds beyond its values, in one reference: nothing, the destination of its
/// one to-one, or its ``RelationshipState`` (which then holds every to-one). A loaded object
/// with a single to-one, the usual shape of a fetched row, needs no state; the two references
/// share one word, so an object has room for neither twice.
enum ObjectLinks {
    /// No to-one destination and no state.
    case none
    /// The destination of the to-one at ``ManagedObject/firstToOnePosition``, and no state.
    case toOne(ManagedObject)
    /// The state, holding the to-ones too.
    case state(RelationshipState)
}
