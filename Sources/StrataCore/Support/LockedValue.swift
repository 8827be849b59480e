#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, read and changed only while holding a POSIX mutex: StrataCore's
/// lock, used where `Synchronization.Mutex` would be, and the one a store of Strata uses too.
///
/// Why not `Mutex`: on Linux, `Mutex` locks with atomics and the futex system call inside the
/// uninstrumented standard library, so ThreadSanitizer does not see it lock and reports every
/// access it guards as a race (`swift test --sanitize=thread` printed hundreds of such reports).
/// ThreadSanitizer intercepts `pthread_mutex_lock` and `pthread_mutex_unlock`, so with this lock a
/// report is a real race. The cost is a call into libc for each lock and unlock: about 10 ns more
/// than `Mutex` per `withLock` in a loop that does nothing else. The locks taken once per object
/// (the ID scope table for each inserted object, the row cache for each row a fetch takes from
/// it) add that to each object, against about 3 µs an inserted object and 1 µs a fetched one.
///
/// The API is `Mutex`'s: ``withLock(_:)`` hands the body the value `inout`. The lock is not
/// recursive: a body that takes the same lock again deadlocks.
@_spi(StoreImplementation)
public final class LockedValue<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written inside `withLock`, under `mutex`.

    /// The mutex, in memory of its own: a pthread mutex must not move once initialized.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The guarded value; touched only while `mutex` is held.
    private var value: Value

    /// A lock guarding `initialValue`.
    public init(_ initialValue: sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the value while holding the lock, and returns what it returns.
    @inline(__always)
    public func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
