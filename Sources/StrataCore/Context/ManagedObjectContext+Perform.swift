import Dispatch

extension ManagedObjectContext {
    /// Runs `body` on the context's queue later, as one user event (Core Data's `perform(_:)`):
    /// when `body` returns, the context processes its pending changes, which posts
    /// ``objectsDidChangeNotification`` for what `body` changed and closes the undo group.
    ///
    /// - A main-queue context puts `body` on the main queue: it never runs inline, even when
    ///   `perform` is called on the main queue, but after the work already queued there.
    /// - A private-queue context (a ``BackgroundContext``'s, or a child of one) puts it on its
    ///   private queue.
    /// - A confined context has no queue of its own (its owner is its queue): `body` runs at once,
    ///   then the changes are processed.
    ///
    /// The context is kept alive until `body` has run.
    public func perform(_ body: @escaping () -> Void) {
        checkQueue()
        guard let enqueue = performQueue() else {
            body()
            processPendingChanges()
            return
        }
        let work = PerformedWork(context: self, body: body)
        enqueue { work.run() }
    }

    /// Runs `body` on the context's queue and returns its result (Core Data's
    /// `performAndWait(_:)`). A context is reached only on its queue, so this runs `body` inline:
    /// on the main thread for a main-queue context. As in Core Data it may be nested, and it does
    /// not process pending changes at the end (``perform(_:)`` does).
    public func performAndWait<T>(_ body: () throws -> T) rethrows -> T {
        checkQueue()
        return try body()
    }

    /// What puts work on this context's queue: the main queue for a main-queue context, the
    /// private queue of the ``BackgroundContext`` it is (or descends from); nil for a confined one.
    private func performQueue() -> ((@escaping @Sendable () -> Void) -> Void)? {
        switch concurrencyType {
        case .confined:
            return nil
        case .mainQueue:
            return { DispatchQueue.main.async(execute: $0) }
        case .privateQueue:
            var context: ManagedObjectContext? = self
            while let current = context {
                if let run = current.merging.queue { return { run($0) } }
                context = current.parent
            }
            return nil
        }
    }
}

/// A block given to ``ManagedObjectContext/perform(_:)`` and its context, on their way to the
/// context's queue: read only there, where the block runs (which is what makes sharing it safe).
private final class PerformedWork: @unchecked Sendable {
    let context: ManagedObjectContext
    let body: () -> Void

    init(context: ManagedObjectContext, body: @escaping () -> Void) {
        self.context = context
        self.body = body
    }

    /// Runs the block as one user event.
    func run() {
        body()
        context.processPendingChanges()
    }
}
