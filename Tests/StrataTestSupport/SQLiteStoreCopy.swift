import Foundation

/// Copies of SQLite store files, for tests that must never open a fixture in place: SQLite
/// copies a store's write-ahead log into its main file and deletes it when the last connection
/// closes.
public enum SQLiteStoreCopy {
    /// Copies the store at `source`, with its `-wal` and `-shm` files, into `folder`, and returns
    /// the copy's URL.
    public static func copy(_ source: URL, into folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: copy.path + suffix)
        }
        return copy
    }
}
