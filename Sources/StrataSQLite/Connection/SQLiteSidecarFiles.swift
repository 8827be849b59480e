import Foundation
@_spi(StoreImplementation) import StrataCore

/// The wal-index (`-shm`) SQLite keeps beside a WAL database, and removing the one reading
/// connections made when the last of them closes.
///
/// A connection that only reads can still make a file: SQLite's read-only open of a database
/// whose write-ahead log has transactions but no `-shm` creates the `-shm` and leaves it (run as
/// root, owned by the database's owner). When the last connection of the process to the file
/// closes, and none of them wrote, ``closed(_:removing:)`` removes a `-shm` that was not there
/// before the first opened it, following SQLite's own rule for removing it: only while holding
/// an exclusive lock on the database file (SQLite's lock bytes), which no connection of another
/// process can hold beside its shared lock, and only when no other connection of this process
/// has the file open (POSIX locks do not tell the connections of one process apart). The
/// `-shm` is an index SQLite rebuilds from the log. A `-wal` or `-journal` is never removed: it
/// may hold another program's transactions.
///
/// Thread safety: `open` is touched only while `lock` is held.
final class SQLiteSidecarFiles: @unchecked Sendable {
    /// The ending of the wal-index's name.
    static let suffix = "-shm"

    /// Which file a connection opened, and by what path.
    struct Opening {
        /// The database's path.
        var path: String
        /// The file's device and inode.
        var file: FileKey
    }

    /// The connections of this process to one file: how many, whether a `-shm` was there before
    /// the first of them opened it, and whether any of them could write.
    private struct Users {
        var count: Int
        var hadIndex: Bool
        var anyWrites: Bool
    }

    /// A file's identity, whatever path names it.
    typealias FileKey = HeldDatabaseFiles.FileKey

    /// The connections of this process.
    static let shared = SQLiteSidecarFiles()

    private let lock = NSLock()
    /// The connections of this process to each database file.
    private var open: [FileKey: Users] = [:]

    /// Counts a connection to the database at `path` as open (one that may write when
    /// `writes`); the first notes whether a `-shm` is there.
    func opened(_ path: String, writes: Bool) -> Opening? {
        guard let file = FileKey(path: path) else { return nil }
        // Told to the core too, which must not open and close the file while it is held.
        HeldDatabaseFiles.shared.opened(file)
        lock.withLock {
            if var users = open[file] {
                users.count += 1
                users.anyWrites = users.anyWrites || writes
                open[file] = users
            } else {
                open[file] = Users(count: 1, hadIndex: FileManager.default.fileExists(atPath: path + Self.suffix), anyWrites: writes)
            }
        }
        return Opening(path: path, file: file)
    }

    /// Counts the connection of `opening` as closed; when it was the last connection of the
    /// process to the file, none of them wrote and `removing` (it closed for good), removes a
    /// `-shm` that was not there before the first opened it.
    func closed(_ opening: Opening, removing: Bool) {
        HeldDatabaseFiles.shared.closed(opening.file)
        lock.withLock {
            guard var users = open[opening.file] else { return }
            users.count -= 1
            guard users.count <= 0 else {
                open[opening.file] = users
                return
            }
            open[opening.file] = nil
            let index = opening.path + Self.suffix
            guard removing, !users.anyWrites, !users.hadIndex, FileManager.default.fileExists(atPath: index) else { return }
            // Removing them races with no connection only under SQLite's exclusive lock; without
            // it (another process reads, or the file cannot be opened for writing) they stay.
            let descriptor = Foundation.open(opening.path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            guard FileKey(path: opening.path) == opening.file, Self.lockExclusively(descriptor) else { return }
            unlink(index)
        }
    }

    /// Takes SQLite's exclusive lock on a database file (a write lock on its shared byte range,
    /// as the unix VFS does), without waiting; false when another connection holds a lock.
    private static func lockExclusively(_ descriptor: Int32) -> Bool {
        let pendingByte: Int = 0x4000_0000
        var range = flock()
        range.l_type = Int16(F_WRLCK)
        range.l_whence = Int16(SEEK_SET)
        range.l_start = off_t(pendingByte + 2)
        range.l_len = 510
        return fcntl(descriptor, F_SETLK, &range) == 0
    }
}
