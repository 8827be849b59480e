import Foundation
import StrataCore

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
    /// - Throws: ``StoreError`` when the file cannot be opened or is not an SQLite database.
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
