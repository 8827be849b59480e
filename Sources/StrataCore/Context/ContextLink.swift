import Synchronization

/// What the objects of a context share with it: the way back to the context (held weakly, once
/// for all of them) and whether they still belong to it.
///
/// A context that goes away or is reset ends its link, and every object holding the link reads
/// as cut loose from then on: the context does not visit its objects one by one (it cuts loose
/// only those that could hold a cycle of strong references, see ``ReferenceCycles``). A reset
/// context takes a new link for the objects it registers afterwards.
final class ContextLink {
    /// The context, while it exists.
    weak var context: ManagedObjectContext?
    // Atomic: the last reference to a context may go on a thread other than its queue's.
    private let ended = Atomic<Bool>(false)
    /// What records the objects' changes for the context's undo manager; nil without one.
    // Unchecked: read for every value set; written only as the context's manager changes.
    @exclusivity(unchecked) var undoRecorder: ContextUndoRecorder?

    /// Whether the context let go of the objects holding this link.
    var isEnded: Bool { ended.load(ordering: .acquiring) }

    /// Lets go of every object holding this link.
    func end() { ended.store(true, ordering: .releasing) }
}
