/// The objects a context holds, by ID: one instance per ID while the object is alive (uniquing).
///
/// The registry does not keep its objects alive, as Core Data's context does not: an object
/// stays registered while something uses it. Objects with unsaved changes are held strongly by
/// the context's `insertedObjects`, `updatedObjects` and `deletedObjects`, so they stay; an
/// unchanged object, or a fault, that nothing references any more is freed, and the next lookup
/// of its ID makes a new fault.
///
/// The references are unowned and unretained, without the cost of weak references: a registered
/// object unregisters itself when it is freed (``ManagedObject``'s `deinit` calls
/// ``remove(_:ifHolding:)`` while its context is alive), and a context unregisters an object
/// before cutting it loose (`detach()` clears the object's context). So every entry is a live
/// object.
struct ObjectRegistry {
    private var entries: [ManagedObjectID: Unmanaged<ManagedObject>] = [:]

    /// The object registered for `objectID`; assigning nil unregisters it.
    subscript(objectID: ManagedObjectID) -> ManagedObject? {
        get { entries[objectID]?.takeUnretainedValue() }
        set { entries[objectID] = newValue.map(Unmanaged.passUnretained) }
    }

    /// Every registered object (strong references, so they stay alive while in use).
    var objects: [ManagedObject] { entries.values.map { $0.takeUnretainedValue() } }

    /// How many objects are registered.
    var count: Int { entries.count }

    /// Makes room for `count` objects in all, so that registering many at once does not grow the
    /// table step by step.
    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
    }

    /// Unregisters everything.
    mutating func removeAll() {
        entries = [:]
    }

    /// Unregisters `objectID` if `object` is what it is registered to: what a freed object asks.
    mutating func remove(_ objectID: ManagedObjectID, ifHolding object: Unmanaged<ManagedObject>) {
        guard let index = entries.index(forKey: objectID), entries.values[index].toOpaque() == object.toOpaque() else { return }
        entries.remove(at: index)
    }
}
