/// Makes the permanent IDs of one store's objects, row after row, as fast as the context makes
/// its own: a store reading many rows keeps one maker per read.
///
/// IDs come in runs of one or two entities (a row and its to-ones' destinations); the maker
/// keeps the entity-and-store part of the last two (shared by every ID of that entity in that
/// store), so that an ID of the same entity costs no lookup and no lock. An ID it makes equals
/// ``ManagedObjectID/init(entityName:storeIdentifier:primaryKey:)``'s.
@_spi(StoreImplementation)
public struct ObjectIDMaker {
    @usableFromInline var scopes: RecentScopes

    /// A maker of IDs of the store `storeIdentifier`.
    public init(storeIdentifier: String) {
        scopes = RecentScopes(storeIdentifier: storeIdentifier)
    }

    /// The ID of the row `primaryKey` of `entityName` (the row's own entity, never an abstract
    /// parent) in the maker's store.
    @inlinable @inline(__always)
    public mutating func objectID(entityName: String, primaryKey: Int64) -> ManagedObjectID {
        ManagedObjectID(scopes.scope(of: entityName), primaryKey: primaryKey)
    }
}
