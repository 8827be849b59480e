import Foundation

/// The database files this process holds open with file locks: an SQLite store's connections,
/// counted by the file's device and inode, whatever path names it.
///
/// SQLite's locks are POSIX record locks, which belong to the process: closing any descriptor of
/// the file in this process drops every lock the process holds on it, whichever connection took
/// them. Another process may then take the file for its own while this one still writes into it
/// (checkpoint the write-ahead log and remove it), and the saves that follow are lost. Code that
/// would open and close such a file by its path (``StoreType/detect(at:)``) asks here first, and
/// a store that keeps such locks (the SQLite store's connections) counts its files here.
@_spi(StoreImplementation)
public final class HeldDatabaseFiles: Sendable {
    /// A file's identity.
    public struct FileKey: Hashable, Sendable {
        /// The file system's device.
        public var device: UInt64
        /// The file's inode.
        public var inode: UInt64

        /// The identity of the file at `path`, nil when there is none.
        public init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// The files of this process.
    public static let shared = HeldDatabaseFiles()

    /// How many connections of this process hold each file.
    private let connections = LockedValue<[FileKey: Int]>([:])

    /// Counts one more connection holding `file`.
    public func opened(_ file: FileKey) {
        connections.withLock { $0[file, default: 0] += 1 }
    }

    /// Counts one connection holding `file` fewer.
    public func closed(_ file: FileKey) {
        connections.withLock { counts in
            guard let count = counts[file] else { return }
            counts[file] = count > 1 ? count - 1 : nil
        }
    }

    /// Whether a connection of this process holds the file at `path`.
    public func holds(path: String) -> Bool {
        guard let file = FileKey(path: path) else { return false }
        return connections.withLock { $0[file] != nil }
    }
}
