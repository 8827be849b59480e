import CSQLite
import Foundation
import Synchronization

/// Checkpoints an SQLite store's write-ahead log without pause, on a second connection of its
/// own and a thread of its own, while the save loop writes: the crash-safety test then kills
/// the process at moments that fall inside checkpoints (the WAL's pages copied into the
/// database file, the WAL reset or truncated) as well as inside saves.
///
/// The modes take turns: `PASSIVE`, `FULL`, `RESTART`, `TRUNCATE`. A checkpoint that finds the
/// store busy waits for it (busy timeout), as SQLite's own automatic checkpoints do.
final class Checkpointer: Sendable {
    /// The checkpoints completed so far.
    let completed = Atomic<Int>(0)
    /// The store's file.
    let path: String

    /// A checkpointer for the SQLite store at `path`; `start()` starts it.
    init(path: String) { self.path = path }

    /// Starts checkpointing on a new thread, until the process ends.
    func start() {
        let thread = Thread { [self] in self.run() }
        thread.start()
    }

    /// Opens a connection and checkpoints in a loop.
    private func run() {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            fail("cannot open \(path) to checkpoint it")
        }
        sqlite3_busy_timeout(handle, 10_000)
        let modes = ["PASSIVE", "FULL", "RESTART", "TRUNCATE"]
        var turn = 0
        while true {
            let result = sqlite3_exec(handle, "PRAGMA wal_checkpoint(\(modes[turn % modes.count]))", nil, nil, nil)
            guard result == SQLITE_OK else {
                fail("checkpoint \(modes[turn % modes.count]) failed: \(String(cString: sqlite3_errmsg(handle)))")
            }
            completed.add(1, ordering: .relaxed)
            turn += 1
            usleep(useconds_t.random(in: 0...2_000))
        }
    }
}
