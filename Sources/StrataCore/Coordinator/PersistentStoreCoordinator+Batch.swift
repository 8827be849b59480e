extension PersistentStoreCoordinator {
    /// Inserts the objects of a batch insert into the store assigned to its entity, in one
    /// transaction, without managed objects.
    ///
    /// Every object is checked first (its keys, the types of its values, its non-optional
    /// attributes, uniqueness constraints within the request); the first that fails stops the
    /// request before any store is touched.
    ///
    /// - Throws: ``ObjectError/unknownEntity(_:)``, ``ObjectError/abstractEntity(_:)``,
    ///   ``BatchRequestError`` naming the object's index and key, ``StoreError``.
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        try execute(request, transactionInfo: nil)
    }

    /// ``execute(_:)-(BatchInsertRequest)``, recorded in persistent history as `transactionInfo` says
    /// (the author and name of the context that executes it).
    func execute(_ request: BatchInsertRequest, transactionInfo: HistoryTransactionInfo?) throws -> BatchResult {
        guard let entity = managedObjectModel.entitiesByName[request.entityName] else {
            throw ObjectError.unknownEntity(request.entityName)
        }
        guard !entity.isAbstract else { throw ObjectError.abstractEntity(request.entityName) }
        let store = try insertStore(for: entity.name, among: request.affectedStoreIdentifiers)
        var objects: [[String: AttributeValue]] = []
        if let given = request.objectsToInsert {
            objects.reserveCapacity(given.count)
            for (index, values) in given.enumerated() { objects.append(try storedValues(values, index: index, entity: entity)) }
        } else if let handler = request.dictionaryHandler {
            while true {
                var values: [String: Any?] = [:]
                if handler(&values) { break }
                objects.append(try storedValues(values, index: objects.count, entity: entity))
            }
        }
        try checkUniqueness(objects, entity: entity)
        defer { rowCache.removeAll() }
        var insert = StoreBatchInsert(entityName: entity.name, objects: objects)
        insert.transactionInfo = transactionInfo
        let result = try store.runBatch(.insert(insert))
        return BatchResult(request.resultType, objectIDs: result.objectIDs, changeKey: ManagedObjectContext.insertedObjectsKey)
    }

    /// Sets attributes of every object a batch update selects, in each store that can hold its
    /// entity (one transaction per store), without managed objects.
    ///
    /// - Throws: ``ObjectError/unknownEntity(_:)``, ``BatchRequestError`` for a key or constant
    ///   the entity cannot take (before any store is touched) or an expression whose value an
    ///   object cannot take, ``StoreError``.
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        try execute(request, transactionInfo: nil)
    }

    /// ``execute(_:)-(BatchUpdateRequest)``, recorded in persistent history as `transactionInfo` says
    /// (the author and name of the context that executes it).
    func execute(_ request: BatchUpdateRequest, transactionInfo: HistoryTransactionInfo?) throws -> BatchResult {
        guard let entity = managedObjectModel.entitiesByName[request.entityName] else {
            throw ObjectError.unknownEntity(request.entityName)
        }
        guard !request.propertiesToUpdate.isEmpty else { throw BatchRequestError.noPropertiesToUpdate(entity: entity.name) }
        var values: [String: StoreBatchUpdate.Value] = [:]
        for key in request.propertiesToUpdate.keys.sorted() {
            let attribute = try BatchValues.storedAttribute(key, of: entity, index: nil)
            let value = request.propertiesToUpdate[key] ?? nil
            if let expression = value as? ObjectExpression {
                if case .constant(let constant) = expression {
                    values[key] = .constant(try storedConstant(constant, for: attribute, entity: entity))
                } else {
                    values[key] = .expression(expression)
                }
            } else {
                values[key] = .constant(try storedConstant(value, for: attribute, entity: entity))
            }
        }
        var fetch = FetchRequest(entityName: entity.name, predicate: request.predicate)
        fetch.includesSubentities = request.includesSubentities
        fetch.affectedStoreIdentifiers = request.affectedStoreIdentifiers
        var updated: [ManagedObjectID] = []
        for (store, held) in try batchStores(for: fetch) {
            let selection = StoreFetchRequest(entityNames: held, predicate: request.predicate, includesPropertyValues: false)
            defer { rowCache.removeAll() }
            var update = StoreBatchUpdate(selection: selection, values: values)
            update.transactionInfo = transactionInfo
            updated += try store.runBatch(.update(update)).objectIDs
        }
        return BatchResult(request.resultType, objectIDs: updated, changeKey: ManagedObjectContext.updatedObjectsKey)
    }

    /// Deletes what a batch delete names, applying the model's delete rules, in each store
    /// involved (one transaction per store), without managed objects.
    ///
    /// - Throws: ``ObjectError/unknownEntity(_:)``, ``BatchRequestError/temporaryObjectID(_:)``,
    ///   ``StoreError/storeNotLoaded(_:)`` for an ID of a store this coordinator does not have,
    ///   ``BatchRequestError/deleteDenied(objectID:relationship:destinationCount:)``, ``StoreError``.
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        try execute(request, transactionInfo: nil)
    }

    /// ``execute(_:)-(BatchDeleteRequest)``, recorded in persistent history as `transactionInfo` says
    /// (the author and name of the context that executes it).
    func execute(_ request: BatchDeleteRequest, transactionInfo: HistoryTransactionInfo?) throws -> BatchResult {
        var work: [(any PersistentStore, StoreBatchDelete.Target)] = []
        switch request.target {
        case .fetchRequest(let fetch):
            let ranged = fetch.fetchLimit > 0 || fetch.fetchOffset > 0
            for (store, held) in try batchStores(for: fetch) {
                work.append((store, .matching(StoreFetchRequest(
                    entityNames: held, predicate: fetch.predicate, sortDescriptors: ranged ? fetch.sortDescriptors : [],
                    fetchOffset: fetch.fetchOffset, fetchLimit: fetch.fetchLimit, includesPropertyValues: false))))
            }
        case .objectIDs(let ids):
            var byStore: [String: [ManagedObjectID]] = [:]
            var order: [any PersistentStore] = []
            for id in ids {
                guard !id.isTemporaryID, let storeIdentifier = id.storeIdentifier else { throw BatchRequestError.temporaryObjectID(id) }
                guard managedObjectModel.entitiesByName[id.entityName] != nil else { throw ObjectError.unknownEntity(id.entityName) }
                guard let store = persistentStore(withIdentifier: storeIdentifier) else { throw StoreError.storeNotLoaded(storeIdentifier) }
                if byStore[storeIdentifier] == nil { order.append(store) }
                byStore[storeIdentifier, default: []].append(id)
            }
            work = order.map { ($0, .objects(byStore[$0.identifier] ?? [])) }
        }
        var deleted: [ManagedObjectID] = []
        var nullified: [ManagedObjectID] = []
        for (store, target) in work {
            defer { rowCache.removeAll() }
            var delete = StoreBatchDelete(target: target)
            delete.transactionInfo = transactionInfo
            let result = try store.runBatch(.delete(delete))
            deleted += result.objectIDs
            nullified += result.nullifiedObjectIDs
        }
        return BatchResult(request.resultType, objectIDs: deleted, changeKey: ManagedObjectContext.deletedObjectsKey, nullified: nullified)
    }

    // MARK: Checking values

    /// One object's stored values: defaults, then the given values, every non-optional attribute
    /// present.
    private func storedValues(_ given: [String: Any?], index: Int, entity: EntityDescription) throws -> [String: AttributeValue] {
        var values: [String: AttributeValue] = [:]
        for attribute in entity.attributes where !attribute.isTransient && !attribute.isDerived {
            if let value = attribute.defaultValue { values[attribute.name] = value }
        }
        for key in given.keys.sorted() {
            let attribute = try BatchValues.storedAttribute(key, of: entity, index: index)
            do {
                values[key] = try BatchValues.storedValue(given[key] ?? nil, for: attribute, entity: entity.name)
            } catch let error as ObjectError {
                throw BatchRequestError.invalidValue(index: index, key: key, error: error)
            }
        }
        for attribute in entity.attributes where !attribute.isOptional && !attribute.isTransient && !attribute.isDerived {
            if values[attribute.name] == nil {
                throw BatchRequestError.missingValue(index: index, entity: entity.name, key: attribute.name)
            }
        }
        return values
    }

    /// A constant of an update in its stored form.
    private func storedConstant(_ value: Any?, for attribute: AttributeDescription, entity: EntityDescription) throws -> AttributeValue? {
        let stored: AttributeValue?
        do {
            stored = try BatchValues.storedValue(value, for: attribute, entity: entity.name)
        } catch let error as ObjectError {
            throw BatchRequestError.invalidValue(index: nil, key: attribute.name, error: error)
        }
        if stored == nil, !attribute.isOptional {
            throw BatchRequestError.missingValue(index: nil, entity: entity.name, key: attribute.name)
        }
        return stored
    }

    /// Refuses two objects of one insert with the same values of a uniqueness constraint of the
    /// entity or an ancestor (a constraint with a nil value is not checked, as in the stores).
    private func checkUniqueness(_ objects: [[String: AttributeValue]], entity: EntityDescription) throws {
        var current: EntityDescription? = entity
        while let each = current {
            for constraint in each.uniquenessConstraints {
                var seen: [[AttributeValue]: Int] = [:]
                for (index, values) in objects.enumerated() {
                    let key = constraint.compactMap { values[$0] }
                    guard key.count == constraint.count else { continue }
                    if let first = seen.updateValue(index, forKey: key) {
                        throw BatchRequestError.constraintConflict(index: index, entity: each.name, properties: constraint,
                                                                   otherIndex: first, existingObject: nil)
                    }
                }
            }
            current = each.superentityName.flatMap { managedObjectModel.entitiesByName[$0] }
        }
    }

    // MARK: Routing

    /// The store a batch insert goes to.
    private func insertStore(for entity: String, among identifiers: [String]?) throws -> any PersistentStore {
        guard let identifiers else { return try assignedStore(forNewObjectOf: entity) }
        guard let store = stores(forEntity: entity).first(where: { identifiers.contains($0.identifier) }) else {
            throw StoreError.noStoreForEntity(entity)
        }
        return store
    }

    /// Every store a request's selection may touch, with the concrete entities it holds.
    private func batchStores(for fetch: FetchRequest<ManagedObject>) throws -> [(any PersistentStore, Set<String>)] {
        let entities = try concreteEntities(for: fetch)
        return persistentStores.compactMap { store in
            if let only = fetch.affectedStoreIdentifiers, !only.contains(store.identifier) { return nil }
            let held = entities.filter { storeCanHold(store, entity: $0) }
            return held.isEmpty ? nil : (store, held)
        }
    }
}
