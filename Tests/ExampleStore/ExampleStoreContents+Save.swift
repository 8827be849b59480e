import Foundation
@_spi(StoreImplementation) import StrataCore

extension ExampleStoreContents {
    /// Applies a save: checks every version first (optimistic locking), then inserts, updates
    /// and deletes, then checks uniqueness constraints. Throws part way through, so the caller
    /// applies it to a copy and keeps the copy only when it returns.
    mutating func apply(_ request: StoreSaveRequest, model: ManagedObjectModel) throws {
        try checkVersions(of: request)
        for snapshot in request.inserted {
            guard objects[snapshot.objectID] == nil else { throw StoreError.duplicateObject(snapshot.objectID) }
            objects[snapshot.objectID] = snapshot
            reserveKey(of: snapshot.objectID, model: model)
        }
        for snapshot in request.updated {
            guard let stored = objects[snapshot.objectID] else { throw StoreError.missingObject(snapshot.objectID) }
            var saved = snapshot
            // Versions are compared only for equality, so wrapping past Int64.max is harmless.
            saved.version = stored.version &+ 1
            // A to-many the saver left out of the snapshot is unchanged.
            saved.toMany = stored.toMany.merging(snapshot.toMany) { _, new in new }
            objects[snapshot.objectID] = saved
        }
        for deletion in request.deleted {
            objects[deletion.objectID] = nil
        }
        DerivedValues.update(&objects, after: request, model: model)
        try checkUniqueness(of: request.inserted + request.updated, model: model)
    }

    /// Throws one merge conflict listing every updated or deleted object whose stored version
    /// is not the one its saver read (or that is gone).
    private func checkVersions(of request: StoreSaveRequest) throws {
        var conflicts: [MergeConflict] = []
        func check(_ objectID: ManagedObjectID, read version: Int64) {
            let stored = objects[objectID]
            guard stored?.version != version else { return }
            conflicts.append(MergeConflict(objectID: objectID, oldVersion: version, newVersion: stored?.version ?? 0,
                                           persistedSnapshot: stored))
        }
        for snapshot in request.updated { check(snapshot.objectID, read: snapshot.version) }
        for deletion in request.deleted { check(deletion.objectID, read: deletion.version) }
        if !conflicts.isEmpty { throw StoreError.mergeConflict(conflicts) }
    }

    /// Moves the next key of the object's inheritance root past the object's own key, so that
    /// an object inserted with a key of its choosing is never handed out again.
    private mutating func reserveKey(of objectID: ManagedObjectID, model: ManagedObjectModel) {
        guard let key = objectID.primaryKey else { return }
        let root = model.entitiesByName[objectID.entityName]?.rootEntityName ?? objectID.entityName
        nextPrimaryKeys[root] = max(nextPrimaryKeys[root] ?? 1, key == .max ? key : key + 1)
    }

    /// Throws a constraint conflict when a saved object shares the values of a uniqueness
    /// constraint (of its entity or an ancestor) with another object; a nil value is not checked.
    private func checkUniqueness(of saved: [ObjectSnapshot], model: ManagedObjectModel) throws {
        var conflicts: [ConstraintConflict] = []
        for snapshot in saved {
            var entity = model.entity(named: snapshot.objectID.entityName)
            while let current = entity {
                for constraint in current.uniquenessConstraints {
                    guard let values = constrainedValues(constraint, of: snapshot) else { continue }
                    let holder = objects.values
                        .filter { $0.objectID != snapshot.objectID && model.entity($0.objectID.entityName, isKindOf: current.name) }
                        .filter { constrainedValues(constraint, of: $0) == values }
                        .map(\.objectID)
                        .min(by: ManagedObjectID.storeOrder)
                    if let holder {
                        conflicts.append(ConstraintConflict(entityName: current.name, properties: constraint,
                                                            objectID: snapshot.objectID, databaseObjectID: holder))
                    }
                }
                entity = current.superentityName.flatMap { model.entity(named: $0) }
            }
        }
        if !conflicts.isEmpty { throw StoreError.constraintConflict(conflicts) }
    }

    /// The values of a constraint's properties in a snapshot, or nil when one is nil.
    private func constrainedValues(_ constraint: [String], of snapshot: ObjectSnapshot) -> [AttributeValue]? {
        var values: [AttributeValue] = []
        for property in constraint {
            if let value = snapshot.attributes[property] {
                values.append(value)
            } else if let destination = snapshot.toOne[property] {
                values.append(.objectID(destination))
            } else {
                return nil
            }
        }
        return values
    }
}
