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

    /// Records a batch request's changes as one history transaction, as Core Data does (that is
    /// how other contexts and processes learn of them): `inserted` and `deleted` objects, and
    /// `updated` ones with the properties `updatedKeys` gives for each (what the request set, or
    /// the relationships a delete nullified). Called inside the request's
    /// transaction: deletions before their rows go (their tombstones are read from the rows),
    /// inserts and updates after their rows were written, with `before` giving the updated
    /// objects' earlier state when the store keeps old and new values.
    func recordBatchHistory(_ transactionInfo: HistoryTransactionInfo?, inserted: [ManagedObjectID] = [], updated: [ManagedObjectID] = [],
                            updatedKeys: (ManagedObjectID) -> [String] = { _ in [] },
                            deleted: [ManagedObjectID] = [], before: [ManagedObjectID: ObjectSnapshot] = [:], _ state: State) throws {
        guard let historyTables, !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else { return }
        let reader = reader(for: state)
        var request = StoreSaveRequest(inserted: inserted.map { ObjectSnapshot(objectID: $0) },
                                       deleted: deleted.map { .init(objectID: $0, version: 0) })
        // With values kept, an update's new values are its row's now; otherwise only its ID and
        // the keys it set are recorded.
        request.updated = try updated.map { id in
            historyTables.recorder.recordsValues ? try reader.snapshot(for: id) ?? ObjectSnapshot(objectID: id) : ObjectSnapshot(objectID: id)
        }
        request.changedProperties = updated.map(updatedKeys)
        request.transactionInfo = transactionInfo
        try SQLiteHistoryWriter(tables: historyTables, connection: state.connection, schema: schema,
                                reader: reader, file: url?.path ?? "")
            .record(request, stored: updated.isEmpty ? nil : { id in try before[id] ?? reader.snapshot(for: id) })
    }

    /// Whether a batch update or delete reads the rows it changes before it changes them, for
    /// the history's old values.
    var batchUpdatesReadOldValues: Bool { historyTables?.recorder.recordsValues == true }

    /// Records the history of `request` when the store tracks it; inside the save's transaction,
    /// before its rows are written.
    func recordHistory(_ request: StoreSaveRequest, _ state: State) throws {
        guard let historyTables else { return }
        try SQLiteHistoryWriter(tables: historyTables, connection: state.connection, schema: schema,
                                reader: reader(for: state), file: url?.path ?? "").record(request)
    }
}
