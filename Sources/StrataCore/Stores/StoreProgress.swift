/// Progress of a store's whole-contents work (`PersistentStore/contentsImage()` and
/// `PersistentStore/replaceContents(with:)`), object by object, for a caller that shows it
/// (the `strata` tool's progress bar).
///
/// A caller binds a handler for the work it does; stores report to it every
/// ``StoreProgress/interval`` objects and at the end. Without a handler, reporting costs a
/// task-local read.
///
/// ```swift
/// try StoreProgress.$handler.withValue({ event in print(event.phase, event.done) }) {
///     try destination.replaceContents(with: image)
/// }
/// ```
public enum StoreProgress {
    /// What a store is doing.
    public enum Phase: Sendable, Equatable {
        /// Reading objects out of the file.
        case reading
        /// Writing objects into the file.
        case writing
    }

    /// One report: `done` objects of `total` (nil when the store does not know it yet).
    public struct Event: Sendable, Equatable {
        /// What the store is doing.
        public var phase: Phase
        /// How many objects are done.
        public var done: Int
        /// How many objects there are, when known.
        public var total: Int?

        /// A report of `done` of `total` objects in `phase`.
        public init(phase: Phase, done: Int, total: Int?) {
            self.phase = phase
            self.done = done
            self.total = total
        }
    }

    /// How many objects pass between two reports.
    public static let interval = 1_000

    /// The handler of the current task's reports, if any.
    @TaskLocal public static var handler: (@Sendable (Event) -> Void)?

    /// Reports `done` of `total` objects in `phase` when `done` is a multiple of ``interval``
    /// or `force`.
    @inline(__always)
    public static func report(_ phase: Phase, done: Int, total: Int?, force: Bool = false) {
        guard force || done % interval == 0, let handler else { return }
        handler(Event(phase: phase, done: done, total: total))
    }
}
