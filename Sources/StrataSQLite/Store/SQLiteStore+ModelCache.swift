import Foundation
@_spi(StoreImplementation) import StrataCore

extension SQLiteStore {
    /// The content of the store's compiled-model cache (`Z_MODELCACHE.Z_CONTENT`), which
    /// Apple's Core Data writes beside the data: raw DEFLATE of a keyed archive of the model the
    /// store was saved with. `CompiledModel.model(fromStoreCache:)` (module `StrataModelFiles`)
    /// reads it.
    ///
    /// The file is opened for reading as ``readMetadata(at:)`` opens it: nothing in it changes.
    ///
    /// - Returns: the bytes, or `nil` when the store has no `Z_MODELCACHE` table (stores written
    ///   by Strata or by older Core Data versions) or the table holds no content.
    /// - Throws: `StoreError` when the file cannot be opened or is not an SQLite database.
    public static func compiledModelData(at url: URL) throws -> Data? {
        do {
            let connection = try SQLiteConnection(path: url.path, mode: readingMode(path: url.path))
            let tables = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Z_MODELCACHE'") { $0.text(0) }
            guard !tables.isEmpty else { return nil }
            let contents = try connection.rows("SELECT Z_CONTENT FROM Z_MODELCACHE WHERE Z_CONTENT IS NOT NULL LIMIT 1") { $0.blob(0) }
            return contents.first ?? nil
        } catch let error as SQLiteError {
            throw storeError(error)
        }
    }
}

extension SQLiteStore {
    /// `Z_MODELCACHE` as Core Data creates it.
    static let createModelCache = "CREATE TABLE IF NOT EXISTS Z_MODELCACHE (Z_CONTENT BLOB)"

    /// Puts `content` into `Z_MODELCACHE` (made when missing) in place of what it held.
    static func writeModelCache(_ content: Data, on connection: SQLiteConnection) throws {
        try connection.execute(createModelCache)
        try connection.execute("DELETE FROM Z_MODELCACHE")
        try connection.run("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", [.blob(content)])
    }

    /// Writes the compiled model the store still owes the file, inside the caller's transaction.
    static func writePendingModelCache(_ state: State) throws {
        guard let content = state.pendingModelCache else { return }
        try writeModelCache(content, on: state.connection)
    }

    /// The compiled model of `model` to write at the next write, or `nil` when the file's
    /// `Z_MODELCACHE` already describes `model`, or is another writer's (Apple's) with `model`'s
    /// version hashes, or no ``CompiledModelCoder`` is installed.
    static func modelCacheToWrite(_ connection: SQLiteConnection, model: ManagedObjectModel) throws -> Data? {
        guard let compiled = try CompiledModelCoder.encoded(model) else { return nil }
        let tables = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Z_MODELCACHE'") { $0.text(0) }
        guard !tables.isEmpty else { return compiled }
        let contents = try connection.rows("SELECT Z_CONTENT FROM Z_MODELCACHE WHERE Z_CONTENT IS NOT NULL LIMIT 1") { $0.blob(0) }
        guard let existing = contents.first ?? nil else { return compiled }
        if existing == compiled { return nil }
        guard let kept = try? CompiledModelCoder.decoded(existing),
              kept.entityVersionHashesByName == model.entityVersionHashesByName else { return compiled }
        if kept == model { return nil }
        // Same hashes, other details (user info, defaults, validation). A cache Strata wrote
        // (it encodes again to the same bytes) follows the model; another writer's (Apple's Core
        // Data, whose archive may hold what Strata does not model) stays as it is.
        return (try? CompiledModelCoder.encoded(kept)) == existing ? compiled : nil
    }

    /// Replaces the compiled model of the store file at `url` with `content` (raw DEFLATE of a
    /// keyed archive, as ``compiledModelData(at:)`` returns it): how a copy keeps the very bytes
    /// of its source's `Z_MODELCACHE`, Apple's included.
    ///
    /// - Throws: `StoreError` when the file cannot be opened for writing or is no SQLite store.
    public static func writeCompiledModelData(_ content: Data, at url: URL) throws {
        do {
            let connection = try SQLiteConnection(path: url.path, mode: .readWrite(create: false))
            let tables = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Z_METADATA'") { $0.text(0) }
            guard !tables.isEmpty else {
                throw StoreError.corruptStore(file: url.path, offset: nil, reason: "an SQLite database that is not a Core Data store (no Z_METADATA table)")
            }
            try connection.transaction { try writeModelCache(content, on: connection) }
        } catch let error as SQLiteError {
            throw storeError(error)
        }
    }
}
