import Foundation

/// The files SQLite keeps beside a database (`-wal`, `-shm`, `-journal`), and removing the ones a
/// reading connection made when it is the database's last user.
///
/// A connection that only reads can still make files: SQLite's read-only open of a database
/// whose write-ahead log has transactions but no `-shm` creates the `-shm` and leaves it (run as
/// root, owned by the database's owner). When such a connection closes, ``removeCreated(by:)``
/// removes the sidecars that were not there before it opened, following SQLite's own rule for
/// removing them: only while holding an exclusive lock on the database file (SQLite's lock
/// bytes), which no other connection of any process can hold a shared lock beside, and only
/// when no other connection of this process has the file open (POSIX locks do not tell the
/// connections of one process apart).
///
/// Thread safety: `open` is touched only while `lock` is held.
final class SQLiteSidecarFiles: @unchecked Sendable {
    /// The names' endings.
    static let suffixes = ["-wal", "-shm", "-journal"]

    /// What a reading connection found when it opened: which file it is and which sidecars were
    /// there.
    struct Opening {
        /// The database's path.
        var path: String
        /// The file's device and inode.
        var file: FileKey
        /// The endings of the sidecars that existed.
        var existing: Set<String>
    }

    /// A file's identity, whatever path names it.
    struct FileKey: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// The connections of this process.
    static let shared = SQLiteSidecarFiles()

    private let lock = NSLock()
    /// How many connections of this process have each database file open.
    private var open: [FileKey: Int] = [:]

    /// The identity of the file at `path`, nil when there is none.
    static func key(of path: String) -> FileKey? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileKey(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Counts a connection to the database at `path` as open, and notes its sidecars.
    func opened(_ path: String) -> Opening? {
        guard let file = Self.key(of: path) else { return nil }
        lock.withLock { open[file, default: 0] += 1 }
        let existing = Set(Self.suffixes.filter { FileManager.default.fileExists(atPath: path + $0) })
        return Opening(path: path, file: file, existing: existing)
    }

    /// Counts the connection of `opening` as closed; for a reading connection (`removing`), then
    /// removes the sidecars it made, when it was the last connection to the file.
    func closed(_ opening: Opening, removing: Bool) {
        let others = lock.withLock {
            open[opening.file, default: 1] -= 1
            let remaining = open[opening.file] ?? 0
            if remaining <= 0 { open[opening.file] = nil }
            return remaining
        }
        guard removing, others == 0 else { return }
        let made = Self.suffixes.filter { !opening.existing.contains($0) && FileManager.default.fileExists(atPath: opening.path + $0) }
        guard !made.isEmpty else { return }
        // Removing them races with no connection only under SQLite's exclusive lock; without it
        // (another connection reads, or the file cannot be opened for writing) they stay.
        lock.withLock {
            guard open[opening.file] == nil else { return }
            let descriptor = Foundation.open(opening.path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            guard Self.key(of: opening.path) == opening.file, Self.lockExclusively(descriptor) else { return }
            for suffix in made { unlink(opening.path + suffix) }
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
