/// The objects a context holds, by ID: one instance per ID while the object is alive (uniquing).
///
/// The registry holds objects weakly, as Core Data's context does: an object stays registered
/// while something uses it. Objects with unsaved changes are held strongly by the context's
/// `insertedObjects`, `updatedObjects` and `deletedObjects`, so they stay; an unchanged object,
/// or a fault, that nothing references any more is freed, and the next lookup of its ID makes a
/// new fault. Entries of freed objects are swept when the registry has doubled since the last
/// sweep, so lookups and registrations stay amortized O(1) and memory follows the live objects.
struct ObjectRegistry {
    /// A weak reference to a registered object.
    private struct Entry {
        weak var object: ManagedObject?
    }

    private var entries: [ManagedObjectID: Entry] = [:]
    /// The size at which the next sweep of freed entries happens.
    private var sweepThreshold = ObjectRegistry.minimumSweepThreshold
    private static let minimumSweepThreshold = 1024

    /// The live object registered for `objectID`; assigning nil unregisters it.
    subscript(objectID: ManagedObjectID) -> ManagedObject? {
        get { entries[objectID]?.object }
        set {
            guard let newValue else {
                entries[objectID] = nil
                return
            }
            entries[objectID] = Entry(object: newValue)
            if entries.count >= sweepThreshold { sweep() }
        }
    }

    /// Every live registered object (strong references, so they stay alive while in use).
    var objects: [ManagedObject] { entries.values.compactMap(\.object) }

    /// Unregisters everything.
    mutating func removeAll() {
        entries = [:]
        sweepThreshold = Self.minimumSweepThreshold
    }

    /// Drops the entries of freed objects.
    private mutating func sweep() {
        entries = entries.filter { $0.value.object != nil }
        sweepThreshold = max(Self.minimumSweepThreshold, entries.count * 2)
    }
}
