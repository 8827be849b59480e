import Dispatch
import Foundation

/// A context on its own private serial queue: Core Data's private-queue context in a shape the
/// compiler can check.
///
/// The context itself never leaves the queue; work reaches it through ``perform(_:)`` or
/// ``performAndWait(_:)``, whose body receives the context and may return only `Sendable`
/// values (object IDs, plain values):
///
/// ```swift
/// let background = container.newBackgroundContext()
/// let ids = try await background.perform { context in
///     try context.fetch(FetchRequest(entityName: "JournalEntry")).map(\.objectID)
/// }
/// ```
public final class BackgroundContext: Sendable {
    private let queue: DispatchQueue
    private let box: ContextBox
    private let queueKey = DispatchSpecificKey<UInt8>()

    /// Holds the context; touched only on `queue`, which is what makes it safe to share.
    private final class ContextBox: @unchecked Sendable {
        let context: ManagedObjectContext
        init(_ context: ManagedObjectContext) { self.context = context }
    }

    /// Creates a root context on a new private queue.
    public init(coordinator: PersistentStoreCoordinator, name: String? = nil) {
        queue = DispatchQueue(label: name ?? "strata.background-context")
        let context = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        context.name = name
        // Saves of other contexts are merged on this queue (automaticallyMergesChangesFromParent).
        context.merging.queue = { [queue] work in queue.async(execute: work) }
        box = ContextBox(context)
        queue.setSpecific(key: queueKey, value: 1)
    }

    /// Runs `body` on the context's queue and returns its result. The block is one user event,
    /// as Core Data's `perform(_:)`: when it ends (returning or throwing), the context processes
    /// its pending changes, posting ``ManagedObjectContext/objectsDidChangeNotification`` for what
    /// it changed.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [box] in
                let result = Result { try body(box.context) }
                box.context.processPendingChanges()
                continuation.resume(with: result)
            }
        }
    }

    /// Runs `body` on the context's queue, blocking until it returns (inline when already on it).
    /// As Core Data's `performAndWait(_:)`, it may be nested and does not process pending changes
    /// at the end.
    public func performAndWait<T: Sendable>(_ body: @Sendable (ManagedObjectContext) throws -> T) rethrows -> T {
        if DispatchQueue.getSpecific(key: queueKey) != nil { return try body(box.context) }
        return try queue.sync { try body(box.context) }
    }
}
