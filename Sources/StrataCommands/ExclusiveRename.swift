import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Moving a finished file into place in one step that either replaces the destination or, for a
/// command without `--force`, fails when the destination exists, even one that appeared a moment
/// before (no check-then-rename window).
enum ExclusiveRename {
    /// Why the final step failed.
    enum Failure: Error {
        /// The destination exists (it appeared after the command checked for it).
        case destinationExists
        /// Another system error, with its `errno`.
        case system(Int32)
    }

    /// Renames `source` to `destination`, failing with ``Failure/destinationExists`` when
    /// `destination` exists: Linux's `renameat2(RENAME_NOREPLACE)`, Darwin's
    /// `renamex_np(RENAME_EXCL)`, else (a file system without them) `link` and `unlink`, which
    /// fail with `EEXIST` just as well.
    static func moveWithoutReplacing(_ source: String, to destination: String) throws(Failure) {
        let result = renameNoReplace(source, destination)
        if result == 0 { return }
        let error = errno
        if error == EEXIST { throw .destinationExists }
        guard error == EINVAL || error == ENOSYS || error == ENOTSUP || error == EOPNOTSUPP else { throw .system(error) }
        // No rename-no-replace on this file system: a hard link is just as exclusive.
        guard link(source, destination) == 0 else {
            throw errno == EEXIST ? .destinationExists : .system(errno)
        }
        unlink(source)
    }

    /// Renames `source` to `destination`, replacing it atomically when it exists.
    static func moveReplacing(_ source: String, to destination: String) throws(Failure) {
        guard rename(source, destination) == 0 else { throw .system(errno) }
    }

    #if os(Linux)
    /// The C library's `renameat2`, looked up at run time: Swift's Glibc module does not
    /// declare it (it is a GNU extension), and `syscall` is variadic.
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    private static let renameAt2: RenameAt2? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2")
        .map { unsafeBitCast($0, to: RenameAt2.self) }

    /// `renameat2(AT_FDCWD, source, AT_FDCWD, destination, RENAME_NOREPLACE)`; `ENOSYS` when the
    /// C library has no `renameat2`.
    private static func renameNoReplace(_ source: String, _ destination: String) -> Int32 {
        let renameNoReplaceFlag: UInt32 = 1
        guard let renameAt2 else {
            errno = ENOSYS
            return -1
        }
        return renameAt2(AT_FDCWD, source, AT_FDCWD, destination, renameNoReplaceFlag)
    }
    #elseif canImport(Darwin)
    private static func renameNoReplace(_ source: String, _ destination: String) -> Int32 {
        renamex_np(source, destination, UInt32(RENAME_EXCL))
    }
    #else
    private static func renameNoReplace(_ source: String, _ destination: String) -> Int32 {
        errno = ENOSYS
        return -1
    }
    #endif
}
