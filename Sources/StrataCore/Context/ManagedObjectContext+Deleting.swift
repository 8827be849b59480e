extension ManagedObjectContext {
    /// Deletes an object and applies its relationships' delete rules at once: `cascade`
    /// deletes the destinations, `nullify` removes the object from their inverses, `deny` is
    /// checked when saving (the save fails while destinations remain), `noAction` does nothing.
    ///
    /// - Throws: ``ObjectError/wrongContext(_:)`` for an object of another context, or an error
    ///   loading the object or its destinations.
    public func delete(_ object: ManagedObject) throws {
        checkQueue()
        guard object.managedObjectContext === self else { throw ObjectError.wrongContext(object.objectID) }
        // Deleting an object already deleted calls its hook again, as Core Data does, and does
        // nothing else; an object whose row a merge reported deleted has nothing left to delete.
        if object.pendingChange == .deleted || object.isDeletedInStore {
            if !object.isInvalidated { object.prepareForDeletion() }
            return
        }
        try deleteApplyingRules(object)
    }

    /// Deletes `object` (not yet deleted) and applies its delete rules; a rule that leads back to
    /// an object already deleted stops there, with no second hook call.
    func deleteApplyingRules(_ object: ManagedObject) throws {
        guard object.pendingChange != .deleted, !object.isDeletedInStore, !object.isInvalidated else { return }
        try object.fulfillFault()
        let listedBefore = object.pendingChange
        let wasInserted = listedBefore == .inserted
        // Marked deleted while its delete rules run (an unsaved insert too), so that a rule
        // leading back to it stops there.
        changeLists.set(.deleted, of: object)
        if wasInserted {
            pendingChanges.insertedIDs.remove(object.objectID)
        } else {
            pendingChanges.updatedIDs.remove(object.objectID)
            pendingChanges.deletedIDs.insert(object.objectID)
        }
        do {
            try applyDeleteRules(of: object)
        } catch {
            // An unsaved insert is forgotten by the save whatever its rules did.
            if wasInserted { changeLists.set(.none, of: object) }
            throw error
        }
        objectsLink.undoRecorder?.deleted(object, listedBefore: listedBefore)
        if wasInserted {
            // Never saved, so nothing to delete from a store: the object is simply forgotten.
            changeLists.set(.none, of: object)
            registry[object.objectID] = nil
            object.detach()
        }
    }

    /// Calls `prepareForDeletion()` and applies the delete rule of each of `object`'s relationships.
    private func applyDeleteRules(of object: ManagedObject) throws {
        object.prepareForDeletion()
        for relationship in object.entity.relationships {
            switch relationship.deleteRule {
            case .cascade:
                // Destinations never loaded are deleted by the save in the store, when nothing
                // needs them as objects.
                if cascadesInStore(relationship, of: object) { continue }
                let destinations = try object.destinations(of: relationship)
                // The destinations' faults are filled together, not with a store request each.
                try fillFaults(destinations)
                for destination in destinations { try deleteApplyingRules(destination) }
            case .nullify:
                if let inverse = object.inverse(of: relationship.name) {
                    let destinations = try object.destinations(of: relationship)
                    try fillFaults(destinations)
                    for destination in destinations where !destination.isInvalidated {
                        try destination.unlink(object, from: inverse)
                    }
                }
            case .deny, .noAction:
                break
            }
        }
    }
}
