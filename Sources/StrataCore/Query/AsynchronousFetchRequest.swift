
/// A fetch that runs on a background context's queue and hands its result to a completion
/// block there (Core Data's `NSAsynchronousFetchRequest`).
///
/// ```swift
/// let background = container.newBackgroundContext()
/// let request = AsynchronousFetchRequest(fetchRequest: FetchRequest(entityName: "JournalEntry")) { result in
///     // On the background context's queue: the objects may be used here, and only here.
///     guard case .objects(let entries)? = result.finalResult else { return }
///     for entry in entries { … }
/// }
/// let operation = background.execute(request)   // returns at once
/// await operation.wait()                         // optional: until the completion block has run
/// ```
///
/// For results that may leave the queue, the `async` methods of ``BackgroundContext``
/// (``BackgroundContext/fetchObjectIDs(_:)``, ``BackgroundContext/fetchDictionaries(_:)``,
/// ``BackgroundContext/count(for:)``, ``BackgroundContext/fetch(_:transform:)``) are simpler.
public struct AsynchronousFetchRequest: Sendable {
    /// The request run; its ``FetchRequest/resultType`` decides what ``AsynchronousFetchResult/finalResult`` holds.
    public var fetchRequest: FetchRequest<ManagedObject>
    /// Called on the context's queue with the result, or with the error.
    public var completionBlock: (@Sendable (AsynchronousFetchResult) -> Void)?

    /// Creates an asynchronous request for `fetchRequest`.
    public init(fetchRequest: FetchRequest<ManagedObject>, completionBlock: (@Sendable (AsynchronousFetchResult) -> Void)? = nil) {
        self.fetchRequest = fetchRequest
        self.completionBlock = completionBlock
    }
}

/// What an asynchronous fetch hands its completion block, on the context's queue (Core Data's
/// `NSAsynchronousFetchResult`). It holds managed objects, so it stays on that queue.
public struct AsynchronousFetchResult {
    /// The request that ran.
    public let fetchRequest: AsynchronousFetchRequest
    /// The results, or nil when the fetch failed or was cancelled.
    public let finalResult: FetchResult?
    /// Why the fetch failed (``FetchRequestError/cancelled`` when it was cancelled first).
    public let operationError: (any Error)?
    /// The context the results belong to.
    public let managedObjectContext: ManagedObjectContext
}

@available(*, unavailable, message: "An asynchronous fetch result holds managed objects, which are confined to their context.")
extension AsynchronousFetchResult: Sendable {}

/// A running asynchronous fetch: cancel it before it runs, or wait for its completion block.
public final class AsynchronousFetchOperation: Sendable {
    private let state = LockedValue<(cancelled: Bool, task: Task<Void, Never>?)>((false, nil))

    init() {}

    /// Asks the fetch not to run; a fetch that has started finishes. The completion block is
    /// still called, with ``FetchRequestError/cancelled``.
    public func cancel() { state.withLock { $0.cancelled = true } }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Returns once the fetch has run and its completion block has returned.
    public func wait() async {
        await state.withLock { $0.task }?.value
    }

    func attach(_ task: Task<Void, Never>) { state.withLock { $0.task = task } }
}

extension BackgroundContext {
    /// Runs an asynchronous fetch on the context's queue and calls its completion block there;
    /// returns at once.
    ///
    /// There is no ordering promise between the fetch and work scheduled with ``perform(_:)``
    /// after this call, as in Core Data.
    @discardableResult
    public func execute(_ request: AsynchronousFetchRequest) -> AsynchronousFetchOperation {
        let operation = AsynchronousFetchOperation()
        let task = Task {
            _ = try? await perform { context in
                let result: AsynchronousFetchResult
                if operation.isCancelled {
                    result = AsynchronousFetchResult(fetchRequest: request, finalResult: nil,
                                                     operationError: FetchRequestError.cancelled, managedObjectContext: context)
                } else {
                    do {
                        result = AsynchronousFetchResult(fetchRequest: request, finalResult: try context.execute(request.fetchRequest),
                                                         operationError: nil, managedObjectContext: context)
                    } catch {
                        result = AsynchronousFetchResult(fetchRequest: request, finalResult: nil,
                                                         operationError: error, managedObjectContext: context)
                    }
                }
                request.completionBlock?(result)
            }
        }
        operation.attach(task)
        return operation
    }

    /// Fetches on the context's queue and returns the matching objects' IDs.
    public func fetchObjectIDs<Result>(_ request: FetchRequest<Result>) async throws -> [ManagedObjectID] {
        try await perform { try $0.fetchObjectIDs(request) }
    }

    /// Fetches on the context's queue and returns the dictionaries (they are `Sendable`).
    public func fetchDictionaries<Result>(_ request: FetchRequest<Result>) async throws -> [FetchedDictionary] {
        try await perform { try $0.fetchDictionaries(request) }
    }

    /// Counts on the context's queue.
    public func count<Result>(for request: FetchRequest<Result>) async throws -> Int {
        try await perform { try $0.count(for: request) }
    }

    /// Fetches objects on the context's queue and turns each into a `Sendable` value there.
    ///
    /// ```swift
    /// let names = try await background.fetch(request) { try $0.value(forKey: "name") as? String ?? "" }
    /// ```
    public func fetch<Result, T: Sendable>(
        _ request: FetchRequest<Result>, transform: @escaping @Sendable (Result) throws -> T
    ) async throws -> [T] {
        try await perform { context in try context.fetch(request).map(transform) }
    }
}
