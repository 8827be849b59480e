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
///
/// Objects with temporary IDs (inserted and not yet saved) are kept in a table of their own:
/// a save that gives every one of them a permanent ID empties it at once, instead of removing
/// its entries one by one.
struct ObjectRegistry {
    private var permanent: [ManagedObjectID: Unmanaged<ManagedObject>] = [:]
    private var temporary: [ManagedObjectID: Unmanaged<ManagedObject>] = [:]

    /// The object registered for `objectID`; assigning nil unregisters it.
    subscript(objectID: ManagedObjectID) -> ManagedObject? {
        get {
            (objectID.isTemporaryID ? temporary[objectID] : permanent[objectID])?.takeUnretainedValue()
        }
        set {
            let entry = newValue.map(Unmanaged.passUnretained)
            if objectID.isTemporaryID { temporary[objectID] = entry } else { permanent[objectID] = entry }
        }
    }

    /// Every registered object (strong references, so they stay alive while in use).
    var objects: [ManagedObject] {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(count)
        for entry in permanent.values { objects.append(entry.takeUnretainedValue()) }
        for entry in temporary.values { objects.append(entry.takeUnretainedValue()) }
        return objects
    }

    /// How many objects are registered.
    var count: Int { permanent.count + temporary.count }

    /// Makes room for `count` objects with permanent IDs in all, so that registering many at
    /// once does not grow the table step by step.
    mutating func reserveCapacity(_ count: Int) {
        permanent.reserveCapacity(count)
    }

    /// Unregisters everything.
    mutating func removeAll() {
        permanent = [:]
        temporary = [:]
    }

    /// Unregisters `objectID` if `object` is what it is registered to: what a freed object asks.
    mutating func remove(_ objectID: ManagedObjectID, ifHolding object: Unmanaged<ManagedObject>) {
        if objectID.isTemporaryID {
            Self.remove(objectID, ifHolding: object, from: &temporary)
        } else {
            Self.remove(objectID, ifHolding: object, from: &permanent)
        }
    }

    private static func remove(_ objectID: ManagedObjectID, ifHolding object: Unmanaged<ManagedObject>,
                               from table: inout [ManagedObjectID: Unmanaged<ManagedObject>]) {
        guard let index = table.index(forKey: objectID), table.values[index].toOpaque() == object.toOpaque() else { return }
        table.remove(at: index)
    }

    /// Registers `objects`, which were registered by `previousIDs` (in the same order), by their
    /// IDs now: what a save that gave inserted objects permanent IDs asks. Every object is
    /// registered by its previous ID, as a context's inserted objects always are.
    mutating func rekey(_ objects: [ManagedObject], from previousIDs: [ManagedObjectID]) {
        permanent.reserveCapacity(permanent.count + objects.count)
        var temporaryLeft = temporary.count
        for (object, previous) in zip(objects, previousIDs) where previous != object.objectID {
            if previous.isTemporaryID { temporaryLeft -= 1 } else { permanent[previous] = nil }
            permanent[object.objectID] = Unmanaged.passUnretained(object)
        }
        if temporaryLeft == 0 {
            temporary = [:]
        } else {
            for previous in previousIDs where previous.isTemporaryID { temporary[previous] = nil }
        }
    }
}
