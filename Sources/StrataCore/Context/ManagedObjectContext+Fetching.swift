import OrderedCollections

extension ManagedObjectContext {
    /// The objects a request matches, in the request's order.
    ///
    /// With `includesPendingChanges` (the default) unsaved inserts that match are included,
    /// unsaved deletes are left out and changed objects are judged by their current values.
    /// Across several stores, order, offset and limit apply to the combined result.
    ///
    /// - Throws: ``ObjectError/unknownEntity(_:)``, an error evaluating the predicate, or what a
    ///   store throws.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        checkQueue()
        processPendingChanges()
        let entities = try persistentStoreCoordinator.concreteEntities(for: request)
        let pending = request.includesPendingChanges ? pendingObjects(in: entities) : []
        let offset = request.fetchOffset
        let limit = request.fetchLimit
        let storeCount = parent == nil ? try persistentStoreCoordinator.storeCount(for: request) : 1
        let rangedAtSource = pending.isEmpty && storeCount <= 1

        var sourceRequest = request
        sourceRequest.fetchOffset = rangedAtSource ? offset : 0
        sourceRequest.fetchLimit = rangedAtSource ? limit : (pending.isEmpty && limit > 0 ? offset + limit : 0)
        var objects = try sourceObjects(sourceRequest)
        guard !rangedAtSource else { return objects }

        if !pending.isEmpty {
            var seen = Set<ManagedObject>()
            objects = objects.filter { !deletedObjects.contains($0) && !updatedObjects.contains($0) && seen.insert($0).inserted }
            for object in pending where !deletedObjects.contains(object) && !seen.contains(object) {
                if try request.predicate?.evaluate(with: object) ?? true {
                    objects.append(object)
                    seen.insert(object)
                }
            }
        }
        objects = try request.sortDescriptors.sorted(objects) { $0 }
        let start = min(offset, objects.count)
        let end = limit > 0 ? min(start + limit, objects.count) : objects.count
        return Array(objects[start..<end])
    }

    /// Fetches objects of a registered subclass.
    public func fetch<T: ManagedObject>(_ request: FetchRequest, as type: T.Type) throws -> [T] {
        try fetch(request).compactMap { $0 as? T }
    }

    /// The IDs of the objects a request matches.
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ManagedObjectID] {
        try fetch(request).map(\.objectID)
    }

    /// How many objects a request matches (offset and limit applied).
    public func count(for request: FetchRequest) throws -> Int {
        checkQueue()
        let entities = try persistentStoreCoordinator.concreteEntities(for: request)
        let pending = request.includesPendingChanges ? pendingObjects(in: entities) : []
        if pending.isEmpty, parent == nil {
            let total = try persistentStoreCoordinator.countObjects(request) - request.fetchOffset
            return max(0, request.fetchLimit > 0 ? min(total, request.fetchLimit) : total)
        }
        return try fetch(request).count
    }

    /// The changed objects (inserted, updated, deleted) of the given entities.
    private func pendingObjects(in entities: Set<String>) -> [ManagedObject] {
        (insertedObjects.elements + updatedObjects.elements + deletedObjects.elements)
            .filter { entities.contains($0.entity.name) }
    }

    /// Objects from the parent context or the stores, registered (and filled) here.
    private func sourceObjects(_ request: FetchRequest) throws -> [ManagedObject] {
        if let parent {
            var parentRequest = request
            parentRequest.includesPendingChanges = true
            return try parent.fetch(parentRequest).map { try object(with: $0.objectID) }
        }
        let perStore = try persistentStoreCoordinator.fetchSnapshots(
            request, offset: request.fetchOffset, limit: request.fetchLimit)
        var objects: [ManagedObject] = []
        for snapshots in perStore {
            for snapshot in snapshots {
                let object = try object(with: snapshot.objectID)
                if object.isFault, !object.isInvalidated { try object.load(snapshot, in: self) }
                objects.append(object)
            }
        }
        return objects
    }
}
