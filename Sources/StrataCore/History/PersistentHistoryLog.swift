import Foundation

/// A store's persistent history held in memory: the transactions in order, with the numbers
/// the next transaction and change take. What the atomic stores keep in their image (and, for
/// the file stores, in their files: see ``propertyList`` and `docs/formats/README.md`).
@_spi(StoreImplementation)
public struct PersistentHistoryLog: Sendable, Hashable {
    /// The transactions, oldest first, each with its changes.
    public var transactions: [PersistentHistoryTransaction] = []
    /// The number of the last transaction recorded (deleted ones included).
    public var lastTransactionNumber: Int64 = 0
    /// The ID of the last change recorded (deleted ones included).
    public var lastChangeID: Int64 = 0

    /// Creates an empty log.
    public init() {}

    /// Records the transaction of a save: `request` as `recorder` sees it, `stored` giving the
    /// state an object had before the save.
    public mutating func record(
        _ request: StoreSaveRequest, storeIdentifier: String, recorder: PersistentHistoryRecorder,
        stored: (ManagedObjectID) throws -> ObjectSnapshot?
    ) rethrows {
        let number = lastTransactionNumber + 1
        let changes = try recorder.changes(of: request, transactionNumber: number, firstChangeID: lastChangeID + 1, stored: stored)
        transactions.append(PersistentHistoryTransaction(
            transactionNumber: number, storeIdentifier: storeIdentifier, timestamp: Date(),
            author: request.transactionInfo?.author, contextName: request.transactionInfo?.contextName,
            processIdentifier: HistoryTransactionInfo.processIdentifier, bundleIdentifier: HistoryTransactionInfo.bundleIdentifier,
            changes: changes))
        lastTransactionNumber = number
        lastChangeID += Int64(changes.count)
    }

    /// The transactions `query` selects. Transactions are kept in number order, so the start is
    /// found by binary search.
    public func transactions(_ query: StoreHistoryQuery) -> [PersistentHistoryTransaction] {
        var low = 0, high = transactions.count
        while low < high {
            let middle = (low + high) / 2
            if transactions[middle].transactionNumber <= query.afterTransactionNumber { low = middle + 1 } else { high = middle }
        }
        return transactions[low...].compactMap { transaction in
            guard query.selects(number: transaction.transactionNumber, timestamp: transaction.timestamp) else { return nil }
            var selected = transaction
            if !query.includesChanges { selected.changes = nil }
            return selected
        }
    }

    /// Deletes the transactions `deletion` selects; returns how many.
    public mutating func delete(_ deletion: StoreHistoryDeletion) -> Int {
        let before = transactions.count
        transactions.removeAll { deletion.deletes(number: $0.transactionNumber, timestamp: $0.timestamp) }
        return before - transactions.count
    }

    /// The same transactions under another store identifier (a store that took a new UUID).
    public func reassigned(to storeIdentifier: String) -> PersistentHistoryLog {
        var log = self
        for index in log.transactions.indices { log.transactions[index].storeIdentifier = storeIdentifier }
        return log
    }
}
