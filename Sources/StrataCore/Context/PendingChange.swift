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

extension ManagedObjectContext {
    /// Moves `object` into the change list of `change` (out of the one it was in).
    func setPendingChange(_ change: PendingChange, of object: ManagedObject) {
        guard object.pendingChange != change else { return }
        switch object.pendingChange {
        case .none: break
        case .inserted: insertedObjects.remove(object)
        case .updated: updatedObjects.remove(object)
        case .deleted: deletedObjects.remove(object)
        }
        switch change {
        case .none: break
        case .inserted: insertedObjects.append(object)
        case .updated: updatedObjects.append(object)
        case .deleted: deletedObjects.append(object)
        }
        object.pendingChange = change
    }

    /// Empties the three change lists.
    func clearPendingChangeLists() {
        for list in [insertedObjects, updatedObjects, deletedObjects] {
            for object in list { object.pendingChange = .none }
        }
        insertedObjects = []
        updatedObjects = []
        deletedObjects = []
    }
}
