import Foundation

/// A value the threads of a test share, read and changed only under an `NSLock`, with
/// `Synchronization.Mutex`'s `withLock` API.
///
/// `NSLock` is a pthread mutex, which ThreadSanitizer sees; on Linux `Mutex` locks with a futex
/// inside the uninstrumented standard library, and ThreadSanitizer reports what it guards as
/// races (StrataCore's own lock, `LockedValue`, is a pthread mutex for the same reason).
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// A lock guarding `initialValue`.
    public init(_ initialValue: sending Value) { value = initialValue }

    /// Runs `body` on the value while holding the lock, and returns what it returns.
    public func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
