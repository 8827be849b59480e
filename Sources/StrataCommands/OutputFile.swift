import Foundation

/// A file a command writes (an `--output`, a new store), and how it is written so that nothing is
/// ever lost or seen half-written:
///
/// - `-` is standard output;
/// - a FIFO, character device or socket is written to directly (streamed, never replaced), and
///   so is anything named below `/dev/` or `/proc/` (`/dev/stdout`, `/dev/fd/3`);
/// - a symbolic link is followed: its target is written, and the link stays a link;
/// - a regular file is written under a temporary name in its folder and moved into place at the
///   end. Without `force` the final step is exclusive: it fails when the file exists, even one
///   that appeared while the command ran; with `force` it replaces the file atomically.
///
/// Temporary names carry the writer's process ID (``TemporaryFiles``), so the next command that
/// writes the same file removes what a killed one left.
struct OutputFile {
    /// Where the bytes go.
    enum Target: Equatable {
        /// Standard output (`-`).
        case standardOutput
        /// A FIFO, character device or socket, opened and written as it is.
        case stream(String)
        /// A regular file (or none yet) at this path, a symbolic link's target when the path
        /// named a link.
        case file(URL)
    }

    /// The environment variable of the test seam that creates the destination just before the
    /// final step, as another program racing the command would.
    static let raceSeamVariable = "STRATA_TEST_DESTINATION_APPEARS"

    /// The path as given, for messages.
    let name: String
    /// Where the bytes go.
    let target: Target
    /// Whether an existing file is replaced.
    let force: Bool

    /// The output named `path` on the command line; `-` is standard output.
    ///
    /// - Throws: ``CommandFailure`` for a folder, a missing parent folder, a loop of links, or
    ///   an existing regular file without `force`.
    init(_ path: String, force: Bool) throws {
        self.name = path
        self.force = force
        if path == "-" {
            target = .standardOutput
            return
        }
        if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") {
            // /dev/stdout, /dev/fd/N and the like: links to whatever the descriptor is, which
            // is written to as it is, never replaced.
            var status = stat()
            if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
                target = .stream(path)
                return
            }
        }
        let resolved = try Self.followingLinks(path)
        var status = stat()
        if lstat(resolved, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFDIR: throw CommandFailure("\(path): is a folder")
            case S_IFIFO, S_IFCHR, S_IFSOCK: target = .stream(resolved)
            case S_IFREG:
                guard force else { throw CommandFailure("\(path): already exists (pass --force to replace it)") }
                target = .file(URL(fileURLWithPath: resolved))
            default: throw CommandFailure("\(path): is not a regular file, a pipe or a device")
            }
            return
        }
        let folder = (resolved as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CommandFailure("\(path): cannot write: the folder \(folder) does not exist")
        }
        target = .file(URL(fileURLWithPath: resolved))
    }

    /// The path a symbolic link chain at `path` ends at (`path` itself when it is no link); the
    /// end may not exist yet.
    private static func followingLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            let destination: String
            do {
                destination = try FileManager.default.destinationOfSymbolicLink(atPath: current)
            } catch {
                throw CommandFailure("\(path): cannot read the symbolic link \(current)")
            }
            current = destination.hasPrefix("/")
                ? destination
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
        }
        throw CommandFailure("\(path): too many levels of symbolic links")
    }

    /// Writes `data`: to standard output, into the stream, or into a new file moved into place.
    ///
    /// - Throws: ``CommandFailure`` naming the file and what failed; an existing file is then
    ///   untouched.
    func write(_ data: Data) throws {
        switch target {
        case .standardOutput:
            try Self.writeAll(data, to: STDOUT_FILENO, name: "standard output")
        case .stream(let path):
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw CommandFailure("\(name): cannot open: \(Self.systemMessage())") }
            defer { close(descriptor) }
            try Self.writeAll(data, to: descriptor, name: name)
        case .file:
            try place { temporary in
                let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else { throw CommandFailure("\(name): cannot create a temporary file: \(Self.systemMessage())") }
                defer { close(descriptor) }
                try Self.writeAll(data, to: descriptor, name: name)
                guard fsync(descriptor) == 0 else { throw CommandFailure("\(name): cannot flush to disk: \(Self.systemMessage())") }
            }
        }
    }

    /// Makes the file by calling `produce` with a temporary path in the destination's folder,
    /// then moves it into place (exclusively without `force`). The temporary file and any
    /// `-wal`, `-shm` or `-journal` beside it are removed whatever happens. With
    /// `replacingSidecars` (a store), the `-wal`, `-shm` and `-journal` of the file `force`
    /// replaces are removed just before: SQLite would otherwise read the old store's log into
    /// the new one.
    ///
    /// - Throws: ``CommandFailure`` for standard output or a stream (a store is a regular file),
    ///   when the destination appeared meanwhile (without `force`), or what `produce` throws.
    func place(replacingSidecars: Bool = false, _ produce: (URL) throws -> Void) throws {
        guard case .file(let url) = target else {
            throw CommandFailure("\(name): a store is written to a regular file, not to standard output, a pipe or a device")
        }
        let temporary = TemporaryFiles.removingStale(for: url)
        defer { TemporaryFiles.remove(temporary) }
        try produce(temporary)
        if ProcessInfo.processInfo.environment[Self.raceSeamVariable] != nil {
            _ = FileManager.default.createFile(atPath: url.path, contents: Data("written by another program\n".utf8))
        }
        do throws(ExclusiveRename.Failure) {
            if force {
                if replacingSidecars {
                    for suffix in TemporaryFiles.sidecars { unlink(url.path + suffix) }
                }
                try ExclusiveRename.moveReplacing(temporary.path, to: url.path)
            } else {
                try ExclusiveRename.moveWithoutReplacing(temporary.path, to: url.path)
            }
        } catch .destinationExists {
            throw CommandFailure("\(name): appeared while it was being written (another program made it); left as it is, nothing written (pass --force to replace it)")
        } catch .system(let code) {
            throw CommandFailure("\(name): cannot move the new file into place: \(String(cString: strerror(code)))")
        }
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Writes all of `data` to `descriptor`, going on after interruptions and short writes.
    private static func writeAll(_ data: Data, to descriptor: Int32, name: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw CommandFailure("\(name): cannot write: \(systemMessage())")
                }
                offset += written
            }
        }
    }

    /// The text of `errno`.
    private static func systemMessage() -> String { String(cString: strerror(errno)) }
}
