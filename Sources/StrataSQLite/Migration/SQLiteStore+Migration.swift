import Foundation
@_spi(StoreImplementation) import StrataCore

/// The SQLite store migrates in place: an inferred migration is SQL inside one transaction.
@_spi(StoreImplementation)
extension SQLiteStore: InPlaceMigratingStoreFamily {
    /// Runs `mapping` on the store file at `url` in one transaction (see
    /// ``SQLiteInPlaceMigration``); a failure rolls it back and leaves the file as it was.
    public static func migrateInPlace(at url: URL, with mapping: InferredMapping, progress: @Sendable (Double) -> Void) throws {
        do {
            let connection = try SQLiteConnection(path: url.path, mode: .readWrite(create: false))
            try SQLQueryFunctions.register(on: connection)
            try CoreDataTriggerFunctions.register(on: connection)
            try SQLiteDerivationFunctions.register(on: connection)
            try connection.transaction {
                try SQLiteInPlaceMigration(connection: connection, mapping: mapping, file: url.path).run(progress: progress)
            }
        } catch let error as SQLiteError {
            throw storeError(error)
        }
    }

    /// Writes a copy of the store at `url` (its write-ahead log included) to `destination` with
    /// `VACUUM INTO`, reading `url` as ``readMetadata(at:)`` does: nothing in it changes.
    public static func copyStoreFile(at url: URL, to destination: URL) throws {
        do {
            let mode = readingMode(path: url.path)
            let connection = try SQLiteConnection(path: url.path, mode: mode)
            // A query-only connection may not run VACUUM INTO, which writes only the new file;
            // it is one only when the log holds nothing, so that closing it changes nothing.
            if case .queryOnly = mode { try connection.execute("PRAGMA query_only = 0") }
            try connection.run("VACUUM INTO ?", [.text(destination.path)])
        } catch {
            throw storeError(error)
        }
    }

    /// Copies the transactions of the store's write-ahead log into the file and empties the log,
    /// so that a rename over the file leaves no log behind that belongs to it.
    public static func prepareForReplacement(at url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path + "-wal") || FileManager.default.fileExists(atPath: url.path + "-journal") else { return }
        do {
            let connection = try SQLiteConnection(path: url.path, mode: .readWrite(create: false))
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            throw storeError(error)
        }
    }
}
