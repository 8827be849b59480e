import Foundation

/// The atomic stores keep their history in their image, and the file stores in their files'
/// metadata (``PersistentHistoryLog/metadataKey``).
@_spi(StoreImplementation)
extension AtomicStore: PersistentHistoryStore {
    public var tracksPersistentHistory: Bool { historyRecorder != nil }

    public func historyTransactions(_ query: StoreHistoryQuery) throws -> [PersistentHistoryTransaction] {
        try requireHistory()
        return currentImage.history.transactions(query)
    }

    public func deleteHistory(_ deletion: StoreHistoryDeletion) throws -> Int {
        try requireHistory()
        guard !isReadOnly else { throw StoreError.readOnlyStore(file: url?.path ?? "") }
        return try withImage { image in
            var next = image
            let count = next.history.delete(deletion)
            guard count > 0 else { return 0 }
            try write(next)
            image = next
            return count
        }
    }

    public func lastHistoryTransactionNumber() throws -> Int64 {
        currentImage.history.lastTransactionNumber
    }

    private func requireHistory() throws {
        guard tracksPersistentHistory else { throw PersistentHistoryError.notTracked(storeIdentifier: identifier) }
    }
}

@_spi(StoreImplementation)
extension StoreImage {
    /// The image as a file store writes it: its history in the metadata, when it has any.
    public func withHistoryInMetadata() -> StoreImage {
        guard history.lastTransactionNumber > 0 else { return self }
        var written = self
        written.metadata[PersistentHistoryLog.metadataKey] = history.propertyList
        return written
    }

    /// Moves the history a file kept in its metadata into ``history``.
    ///
    /// - Throws: ``StoreError/corruptStore(file:offset:reason:)`` for history that cannot be read.
    public mutating func takeHistoryFromMetadata(file: String) throws {
        guard let value = metadata.removeValue(forKey: PersistentHistoryLog.metadataKey) else { return }
        history = try PersistentHistoryLog(propertyList: value, storeIdentifier: identifier, file: file)
    }
}
