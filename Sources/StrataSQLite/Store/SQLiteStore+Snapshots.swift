@_spi(StoreImplementation) import StrataCore

extension SQLiteStore {
    /// The snapshots of many objects in one query per table, not one per object: what batch
    /// faulting and prefetching ask for.
    @_spi(StoreImplementation) public func snapshots(for objectIDs: [ManagedObjectID]) throws -> [ObjectSnapshot] {
        try withConnection { state in
            try reader(for: state).snapshots(for: objectIDs)
        }
    }
}
