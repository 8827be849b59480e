
/// A set of object IDs that is hashed only when it is read as a `Set`.
///
/// A save reports the IDs of every object it wrote, and a context records the ID of every
/// object inserted or changed since its last change notification: hundreds of thousands of IDs
/// for a large import, most of which nobody looks at. Here added IDs are appended to a list
/// (an ID added twice is listed twice), and the `Set` is made the first time a caller asks for
/// it, and kept. Removing an ID makes the `Set` first.
///
/// A value type: copies share their storage until one of them changes. IDs added to a set are
/// first kept in a list of the value's own (``appended``), without taking the storage's lock:
/// a context adds one for every object it inserts.
struct ObjectIDSet: Sendable, Hashable {
    private struct State {
        /// The IDs while ``set`` is nil, in the order added, repeats included.
        var list: [ManagedObjectID] = []
        /// The IDs as a set, once made.
        var set: Set<ManagedObjectID>?

        mutating func makeSet() -> Set<ManagedObjectID> {
            if let set { return set }
            let made = Set(list)
            set = made
            list = []
            return made
        }

        var isEmpty: Bool { self.set?.isEmpty ?? list.isEmpty }
    }

    private final class Storage: Sendable {
        let state: LockedValue<State>
        init(_ state: State) { self.state = LockedValue(state) }
    }

    private var storage: Storage
    /// IDs added since ``storage`` was last brought up to date, in order, repeats included.
    private var appended: [ManagedObjectID] = []

    /// An empty set.
    init() { storage = Storage(State()) }

    /// The IDs of `set`.
    init(_ set: Set<ManagedObjectID>) { storage = Storage(set.isEmpty ? State() : State(set: set)) }

    /// The IDs of `list`.
    init(_ list: [ManagedObjectID]) { storage = Storage(State(list: list)) }

    /// The IDs as a `Set` (made on the first call, then kept, once ``settle()`` has run).
    var set: Set<ManagedObjectID> {
        let stored = storage.state.withLock { $0.makeSet() }
        return appended.isEmpty ? stored : stored.union(appended)
    }

    /// Whether there are none.
    var isEmpty: Bool { appended.isEmpty && storage.state.withLock { $0.isEmpty } }

    /// Adds `id`: listed, not hashed, until the set is read.
    mutating func insert(_ id: ManagedObjectID) {
        appended.append(id)
    }

    /// Removes `id` if it is in the set.
    mutating func remove(_ id: ManagedObjectID) {
        guard !isEmpty else { return }
        settle()
        storage.state.withLock { state in
            _ = state.makeSet()
            state.set?.remove(id)
        }
    }

    /// Moves the IDs added since into the shared storage, still unhashed: before the value is
    /// handed out, so that the `Set` its readers make is made once and kept.
    mutating func settle() {
        guard !appended.isEmpty else { return }
        makeUnique()
        let added = appended
        appended = []
        storage.state.withLock { state in
            // Into an empty list the added list moves whole, not copied (a large import's IDs).
            if state.set == nil, state.list.isEmpty {
                state.list = added
            } else if state.set == nil {
                state.list += added
            } else {
                state.set?.formUnion(added)
            }
        }
    }

    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&storage) else { return }
        storage = Storage(storage.state.withLock { $0 })
    }

    static func == (lhs: ObjectIDSet, rhs: ObjectIDSet) -> Bool {
        (lhs.storage === rhs.storage && lhs.appended == rhs.appended) || lhs.set == rhs.set
    }

    func hash(into hasher: inout Hasher) { hasher.combine(set) }
}
