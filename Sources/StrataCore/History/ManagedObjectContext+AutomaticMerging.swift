import Foundation

extension ManagedObjectContext {
    /// Whether the context follows saves made elsewhere by itself (Core Data's
    /// `automaticallyMergesChangesFromParent`). For a root context on stores opened with
    /// ``StoreOption/remoteChangeNotificationPost`` and ``StoreOption/persistentHistoryTracking``,
    /// the saves of other coordinators and processes are merged from persistent history at the
    /// context's next fetch or save after each ``PersistentStoreCoordinator/remoteChangeNotification``
    /// (a main-queue context merges at once, on the main queue); see
    /// ``mergeChangesFromPersistentHistory()``.
    public var automaticallyMergesChangesFromParent: Bool {
        get { historyState.remoteChanges != nil }
        set { followRemoteChanges(newValue) }
    }
}
