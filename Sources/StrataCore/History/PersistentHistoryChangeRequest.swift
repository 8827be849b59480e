import Foundation

/// A request to read or purge persistent history, run with
/// ``ManagedObjectContext/execute(_:)-(PersistentHistoryChangeRequest)`` or
/// ``PersistentStoreCoordinator/execute(_:)-(PersistentHistoryChangeRequest)``. Core Data's
/// `NSPersistentHistoryChangeRequest`.
///
/// ```swift
/// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// request.transactionPredicate = try ObjectPredicate(format: "author != %@", "importer")
/// for transaction in try context.execute(request).transactions { … }
/// ```
public struct PersistentHistoryChangeRequest: Sendable, Hashable {
    /// Reading or purging.
    public enum Operation: Sendable, Hashable {
        /// Read transactions.
        case fetch
        /// Delete transactions.
        case delete
    }

    /// Which transactions the request starts or ends at.
    public enum Boundary: Sendable, Hashable {
        /// Every transaction.
        case all
        /// For a fetch, the transactions after the token's (in each store); for a delete, the
        /// token's and those before it.
        case token(PersistentHistoryToken)
        /// For a fetch, the transactions after the date; for a delete, those before it.
        case date(Date)
        /// For a fetch, these transactions only (by store and number).
        case transactions([PersistentHistoryTransaction])
    }

    /// What a fetch returns.
    public enum ResultType: Sendable, Hashable {
        /// Transactions with their changes.
        case transactionsAndChanges
        /// Transactions without their changes (``PersistentHistoryTransaction/changes`` nil).
        case transactionsOnly
        /// The number of transactions only.
        case count
    }

    /// Read or purge.
    public var operation: Operation
    /// Where the request starts (fetch) or ends (delete).
    public var boundary: Boundary
    /// What a fetch returns.
    public var resultType: ResultType = .transactionsAndChanges
    /// Only the transactions this predicate matches, with the keys `author`, `contextName`,
    /// `processIdentifier`, `bundleIdentifier`, `timestamp`, `transactionNumber`,
    /// `storeIdentifier` (Core Data's fetch request over `NSPersistentHistoryTransaction`).
    public var transactionPredicate: ObjectPredicate?
    /// Only the changes this predicate matches, with the keys `changeType` (0 insert, 1 update,
    /// 2 delete), `entityName`, `changedObjectID`, `changeID`, `updatedProperties` and
    /// `tombstone` (Core Data's fetch request over `NSPersistentHistoryChange`); a transaction
    /// whose changes all fail it is left out.
    public var changePredicate: ObjectPredicate?
    /// The most transactions a fetch returns, oldest first; 0 means no limit.
    public var fetchLimit: Int = 0

    /// Creates a request.
    public init(operation: Operation, boundary: Boundary) {
        self.operation = operation
        self.boundary = boundary
    }

    /// The transactions after `token` (every transaction for nil).
    public static func fetchHistory(after token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        .init(operation: .fetch, boundary: token.map(Boundary.token) ?? .all)
    }

    /// The transactions after `date`.
    public static func fetchHistory(after date: Date) -> PersistentHistoryChangeRequest {
        .init(operation: .fetch, boundary: .date(date))
    }

    /// The transactions after `transaction` (every transaction for nil).
    public static func fetchHistory(after transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest {
        .init(operation: .fetch, boundary: transaction.map { .token($0.token) } ?? .all)
    }

    /// The given transactions, read again.
    public static func fetchHistory(for transactions: [PersistentHistoryTransaction]) -> PersistentHistoryChangeRequest {
        .init(operation: .fetch, boundary: .transactions(transactions))
    }

    /// Deletes the token's transaction and every one before it (all history for nil).
    public static func deleteHistory(before token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        .init(operation: .delete, boundary: token.map(Boundary.token) ?? .all)
    }

    /// Deletes the transactions older than `date`.
    public static func deleteHistory(before date: Date) -> PersistentHistoryChangeRequest {
        .init(operation: .delete, boundary: .date(date))
    }

    /// Deletes `transaction` and every one before it in its store (all history for nil).
    public static func deleteHistory(before transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest {
        .init(operation: .delete, boundary: transaction.map { .token($0.token) } ?? .all)
    }
}

/// What a ``PersistentHistoryChangeRequest`` gave. Core Data's `NSPersistentHistoryResult`.
public struct PersistentHistoryResult: Sendable, Hashable {
    /// The transactions a fetch read, oldest first within each store, stores in the
    /// coordinator's order (empty for a delete and a count).
    public var transactions: [PersistentHistoryTransaction] = []
    /// For a count, the number of transactions; for a delete, the number deleted.
    public var count: Int = 0
    /// A token at or after every transaction returned.
    public var token: PersistentHistoryToken?
}

/// Why history cannot be read or written.
public enum PersistentHistoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store's type keeps no persistent history (a store without the capability).
    case unsupportedStore(storeIdentifier: String, type: String)
    /// The store was opened without ``StoreOption/persistentHistoryTracking``.
    case notTracked(storeIdentifier: String)

    public var description: String {
        switch self {
        case let .unsupportedStore(id, type): "store \(id) of type \(type) keeps no persistent history"
        case let .notTracked(id): "store \(id) was opened without persistent history tracking (\(StoreOption.persistentHistoryTracking))"
        }
    }
}
