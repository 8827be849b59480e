import Foundation

/// Works out the changes a save records in persistent history: the part every history-keeping
/// store shares. A store calls it inside its save, before it writes, with the stored state the
/// save replaces.
@_spi(StoreImplementation)
public struct PersistentHistoryRecorder: Sendable {
    /// The store's model.
    public let model: ManagedObjectModel
    /// Whether an update records old and new values (``StoreOption/persistentHistoryValues``).
    public let recordsValues: Bool

    /// Creates a recorder.
    public init(model: ManagedObjectModel, recordsValues: Bool) {
        self.model = model
        self.recordsValues = recordsValues
    }

    /// Whether making the changes of `request` needs the stored state of the objects it updates
    /// or deletes (so a store reads only what it must): values are recorded, an update does not
    /// say what changed, or a deleted entity keeps tombstone values.
    public func needsStoredState(for request: StoreSaveRequest) -> Bool {
        if recordsValues && !request.updated.isEmpty { return true }
        if request.changedProperties.count != request.updated.count && !request.updated.isEmpty { return true }
        return request.deleted.contains { !tombstoneAttributes(of: $0.objectID.entityName).isEmpty }
    }

    /// The names of the attributes of `entityName` kept in a deletion's tombstone.
    public func tombstoneAttributes(of entityName: String) -> [String] {
        model.entity(named: entityName)?.attributes.filter(\.preservesValueInHistoryOnDeletion).map(\.name) ?? []
    }

    /// The changes of `request`, numbered from `firstChangeID`, in transaction `transactionNumber`:
    /// inserts, then updates, then deletes, each in the request's order. `stored` gives the state
    /// an updated or deleted object had before the save (nil when the store cannot say).
    public func changes(
        of request: StoreSaveRequest, transactionNumber: Int64, firstChangeID: Int64,
        stored: (ManagedObjectID) throws -> ObjectSnapshot?
    ) rethrows -> [PersistentHistoryChange] {
        var changes: [PersistentHistoryChange] = []
        changes.reserveCapacity(request.inserted.count + request.updated.count + request.deleted.count)
        var next = firstChangeID
        func add(_ change: PersistentHistoryChange) {
            changes.append(change)
            next += 1
        }
        for snapshot in request.inserted {
            add(.init(changeID: next, changedObjectID: snapshot.objectID, changeType: .insert, transactionNumber: transactionNumber))
        }
        for (index, snapshot) in request.updated.enumerated() {
            let said = request.changedProperties(ofUpdated: index)
            let before = (said == nil || recordsValues) ? try stored(snapshot.objectID) : nil
            let names = said.map(Set.init) ?? before.map { Self.differingProperties($0, snapshot) }
            var change = PersistentHistoryChange(changeID: next, changedObjectID: snapshot.objectID, changeType: .update,
                                                 updatedProperties: names, transactionNumber: transactionNumber)
            if recordsValues, let names {
                change.oldValues = before.map { Self.values(of: names, in: $0) } ?? [:]
                change.newValues = Self.values(of: names, in: snapshot)
            }
            add(change)
        }
        for deletion in request.deleted {
            let kept = tombstoneAttributes(of: deletion.objectID.entityName)
            var tombstone: [String: AttributeValue]?
            if !kept.isEmpty, let before = try stored(deletion.objectID) {
                tombstone = Self.values(of: Set(kept), in: before)
            }
            add(.init(changeID: next, changedObjectID: deletion.objectID, changeType: .delete, tombstone: tombstone,
                      transactionNumber: transactionNumber))
        }
        return changes
    }

    /// The stored properties (attributes, to-ones) whose values differ between two snapshots.
    static func differingProperties(_ old: ObjectSnapshot, _ new: ObjectSnapshot) -> Set<String> {
        var names = Set<String>()
        for (name, value) in new.attributes.dictionary where old.attributes[name] != value { names.insert(name) }
        for (name, _) in old.attributes.dictionary where new.attributes[name] == nil { names.insert(name) }
        for (name, value) in new.toOne.dictionary where old.toOne[name] != value { names.insert(name) }
        for (name, _) in old.toOne.dictionary where new.toOne[name] == nil { names.insert(name) }
        return names
    }

    /// The values of `names` in `snapshot` (a to-one's as its destination ID); nil values left out.
    static func values(of names: Set<String>, in snapshot: ObjectSnapshot) -> [String: AttributeValue] {
        var values: [String: AttributeValue] = [:]
        for name in names {
            if let value = snapshot.attributes[name] {
                values[name] = value
            } else if let destination = snapshot.toOne[name] {
                values[name] = .objectID(destination)
            }
        }
        return values
    }
}
