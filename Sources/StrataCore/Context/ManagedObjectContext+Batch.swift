extension ManagedObjectContext {
    /// The key of inserted object IDs in a change dictionary (Core Data's `NSInsertedObjectsKey`).
    public static let insertedObjectsKey = "inserted"
    /// The key of updated object IDs in a change dictionary (Core Data's `NSUpdatedObjectsKey`).
    public static let updatedObjectsKey = "updated"
    /// The key of deleted object IDs in a change dictionary (Core Data's `NSDeletedObjectsKey`).
    public static let deletedObjectsKey = "deleted"

    /// Runs a batch insert through the coordinator, straight into the store. Persistent history
    /// records it with this context's ``transactionAuthor`` and ``name``, as it records a save.
    ///
    /// As in Core Data, the context's registered objects and unsaved changes are not touched:
    /// fetches find the new objects, and ``mergeChanges(fromRemoteContextSave:into:)`` tells
    /// contexts about them. See `PersistentStoreCoordinator.execute(_:)`.
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        checkQueue()
        return try persistentStoreCoordinator.execute(request, transactionInfo: historyTransactionInfo)
    }

    /// Runs a batch update through the coordinator, straight in the stores.
    ///
    /// Registered objects keep the values they had until they are refreshed; pass the result's
    /// ``BatchResult/changes`` to ``mergeChanges(fromRemoteContextSave:into:)`` to bring them up
    /// to date. See `PersistentStoreCoordinator.execute(_:)`.
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        checkQueue()
        return try persistentStoreCoordinator.execute(request, transactionInfo: historyTransactionInfo)
    }

    /// Runs a batch delete through the coordinator, straight in the stores.
    ///
    /// Registered objects that were deleted stay registered until the deletion is merged with
    /// ``mergeChanges(fromRemoteContextSave:into:)``. See
    /// `PersistentStoreCoordinator.execute(_:)`.
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        checkQueue()
        return try persistentStoreCoordinator.execute(request, transactionInfo: historyTransactionInfo)
    }
}
