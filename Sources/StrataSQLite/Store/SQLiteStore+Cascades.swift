@_spi(StoreImplementation) import StrataCore

extension SQLiteStore {
    /// Lists the destinations of a to-many kept as its inverse's foreign key with one query per
    /// `IN` list of source keys (`SELECT Z_PK, Z_ENT, Z_OPT … WHERE <foreign key> IN (…)`); nil
    /// for a to-many kept in a join table, or sources of another store.
    ///
    /// - Throws: ``StoreError/corruptStore(file:offset:reason:)`` for a destination row of an
    ///   unknown entity code.
    @_spi(StoreImplementation) public func destinationsWithVersions(of sources: [ManagedObjectID], relationship: String) throws
        -> [StoreSaveRequest.DeletedObject]? {
        guard let entity = sources.first?.entityName else { return [] }
        return try withConnection { state in
            var keys: [Int64] = []
            keys.reserveCapacity(sources.count)
            for source in sources {
                guard source.entityName == entity, source.storeIdentifier == state.identifier, let key = source.primaryKey else { return nil }
                keys.append(key)
            }
            return try reader(for: state).destinationsWithVersions(ofKeys: keys, entity: entity, relationship: relationship)
        }
    }
}

@_spi(StoreImplementation)
extension SQLiteStore: CascadeListingStore {}
