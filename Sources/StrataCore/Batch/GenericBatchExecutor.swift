/// Batch requests in terms of the core store requirements: what
/// ``PersistentStore/runBatch(_:)`` does for a store that is not a ``BatchExecutingStore``.
struct GenericBatchExecutor {
    let store: any PersistentStore
    var model: ManagedObjectModel { store.model }

    func insert(_ insert: StoreBatchInsert) throws -> StoreBatchResult {
        guard let entity = model.entitiesByName[insert.entityName] else { throw ObjectError.unknownEntity(insert.entityName) }
        guard !entity.isAbstract else { throw ObjectError.abstractEntity(insert.entityName) }
        guard !insert.objects.isEmpty else { return StoreBatchResult(objectIDs: []) }
        let keys = try store.allocatePrimaryKeys(rootEntity: entity.rootEntityName, count: insert.objects.count)
        let identifier = store.identifier
        let toMany = Dictionary(uniqueKeysWithValues: entity.relationships.filter { $0.isToMany && !$0.isTransient }
            .map { ($0.name, [ManagedObjectID]()) })
        var snapshots: [ObjectSnapshot] = []
        snapshots.reserveCapacity(keys.count)
        for (key, values) in zip(keys, insert.objects) {
            var attributes = AttributeValues(layout: entity.attributeLayout)
            for (name, value) in values { attributes[name] = value }
            snapshots.append(ObjectSnapshot(objectID: ManagedObjectID(entityName: entity.name, storeIdentifier: identifier, primaryKey: key),
                                            version: 1, attributes: attributes, toMany: toMany))
        }
        do {
            var request = StoreSaveRequest(inserted: snapshots)
            request.transactionInfo = insert.transactionInfo
            try store.save(request)
        } catch StoreError.constraintConflict(let conflicts) {
            let indexes = Dictionary(uniqueKeysWithValues: snapshots.enumerated().map { ($1.objectID, $0) })
            guard let conflict = conflicts.first, let index = indexes[conflict.objectID] else {
                throw StoreError.constraintConflict(conflicts)
            }
            let other = conflict.databaseObjectID.flatMap { indexes[$0] }
            throw BatchRequestError.constraintConflict(index: index, entity: conflict.entityName, properties: conflict.properties,
                                                       otherIndex: other, existingObject: other == nil ? conflict.databaseObjectID : nil)
        }
        return StoreBatchResult(objectIDs: snapshots.map(\.objectID))
    }

    func update(_ update: StoreBatchUpdate) throws -> StoreBatchResult {
        for key in update.values.keys { _ = try update.checkedAttribute(key, model: model) }
        var selection = update.selection
        selection.sortDescriptors = []
        selection.fetchOffset = 0
        selection.fetchLimit = 0
        selection.includesPropertyValues = true
        let matches = try store.fetch(selection)
        let source = StoreSnapshotSource(store: store)
        var updated: [ObjectSnapshot] = []
        updated.reserveCapacity(matches.count)
        for snapshot in matches {
            var next = snapshot
            next.toMany = [:]   // absent: unchanged
            for (key, value) in try update.resolvedValues(for: snapshot, source: source, model: model) {
                next.attributes[key] = value
            }
            updated.append(next)
        }
        if !updated.isEmpty {
            var request = StoreSaveRequest(updated: updated)
            request.transactionInfo = update.transactionInfo
            // What history records: the keys the request sets, as the SQLite store records them.
            let keys = update.values.keys.sorted()
            request.changedProperties = updated.map { _ in keys }
            try store.save(request)
        }
        return StoreBatchResult(objectIDs: updated.map(\.objectID))
    }

    func delete(_ delete: StoreBatchDelete) throws -> StoreBatchResult {
        var targets: [ObjectSnapshot]
        switch delete.target {
        case .matching(var request):
            request.includesPropertyValues = true
            targets = try store.fetch(request)
        case .objects(let ids):
            var seen: Set<ManagedObjectID> = []
            let wanted = ids.filter { $0.storeIdentifier == store.identifier && seen.insert($0).inserted }
            let found = Dictionary(try store.loadSnapshots(for: wanted).map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
            targets = wanted.compactMap { found[$0] }
        }
        var plan = DeletePlan(store: store)
        try plan.close(over: targets)
        try plan.checkDenyRules()
        try plan.nullify()
        guard !plan.order.isEmpty else { return StoreBatchResult(objectIDs: []) }
        var request = StoreSaveRequest(
            updated: plan.nullifiedOrder.compactMap { plan.nullified[$0] },
            deleted: plan.order.compactMap { id in plan.deleted[id].map { .init(objectID: id, version: $0.version) } })
        request.transactionInfo = delete.transactionInfo
        request.changedProperties = plan.nullifiedOrder.compactMap { plan.nullified[$0] == nil ? nil : plan.nullifiedKeys[$0, default: []].sorted() }
        try store.save(request)
        return StoreBatchResult(objectIDs: plan.order, nullifiedObjectIDs: plan.nullifiedOrder)
    }
}

/// The objects a batch delete removes (with its cascades) and the ones it changes (nullify),
/// worked out through the store protocol.
private struct DeletePlan {
    let store: any PersistentStore
    var model: ManagedObjectModel { store.model }
    /// Every object deleted, by ID, and in the order found.
    var deleted: [ManagedObjectID: ObjectSnapshot] = [:]
    var order: [ManagedObjectID] = []
    /// Remaining objects with relationships nullified (only the changed to-manys present).
    var nullified: [ManagedObjectID: ObjectSnapshot] = [:]
    var nullifiedOrder: [ManagedObjectID] = []
    /// The relationships nullified in each of them.
    var nullifiedKeys: [ManagedObjectID: Set<String>] = [:]
    private var loaded: [ManagedObjectID: ObjectSnapshot] = [:]

    init(store: any PersistentStore) { self.store = store }

    /// The stored relationships of `snapshot`'s entity with `rule`.
    private func relationships(of snapshot: ObjectSnapshot, rule: DeleteRule) -> [RelationshipDescription] {
        model.entitiesByName[snapshot.objectID.entityName]?.relationships.filter { $0.deleteRule == rule && !$0.isTransient } ?? []
    }

    private func destinations(of snapshot: ObjectSnapshot, _ relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        if relationship.isToMany {
            return try snapshot.toMany[relationship.name] ?? store.relatedObjectIDs(of: snapshot.objectID, relationship: relationship.name)
        }
        return snapshot.toOne[relationship.name].map { [$0] } ?? []
    }

    private mutating func load(_ ids: [ManagedObjectID]) throws {
        let missing = ids.filter { loaded[$0] == nil }
        guard !missing.isEmpty else { return }
        for snapshot in try store.loadSnapshots(for: missing) { loaded[snapshot.objectID] = snapshot }
    }

    /// Adds `targets` and, level by level, every destination of a cascade relationship.
    mutating func close(over targets: [ObjectSnapshot]) throws {
        var frontier: [ObjectSnapshot] = []
        for snapshot in targets where deleted[snapshot.objectID] == nil {
            deleted[snapshot.objectID] = snapshot
            order.append(snapshot.objectID)
            frontier.append(snapshot)
        }
        while !frontier.isEmpty {
            var next: [ManagedObjectID] = []
            for snapshot in frontier {
                for relationship in relationships(of: snapshot, rule: .cascade) {
                    next += try destinations(of: snapshot, relationship).filter { deleted[$0] == nil }
                }
            }
            try load(next)
            frontier = []
            for id in next where deleted[id] == nil {
                guard let snapshot = loaded[id] else { continue }   // a dangling reference: nothing to delete
                deleted[id] = snapshot
                order.append(id)
                frontier.append(snapshot)
            }
        }
    }

    /// Throws for the first deleted object with a `deny` relationship whose destinations remain.
    func checkDenyRules() throws {
        for id in order {
            guard let snapshot = deleted[id] else { continue }
            for relationship in relationships(of: snapshot, rule: .deny) {
                let remaining = try destinations(of: snapshot, relationship).filter { deleted[$0] == nil }
                if !remaining.isEmpty {
                    throw BatchRequestError.deleteDenied(objectID: id, relationship: relationship.name, destinationCount: remaining.count)
                }
            }
        }
    }

    /// Removes the deleted objects from the inverses of `nullify` relationships of the objects
    /// that remain.
    mutating func nullify() throws {
        for id in order {
            guard let snapshot = deleted[id] else { continue }
            for relationship in relationships(of: snapshot, rule: .nullify) {
                guard let inverseName = relationship.inverseName else { continue }
                let remaining = try destinations(of: snapshot, relationship).filter { deleted[$0] == nil }
                try load(remaining)
                for destination in remaining {
                    guard let stored = loaded[destination],
                          let inverse = model.entitiesByName[destination.entityName]?.relationship(named: inverseName),
                          !inverse.isTransient else { continue }
                    var changed = nullified[destination] ?? {
                        var copy = stored
                        copy.toMany = [:]
                        return copy
                    }()
                    if inverse.isToMany {
                        let current = try changed.toMany[inverseName] ?? destinations(of: stored, inverse)
                        changed.toMany[inverseName] = current.filter { deleted[$0] == nil }
                    } else if let pointed = changed.toOne[inverseName], deleted[pointed] != nil {
                        changed.toOne[inverseName] = nil
                    }
                    if nullified.updateValue(changed, forKey: destination) == nil { nullifiedOrder.append(destination) }
                    nullifiedKeys[destination, default: []].insert(inverseName)
                }
            }
        }
    }
}
