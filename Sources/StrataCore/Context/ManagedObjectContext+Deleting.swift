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
        guard object.pendingChange != .deleted, !object.isInvalidated else { return }
        try object.fulfillFault()
        let wasInserted = object.pendingChange == .inserted
        if wasInserted {
            setPendingChange(.none, of: object)
            pendingChanges.inserted.remove(object.objectID)
        } else {
            setPendingChange(.deleted, of: object)
            pendingChanges.updated.remove(object.objectID)
            pendingChanges.deleted.insert(object.objectID)
        }
        object.prepareForDeletion()
        for relationship in object.entity.relationships {
            let destinations = try object.destinations(of: relationship)
            switch relationship.deleteRule {
            case .cascade:
                // The destinations' faults are filled together, not with a store request each.
                try fillFaults(destinations)
                for destination in destinations { try delete(destination) }
            case .nullify:
                if let inverse = object.inverse(of: relationship.name) {
                    try fillFaults(destinations)
                    for destination in destinations where !destination.isInvalidated {
                        try destination.unlink(object, from: inverse)
                    }
                }
            case .deny, .noAction:
                break
            }
        }
        if wasInserted {
            registry[object.objectID] = nil
            object.detach()
        }
    }
}
