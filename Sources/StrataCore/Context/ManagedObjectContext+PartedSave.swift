/// What a save's write hands back for the saved objects to keep as their saved states.
struct SavedStates {
    /// The new committed states of the inserted objects, in their order; nil when they went in
    /// parts, each object's being its current state, made again as it is committed.
    var inserted: [ObjectSnapshot]? = []
    /// The new committed states of the updated objects, in their order.
    var updated: [ObjectSnapshot] = []
}

/// A save sent in parts (``PartedSaveStore``).
enum PartedSave {
    /// Why a save sent in parts stops, rolled back, to go whole.
    enum Fallback: Error {
        /// A new object's to-many must be written from its side (a destination that does not
        /// hold it in the inverse to-one, or known by IDs only).
        case wholeSaveNeeded
    }
}

extension ManagedObjectContext {
    /// The store to send `inserted` to in parts, with how many go in each, when a root
    /// context's save of them writes every object into that one store and it takes parts.
    func partedSaveStore(
        inserted: [ManagedObject], updated: [ManagedObject], deleted: [StoreSaveRequest.DeletedObject]
    ) -> (store: any PartedSaveStore, perPart: Int)? {
        guard parent == nil, let identifier = inserted.first?.objectID.storeIdentifier,
              let parted = persistentStoreCoordinator.partedSave(in: identifier, newObjects: inserted.count) else { return nil }
        func isInStore(_ id: ManagedObjectID) -> Bool { id.storeIdentifier == identifier }
        guard inserted.allSatisfy({ isInStore($0.objectID) }), updated.allSatisfy({ isInStore($0.objectID) }),
              deleted.allSatisfy({ isInStore($0.objectID) }) else { return nil }
        return parted
    }

    /// Sends `inserted` to `parted.store` a part at a time, each part's snapshots made as the
    /// store asks for it and gone once written, then `lastPart` (the updates and deletes), in
    /// one transaction. The snapshots leave out the to-manys the destinations' rows carry
    /// (``ManagedObject/currentSnapshot(version:leavingOutHeldToManys:)``).
    ///
    /// - Throws: ``PartedSave/Fallback/wholeSaveNeeded`` when a new object's to-many must be
    ///   written from its side (nothing landed), or what the store throws.
    func sendInParts(_ inserted: [ManagedObject], to parted: (store: any PartedSaveStore, perPart: Int), lastPart: StoreSaveRequest) throws {
        var next = 0
        var last: StoreSaveRequest? = lastPart.updated.isEmpty && lastPart.deleted.isEmpty ? nil : lastPart
        try persistentStoreCoordinator.save(inParts: parted.store) {
            guard next < inserted.count else {
                defer { last = nil }
                return last
            }
            let end = min(next + parted.perPart, inserted.count)
            var part = StoreSaveRequest()
            part.transactionInfo = lastPart.transactionInfo
            part.inserted.reserveCapacity(end - next)
            for object in inserted[next..<end] {
                guard let snapshot = object.currentSnapshot(version: 1, leavingOutHeldToManys: true) else {
                    throw PartedSave.Fallback.wholeSaveNeeded
                }
                part.inserted.append(snapshot)
            }
            next = end
            return part
        }
    }
}
