import Foundation
@_spi(StoreImplementation) import StrataCore

/// Persistent history in Core Data's own tables (`SQLiteHistoryTables`).
@_spi(StoreImplementation)
extension SQLiteStore: PersistentHistoryStore {
    public var tracksPersistentHistory: Bool { historyTables != nil }

    public func historyTransactions(_ query: StoreHistoryQuery) throws -> [PersistentHistoryTransaction] {
        try withConnection { state in try historyReader(state).transactions(query) }
    }

    public func deleteHistory(_ deletion: StoreHistoryDeletion) throws -> Int {
        try refuseWritingIfReadOnly()
        return try withConnection { state in try historyReader(state).delete(deletion) }
    }

    public func lastHistoryTransactionNumber() throws -> Int64 {
        try withConnection { state in try historyReader(state).lastTransactionNumber() }
    }

    private func historyReader(_ state: State) throws -> SQLiteHistoryReader {
        guard let historyTables else { throw PersistentHistoryError.notTracked(storeIdentifier: state.identifier) }
        return SQLiteHistoryReader(connection: state.connection, schema: schema, storeIdentifier: state.identifier,
                                   tombstoneColumns: historyTables.tombstoneColumns, recorder: historyTables.recorder, file: url?.path ?? "")
    }

    /// Records the history of `request` when the store tracks it; inside the save's transaction,
    /// before its rows are written.
    func recordHistory(_ request: StoreSaveRequest, _ state: State) throws {
        guard let historyTables else { return }
        try SQLiteHistoryWriter(tables: historyTables, connection: state.connection, schema: schema,
                                reader: reader(for: state), file: url?.path ?? "").record(request)
    }
}
