import Foundation

/// The temporary files a command writes a new file under before moving it into place:
/// `.<name>.<pid>-<UUID>.strata-tmp` in the destination's folder, with the writer's process ID
/// so that the next command writing the same destination can tell a killed writer's leftovers
/// (its process is gone) from a running one's, and remove only the former.
enum TemporaryFiles {
    /// The end of every temporary name.
    static let suffix = ".strata-tmp"
    /// What may sit beside a temporary store: SQLite's journal files.
    static let sidecars = ["-wal", "-shm", "-journal"]

    /// A fresh temporary path for `destination`, after removing the temporary files of dead
    /// processes for that same destination.
    static func removingStale(for destination: URL) -> URL {
        removeStale(for: destination)
        return destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(getpid())-\(UUID().uuidString)\(suffix)")
    }

    /// Removes the temporary file at `url` and its sidecars.
    static func remove(_ url: URL) {
        for name in [url.path] + sidecars.map({ url.path + $0 }) { unlink(name) }
    }

    /// Removes, in `destination`'s folder, the temporary files (and their sidecars, and the
    /// temporary files the store writers made of them) that writers of `destination` left
    /// behind and whose process no longer runs. Files of running processes, of other
    /// destinations, and names of any other form are left alone.
    static func removeStale(for destination: URL) {
        let folder = destination.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names {
            guard let pid = writer(of: name, destinationName: destination.lastPathComponent), !isRunning(pid) else { continue }
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// The process ID in `name` when it is one of the temporary files of a destination named
    /// `destinationName`: `.<destination>.<pid>-<UUID>.strata-tmp`, that followed by `-wal`,
    /// `-shm` or `-journal`, or `.<that>.<anything>.tmp` (a temporary file of the store writer).
    static func writer(of name: String, destinationName: String) -> pid_t? {
        var base = Substring(name)
        var nested = false
        let prefix = ".\(destinationName)."
        if base.hasPrefix("." + prefix) {
            base = base.dropFirst()
            nested = true
        }
        guard base.hasPrefix(prefix) else { return nil }
        let rest = base.dropFirst(prefix.count)
        guard let marker = rest.range(of: suffix) else { return nil }
        let tail = rest[marker.upperBound...]
        if nested {
            guard tail.hasPrefix("."), tail.hasSuffix(".tmp") else { return nil }
        } else {
            guard tail.isEmpty || sidecars.contains(String(tail)) else { return nil }
        }
        let parts = rest[..<marker.lowerBound].split(separator: "-", maxSplits: 1)
        guard parts.count == 2, UUID(uuidString: String(parts[1])) != nil,
              parts[0].allSatisfy(\.isASCII), let pid = pid_t(parts[0]), pid > 0 else { return nil }
        return pid
    }

    /// Whether a process with ID `pid` exists (one of another user counts as running).
    static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }
}
