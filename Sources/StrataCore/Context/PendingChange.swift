/// Which of its context's change lists holds an object: ``ManagedObjectContext/insertedObjects``,
/// ``ManagedObjectContext/updatedObjects``, ``ManagedObjectContext/deletedObjects``, or none.
///
/// The context keeps it on each object together with the lists, so that recording a change, or
/// asking whether an object is inserted, needs no lookup in them.
enum PendingChange: UInt8 {
    case none
    case inserted
    case updated
    case deleted
}

/// A context's inserted, updated and deleted objects, each list in the order the changes were
/// made. An object is in at most one list, the one its ``ManagedObject/pendingChange`` names:
/// adding needs no membership test, and removing (a delete of an inserted object, a refresh of
/// a changed one) searches by identity.
struct ChangeLists {
    private(set) var inserted: [ManagedObject] = []
    private(set) var updated: [ManagedObject] = []
    private(set) var deleted: [ManagedObject] = []
    /// Counts the changes to the lists: equal counts before and after some work mean the work
    /// changed nothing in them.
    private(set) var version = 0
    /// Whether a listed object is of a subclass, whose `willSave()`, `didSave()` or validation
    /// may do something: without one, a save skips the passes that would only call the base
    /// class's (empty or rule-driven) methods. Stays set while objects leave the lists.
    private(set) var holdsSubclassObjects = false
    /// Whether a listed object's entity has a rule its validation checks (a property rule for an
    /// insert or update, a `deny` delete rule for a delete). Stays set while objects leave.
    private(set) var holdsObjectsWithRules = false

    /// Whether no object is in any list.
    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// Every object of the three lists, inserted first.
    var all: [ManagedObject] { inserted + updated + deleted }

    /// Moves `object` into the list of `change` (out of the one it was in).
    mutating func set(_ change: PendingChange, of object: ManagedObject) {
        guard object.pendingChange != change else { return }
        version &+= 1
        switch object.pendingChange {
        case .none: break
        case .inserted: Self.remove(object, from: &inserted)
        case .updated: Self.remove(object, from: &updated)
        case .deleted: Self.remove(object, from: &deleted)
        }
        if change != .none {
            // Read while the object is at hand, so that a save need not visit every object.
            if !holdsSubclassObjects, type(of: object) != ManagedObject.self { holdsSubclassObjects = true }
            if !holdsObjectsWithRules,
               change == .deleted ? object.entity.hasDenyRule : !object.entity.propertyRules.isEmpty {
                holdsObjectsWithRules = true
            }
        }
        switch change {
        case .none: break
        case .inserted: inserted.append(object)
        case .updated: updated.append(object)
        case .deleted: deleted.append(object)
        }
        object.pendingChange = change
    }

    /// Empties the three lists.
    mutating func removeAll() {
        for list in [inserted, updated, deleted] {
            for object in list { object.pendingChange = .none }
        }
        forgetAll()
    }

    /// Empties the lists of objects whose pending change the caller has already cleared.
    mutating func forgetAll() {
        let next = version &+ 1
        self = ChangeLists()
        version = next
    }

    private static func remove(_ object: ManagedObject, from list: inout [ManagedObject]) {
        if let index = list.lastIndex(where: { $0 === object }) { list.remove(at: index) }
    }
}
