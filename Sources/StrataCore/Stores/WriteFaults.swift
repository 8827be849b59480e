import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A fault ``AtomicFileWriter`` is made to meet when writing one file: how tests see what a
/// full disk, a short write, a failed `fsync` or a failed rename do to a save. Not app-facing
/// API (`package`): only this package's tests inject faults.
package enum WriteFault: Sendable, Hashable {
    /// Every `write` call writes at most `chunk` bytes and returns that count (a short write,
    /// which the writer must continue after).
    case shortWrites(chunk: Int)
    /// The first `bytes` bytes are written, then `write` fails with `errno` (`ENOSPC`: the disk
    /// fills up midway).
    case failWrite(afterBytes: Int, errno: Int32)
    /// `fsync` of the temporary file fails with `errno` (`EIO`).
    case failFsync(errno: Int32)
    /// The rename over the old file fails with `errno`.
    case failRename(errno: Int32)
}

/// The faults injected, by file path. Normal saves pay one atomic load (`active` is 0).
package enum WriteFaults {
    /// The steps a fault can fail.
    enum Step { case fsync, rename }

    /// The number of faults injected: the fast path reads only this.
    private static let active = Atomic<Int>(0)
    /// The faults by standardized file path.
    private static let faults = LockedValue<[String: WriteFault]>([:])

    /// Runs `body` with `fault` injected into every write of the file at `url`, and removes it
    /// afterwards (also when `body` throws). Other files are written normally, so tests running
    /// in parallel do not see each other's faults.
    package static func injecting<T>(_ fault: WriteFault, into url: URL, _ body: () throws -> T) rethrows -> T {
        let path = url.standardizedFileURL.path
        faults.withLock { $0[path] = fault }
        active.add(1, ordering: .sequentiallyConsistent)
        defer {
            faults.withLock { $0[path] = nil }
            active.subtract(1, ordering: .sequentiallyConsistent)
        }
        return try body()
    }

    /// The fault injected into writes of `url`, if any.
    static func fault(for url: URL) -> WriteFault? {
        guard active.load(ordering: .relaxed) > 0 else { return nil }
        let path = url.standardizedFileURL.path
        return faults.withLock { $0[path] }
    }

    /// `write(2)` as `fault` makes it behave, `offset` bytes into the file.
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, offset: Int, fault: WriteFault?) -> Int {
        var allowed = count
        switch fault {
        case .shortWrites(let chunk)?:
            allowed = min(count, max(1, chunk))
        case let .failWrite(limit, code)?:
            guard offset < limit else {
                errno = code
                return -1
            }
            allowed = min(count, limit - offset)
        default:
            break
        }
        #if canImport(Glibc)
        return Glibc.write(descriptor, bytes, allowed)
        #elseif canImport(Musl)
        return Musl.write(descriptor, bytes, allowed)
        #else
        return Darwin.write(descriptor, bytes, allowed)
        #endif
    }

    /// -1 with `errno` set when `fault` fails `step`; nil when the step runs for real.
    static func failing(_ fault: WriteFault?, _ step: Step) -> Int32? {
        switch (fault, step) {
        case (.failFsync(let code)?, .fsync), (.failRename(let code)?, .rename):
            errno = code
            return -1
        default:
            return nil
        }
    }
}
