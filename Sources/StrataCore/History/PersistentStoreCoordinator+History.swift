import Foundation

extension PersistentStoreCoordinator {
    /// Reads or purges the persistent history of every store that keeps it.
    ///
    /// A fetch reads each store's transactions in order, keeps those the request's predicates
    /// match, and stops at its fetch limit; a delete purges what it names in each store. A
    /// store whose type keeps no history, or opened without
    /// ``StoreOption/persistentHistoryTracking``, is refused when the request names it by
    /// token or it is the only store; otherwise it is passed over.
    ///
    /// - Throws: ``PersistentHistoryError``, or what a store throws.
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        var result = PersistentHistoryResult()
        var token = PersistentHistoryToken(transactionNumbers: [:])
        let all = persistentStores
        for store in all {
            guard let history = try historyStore(store, required: all.count == 1 || request.names(store.identifier)) else { continue }
            switch request.operation {
            case .delete:
                let deletion: StoreHistoryDeletion
                switch request.boundary {
                case .all: deletion = .all
                case .token(let bound):
                    guard let number = bound.transactionNumbers[store.identifier] else { continue }
                    deletion = .through(number)
                case .date(let date): deletion = .before(date)
                case .transactions(let list):
                    guard let number = list.filter({ $0.storeIdentifier == store.identifier }).map(\.transactionNumber).max() else { continue }
                    deletion = .through(number)
                }
                result.count += try history.deleteHistory(deletion)
            case .fetch:
                var query = StoreHistoryQuery(includesChanges: request.resultType == .transactionsAndChanges || request.changePredicate != nil)
                switch request.boundary {
                case .all: break
                case .token(let bound): query.afterTransactionNumber = bound.transactionNumber(forStore: store.identifier)
                case .date(let date): query.afterDate = date
                case .transactions(let list):
                    query.transactionNumbers = Set(list.filter { $0.storeIdentifier == store.identifier }.map(\.transactionNumber))
                }
                for var transaction in try history.historyTransactions(query) {
                    if request.fetchLimit > 0 && result.transactions.count + result.count >= request.fetchLimit { break }
                    if let predicate = request.transactionPredicate, try !predicate.evaluate(with: transaction) { continue }
                    if let predicate = request.changePredicate {
                        transaction.changes = try transaction.changes?.filter { try predicate.evaluate(with: $0) }
                        if transaction.changes?.isEmpty != false { continue }
                    }
                    if request.resultType == .transactionsOnly { transaction.changes = nil }
                    token = token.merging(transaction.token)
                    if request.resultType == .count { result.count += 1 } else { result.transactions.append(transaction) }
                }
            }
        }
        result.token = token.transactionNumbers.isEmpty ? nil : token
        return result
    }

    /// A token at the end of the history of `stores` (every store for nil) as it is now. Core
    /// Data's `currentPersistentHistoryToken(fromStores:)`; nil when no store keeps history.
    public func currentPersistentHistoryToken(fromStores stores: [any PersistentStore]? = nil) throws -> PersistentHistoryToken? {
        var numbers: [String: Int64] = [:]
        for store in stores ?? persistentStores {
            guard let history = store as? any PersistentHistoryStore, history.tracksPersistentHistory else { continue }
            numbers[store.identifier] = try history.lastHistoryTransactionNumber()
        }
        return numbers.isEmpty ? nil : PersistentHistoryToken(transactionNumbers: numbers)
    }

    /// The store's history side, or nil to pass it over; throws when `required` and it keeps none.
    private func historyStore(_ store: any PersistentStore, required: Bool) throws -> (any PersistentHistoryStore)? {
        guard let history = store as? any PersistentHistoryStore else {
            if required { throw PersistentHistoryError.unsupportedStore(storeIdentifier: store.identifier, type: store.type.rawValue) }
            return nil
        }
        guard history.tracksPersistentHistory else {
            if required { throw PersistentHistoryError.notTracked(storeIdentifier: store.identifier) }
            return nil
        }
        return history
    }
}

extension PersistentHistoryChangeRequest {
    /// Whether the request's boundary names the store `identifier` (by token or transaction).
    func names(_ identifier: String) -> Bool {
        switch boundary {
        case .all, .date: false
        case .token(let token): token.transactionNumbers[identifier] != nil
        case .transactions(let list): list.contains { $0.storeIdentifier == identifier }
        }
    }
}
