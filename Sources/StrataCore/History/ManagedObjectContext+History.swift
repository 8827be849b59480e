import Foundation

/// What a context keeps for persistent history, query generations and merging from history.
struct ContextHistoryState {
    /// See ``ManagedObjectContext/transactionAuthor``.
    var transactionAuthor: String?
    /// Where the last merge from history ended (see ``ManagedObjectContext/mergeChangesFromPersistentHistory()``).
    var mergedHistoryToken: PersistentHistoryToken?
    /// Set while the context follows remote changes (``ManagedObjectContext/followRemoteChanges(_:)``).
    var remoteChanges: RemoteChangeInbox?
    /// The query generation the context is pinned to (`Context/QueryGeneration.swift`).
    var generation: QueryGeneration?
}

extension ManagedObjectContext {
    /// The author recorded with the persistent-history transaction of each save of this
    /// context (Core Data's `transactionAuthor`); nil records none.
    public var transactionAuthor: String? {
        get { historyState.transactionAuthor }
        set { historyState.transactionAuthor = newValue }
    }

    /// Reads or purges persistent history through the context's coordinator (see
    /// ``PersistentStoreCoordinator/execute(_:)-(PersistentHistoryChangeRequest)``).
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        checkQueue()
        return try persistentStoreCoordinator.execute(request)
    }

    /// Who saves, as a save hands it to the stores for their history.
    var historyTransactionInfo: HistoryTransactionInfo? {
        historyState.transactionAuthor == nil && name == nil
            ? nil : HistoryTransactionInfo(author: historyState.transactionAuthor, contextName: name)
    }
}
