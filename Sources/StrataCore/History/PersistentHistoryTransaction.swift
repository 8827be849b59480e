import Foundation

/// One save recorded in a store's persistent history, with its changes. Core Data's
/// `NSPersistentHistoryTransaction`.
public struct PersistentHistoryTransaction: Sendable, Hashable {
    /// The transaction's number in its store, increasing with each save.
    public var transactionNumber: Int64
    /// The identifier (UUID) of the store that recorded it.
    public var storeIdentifier: String
    /// When the save happened.
    public var timestamp: Date
    /// The saving context's ``ManagedObjectContext/transactionAuthor``.
    public var author: String?
    /// The saving context's ``ManagedObjectContext/name``.
    public var contextName: String?
    /// The saving process's name.
    public var processIdentifier: String?
    /// The saving program's bundle identifier, when it has one (files Core Data wrote do).
    public var bundleIdentifier: String?
    /// The object changes, in the order they were recorded; nil when the request asked for
    /// transactions only.
    public var changes: [PersistentHistoryChange]?

    /// The token that points just after this transaction.
    public var token: PersistentHistoryToken {
        PersistentHistoryToken(transactionNumbers: [storeIdentifier: transactionNumber])
    }

    /// Creates a transaction.
    public init(transactionNumber: Int64, storeIdentifier: String, timestamp: Date, author: String? = nil,
                contextName: String? = nil, processIdentifier: String? = nil, bundleIdentifier: String? = nil,
                changes: [PersistentHistoryChange]? = []) {
        self.transactionNumber = transactionNumber
        self.storeIdentifier = storeIdentifier
        self.timestamp = timestamp
        self.author = author
        self.contextName = contextName
        self.processIdentifier = processIdentifier
        self.bundleIdentifier = bundleIdentifier
        self.changes = changes
    }

    /// The transaction's changes as ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``
    /// takes them (Core Data's `objectIDNotification()`): the IDs inserted, updated and deleted.
    public var objectIDChanges: [String: [ManagedObjectID]] {
        var inserted: [ManagedObjectID] = [], updated: [ManagedObjectID] = [], deleted: [ManagedObjectID] = []
        for change in changes ?? [] {
            switch change.changeType {
            case .insert: inserted.append(change.changedObjectID)
            case .update: updated.append(change.changedObjectID)
            case .delete: deleted.append(change.changedObjectID)
            }
        }
        return [ManagedObjectContext.insertedObjectsKey: inserted, ManagedObjectContext.updatedObjectsKey: updated,
                ManagedObjectContext.deletedObjectsKey: deleted]
    }
}
