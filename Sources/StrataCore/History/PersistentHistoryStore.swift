import Foundation

/// A store that keeps persistent history: the SQLite store (Core Data's `ATRANSACTION`,
/// `ACHANGE` and `ATRANSACTIONSTRING` tables), and the atomic stores (in their image, and in
/// their files). A store records a transaction within each ``PersistentStore/save(_:)`` when it
/// was opened with ``StoreOption/persistentHistoryTracking`` (see ``PersistentHistoryLog`` and
/// ``PersistentHistoryRecorder`` for the work every store shares).
///
/// Without it the coordinator refuses history requests for the store with
/// ``PersistentHistoryError/unsupportedStore(storeIdentifier:type:)``, and saves record nothing.
@_spi(StoreImplementation)
public protocol PersistentHistoryStore: PersistentStore {
    /// Whether saves record history (the store was opened with history tracking).
    var tracksPersistentHistory: Bool { get }
    /// The transactions `query` selects, oldest first.
    func historyTransactions(_ query: StoreHistoryQuery) throws -> [PersistentHistoryTransaction]
    /// Deletes the transactions `deletion` selects with their changes; returns how many.
    func deleteHistory(_ deletion: StoreHistoryDeletion) throws -> Int
    /// The number of the last transaction recorded (0 when none).
    func lastHistoryTransactionNumber() throws -> Int64
}

/// Which transactions a ``PersistentHistoryStore`` reads.
@_spi(StoreImplementation)
public struct StoreHistoryQuery: Sendable, Hashable {
    /// Only transactions with a greater number.
    public var afterTransactionNumber: Int64 = 0
    /// Only transactions later than this date.
    public var afterDate: Date?
    /// Only these transactions (by number).
    public var transactionNumbers: Set<Int64>?
    /// Whether each transaction carries its changes.
    public var includesChanges = true

    /// Creates a query.
    public init(afterTransactionNumber: Int64 = 0, afterDate: Date? = nil, transactionNumbers: Set<Int64>? = nil,
                includesChanges: Bool = true) {
        self.afterTransactionNumber = afterTransactionNumber
        self.afterDate = afterDate
        self.transactionNumbers = transactionNumbers
        self.includesChanges = includesChanges
    }

    /// Whether a transaction's number and date pass the query.
    public func selects(number: Int64, timestamp: Date) -> Bool {
        number > afterTransactionNumber && afterDate.map { timestamp > $0 } != false
            && transactionNumbers.map { $0.contains(number) } != false
    }
}

/// Which transactions a ``PersistentHistoryStore`` deletes.
@_spi(StoreImplementation)
public enum StoreHistoryDeletion: Sendable, Hashable {
    /// Every transaction.
    case all
    /// The transactions numbered up to and including this one.
    case through(Int64)
    /// The transactions older than this date.
    case before(Date)

    /// Whether a transaction's number and date are deleted.
    public func deletes(number: Int64, timestamp: Date) -> Bool {
        switch self {
        case .all: true
        case .through(let last): number <= last
        case .before(let date): timestamp < date
        }
    }
}

/// Who saved: what a context hands its stores with each save for the history transaction.
@_spi(StoreImplementation)
public struct HistoryTransactionInfo: Sendable, Hashable {
    /// The context's ``ManagedObjectContext/transactionAuthor``.
    public var author: String?
    /// The context's ``ManagedObjectContext/name``.
    public var contextName: String?

    /// Creates the saver's description.
    public init(author: String? = nil, contextName: String? = nil) {
        self.author = author
        self.contextName = contextName
    }

    /// The running process's name, recorded as each transaction's process.
    public static let processIdentifier = ProcessInfo.processInfo.processName
    /// The running program's bundle identifier, if it has one.
    public static let bundleIdentifier = Bundle.main.bundleIdentifier
}
