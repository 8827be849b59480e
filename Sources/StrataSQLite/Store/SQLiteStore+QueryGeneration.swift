import Foundation
@_spi(StoreImplementation) import StrataCore

/// A query generation of an SQLite store is the same file opened read-only on a connection of
/// its own, inside a read transaction begun at once: with the write-ahead log, SQLite keeps
/// that connection's reads at the snapshot the transaction began with while others write, and
/// lets the snapshot go when the generation's store goes (its connection closes).
@_spi(StoreImplementation)
extension SQLiteStore: QueryGenerationStore {
    public func openQueryGeneration() throws -> any PersistentStore {
        guard let url else { throw StoreError.io(file: "", operation: "open", reason: "an SQLite store needs a file URL") }
        let generation = try SQLiteStore(description: StoreDescription(
            type: .sqlite, url: url, configurationName: configurationName, model: model,
            options: [StoreOption.readOnly: .bool(true), StoreOption.ignoresVersionHashes: .bool(true)]))
        try generation.withConnection { state in
            try state.connection.execute("BEGIN")
            _ = try state.connection.scalar("SELECT count(*) FROM Z_PRIMARYKEY")   // the read that takes the snapshot
        }
        return generation
    }
}
