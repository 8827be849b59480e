import Foundation

/// A fetch request kept up to date as its context changes, split into sections, telling its
/// delegate which rows and sections were inserted, deleted, moved or updated (Core Data's
/// `NSFetchedResultsController`).
///
/// ```swift
/// var request = FetchRequest(entityName: "Employee", sortDescriptors: [
///     ObjectSortDescriptor(key: "sectionName"), ObjectSortDescriptor(key: "height")])
/// let controller = FetchedResultsController<ManagedObject>(
///     fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "sectionName")
/// controller.delegate = table
/// try controller.performFetch()
/// let first = controller.object(at: IndexPath(indexes: [0, 0]))
/// ```
///
/// The request needs a sort descriptor, and with a `sectionNameKeyPath` its first sort key must
/// order the objects by section: be that key path, or one that orders objects the same way
/// (``FetchedResultsError``). Objects with equal sort keys are ordered by object ID. The controller follows its context's ``ManagedObjectContext/objectsDidChangeNotification``
/// (changes processed, merges) and ``ManagedObjectContext/didSaveNotification``: a change of k
/// objects costs O(k log n), without a fetch. See `docs/fetched-results-controller.md`.
///
/// Like its context, a controller is confined to the context's queue.
public final class FetchedResultsController<ResultType: ManagedObject>: FetchedResultsControlling {
    /// The request fetched.
    public let fetchRequest: FetchRequest<ManagedObject>
    /// The key path whose value names each object's section; nil for one section.
    public let sectionNameKeyPath: String?
    /// The name of the cache on disk; nil for none.
    public let cacheName: String?
    /// Told of each batch of changes.
    public weak var delegate: (any FetchedResultsControllerDelegate)?

    /// The context, held strongly (``init(fetchRequest:managedObjectContext:sectionNameKeyPath:cacheName:)``)
    /// or weakly (a live query, which the context itself keeps).
    private let strongContext: ManagedObjectContext?
    private weak var weakContext: ManagedObjectContext?

    /// The results; nil before ``performFetch()``.
    var results: ResultSections?
    /// The entities whose objects can be in the results.
    var entityNames: Set<String> = []
    /// The fetched objects, kept alive (and so registered) when the request has no batch size.
    var retained: [ManagedObjectID: ManagedObject] = [:]
    /// Objects in the results with a temporary ID: found again by identity when a save gives
    /// them their permanent ID.
    var temporary: [ManagedObjectID: ManagedObject] = [:]
    /// The batches of objects loaded last by ``object(at:)`` (batched requests): start and objects.
    var loadedBatches: [(start: Int, objects: [ManagedObject])] = []
    /// The key of this controller's observer in its context.
    var observerKey: UUID?
    /// Whether the cache file holds the current results.
    var cacheIsCurrent = false
    /// Called with each batch's new sections and difference, for a live query.
    var liveUpdate: ((ResultsSnapshot, ResultsDifference) -> Void)?

    /// Creates a controller; nothing is fetched until ``performFetch()``.
    public init(fetchRequest: FetchRequest<ManagedObject>, managedObjectContext: ManagedObjectContext,
                sectionNameKeyPath: String? = nil, cacheName: String? = nil) {
        self.fetchRequest = fetchRequest
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        self.strongContext = managedObjectContext
    }

    /// A controller that holds its context weakly (for a live query the context keeps).
    init(weaklyHeld context: ManagedObjectContext, fetchRequest: FetchRequest<ManagedObject>, sectionNameKeyPath: String?) {
        self.fetchRequest = fetchRequest
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = nil
        self.strongContext = nil
        self.weakContext = context
    }

    deinit {
        // A live query's controller is let go of by its context, which removes it itself.
        if let observerKey, let context = strongContext {
            context.resultsObservers[observerKey] = nil
        }
    }

    /// The context followed.
    public var managedObjectContext: ManagedObjectContext {
        guard let context = strongContext ?? weakContext else { preconditionFailure("the controller's context is gone") }
        return context
    }

    /// The context, if it still exists.
    var context: ManagedObjectContext? { strongContext ?? weakContext }

    // MARK: Fetching

    /// Fetches the results (from the cache when it is current) and starts following the context.
    /// Calls no delegate method.
    ///
    /// - Throws: ``FetchedResultsError`` for a request without sort descriptors, a first sort key
    ///   that does not order the objects by section, or objects not of `ResultType`; what the
    ///   fetch throws.
    public func performFetch() throws {
        let context = managedObjectContext
        context.checkQueue()
        let order = try checkRequest(in: context)
        context.processPendingChanges()   // announced before the fetch, so not reported after it
        entityNames = try context.persistentStoreCoordinator.concreteEntities(for: fetchRequest)
        retained = [:]
        temporary = [:]
        loadedBatches = []
        let canCache = cacheName != nil && !context.hasPendingChanges(in: entityNames) && context.parent == nil
        if canCache, let cacheName, let cached = FetchedResultsCache.load(name: cacheName, for: self, order: order,
                                                                          groupsByFirstKey: groupsByFirstKey) {
            results = cached
            cacheIsCurrent = true
        } else {
            results = try fetchSections(order: order, in: context)
            cacheIsCurrent = false
            if canCache, let cacheName {
                try FetchedResultsCache.store(name: cacheName, for: self)
                cacheIsCurrent = true
            }
        }
        if observerKey == nil { startObserving(context) }
    }

    /// The order of the request, once checked.
    private func checkRequest(in context: ManagedObjectContext) throws -> ResultOrder {
        guard !fetchRequest.sortDescriptors.isEmpty else {
            throw FetchedResultsError.missingSortDescriptors(entity: fetchRequest.entityName)
        }
        let type = context.persistentStoreCoordinator.objectClass(forEntity: fetchRequest.entityName)
        guard type is ResultType.Type else {
            throw FetchedResultsError.resultClassMismatch(entity: fetchRequest.entityName,
                                                          expected: "\(ResultType.self)", actual: "\(type)")
        }
        return ResultOrder(descriptors: fetchRequest.sortDescriptors)
    }

    /// Whether the section key path is the first sort key (or there is none): sections then
    /// group objects whose first sort key values compare the same.
    var groupsByFirstKey: Bool {
        sectionNameKeyPath == nil || sectionNameKeyPath == fetchRequest.sortDescriptors.first?.key
    }

    /// The name of the section `object` belongs in, when it does not follow from its first sort
    /// key (nil otherwise).
    func sectionName(of object: ManagedObject) -> String? {
        guard let sectionNameKeyPath, !groupsByFirstKey else { return nil }
        return ResultOrder.sectionName(PredicateValue((try? object.value(forKeyPath: sectionNameKeyPath)) ?? nil))
    }

    /// Fetches the objects and records their IDs and sort keys: every object at once without a
    /// batch size (and keeps them), otherwise batch by batch, keeping no object.
    ///
    /// - Throws: ``FetchedResultsError/sectionsOutOfOrder(sectionNameKeyPath:firstSortKey:sectionName:)``;
    ///   what the fetch throws.
    private func fetchSections(order: ResultOrder, in context: ManagedObjectContext) throws -> ResultSections {
        if fetchRequest.fetchBatchSize > 0, let stored = try storedSections(order: order, in: context) { return stored }
        let objects: FetchedResults
        if fetchRequest.fetchBatchSize == 0 {
            objects = FetchedResults(objects: try context.fetch(fetchRequest))
        } else {
            var request = fetchRequest
            request.fetchBatchSize = Swift.max(fetchRequest.fetchBatchSize, 1_000)
            objects = try context.fetchBatched(request)
        }
        let keepsObjects = fetchRequest.fetchBatchSize == 0
        if keepsObjects { retained.reserveCapacity(objects.count) }
        return try sections(order: order, capacity: objects.count) { add in
            for object in objects {
                add(object.objectID, order.key(of: object), sectionName(of: object))
                if keepsObjects { retained[object.objectID] = object }
                if object.objectID.isTemporaryID { temporary[object.objectID] = object }
            }
        }
    }

    /// The results read straight from the store when it can (the SQLite store, a root context
    /// without unsaved changes to the entities, sort and section keys that are stored attributes):
    /// one query for the objects' IDs and those columns, in the request's order, no object made.
    /// Nil when it cannot; the objects are then read batch by batch.
    ///
    /// - Throws: ``FetchedResultsError/sectionsOutOfOrder(sectionNameKeyPath:firstSortKey:sectionName:)``;
    ///   what the store throws.
    private func storedSections(order: ResultOrder, in context: ManagedObjectContext) throws -> ResultSections? {
        let model = context.persistentStoreCoordinator.managedObjectModel
        guard let attributes = model.entitiesByName[fetchRequest.entityName]?.attributesByName else { return nil }
        let readsName = sectionNameKeyPath != nil && !groupsByFirstKey
        let keys = order.descriptors.map(\.key) + (readsName ? [sectionNameKeyPath ?? ""] : [])
        var types: [AttributeType] = []
        for key in keys {
            guard let attribute = attributes[key], !attribute.isTransient, Self.storedKeyTypes.contains(attribute.type) else { return nil }
            types.append(attribute.type)
        }
        let sortKeys = order.descriptors.count
        var complete = false
        let results: ResultSections
        do {
            results = try sections(order: order, capacity: try context.count(for: fetchRequest)) { add in
                complete = try context.forEachStoredRow(keys: keys, of: fetchRequest) { row in
                    guard case .objectID(let id)?? = row.first else { return }
                    var key: [PredicateValue] = []
                    key.reserveCapacity(sortKeys)
                    for index in 0..<sortKeys { key.append(PredicateValue(row[index + 1]?.swiftValue(ofType: types[index]))) }
                    let name = readsName ? ResultOrder.sectionName(PredicateValue(row[sortKeys + 1]?.swiftValue(ofType: types[sortKeys]))) : nil
                    add(id, key, name)
                }
            }
        } catch FetchedResultsError.sectionsOutOfOrder where !complete {
            return nil   // rows the store stopped handing; the objects are read instead
        }
        return complete ? results : nil
    }

    /// The attribute types whose stored values are their objects' values, as sort and section keys.
    private static var storedKeyTypes: Set<AttributeType> {
        [.integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .uuid, .uri]
    }

    /// Results built from objects `fill` gives, in any order.
    ///
    /// - Throws: ``FetchedResultsError/sectionsOutOfOrder(sectionNameKeyPath:firstSortKey:sectionName:)``;
    ///   what `fill` throws.
    func sections(order: ResultOrder, capacity: Int,
                  objects fill: (_ add: (ManagedObjectID, [PredicateValue], String?) -> Void) throws -> Void) throws -> ResultSections {
        do {
            return try ResultSections(order: order, sectioned: sectionNameKeyPath != nil, groupsByFirstKey: groupsByFirstKey,
                                      capacity: capacity, objects: fill)
        } catch let error as ResultSections.SectionsOutOfOrder {
            throw FetchedResultsError.sectionsOutOfOrder(sectionNameKeyPath: sectionNameKeyPath ?? "",
                                                         firstSortKey: order.descriptors[0].key, sectionName: error.sectionName)
        }
    }

    // MARK: Reading

    /// The fetched objects in order (faults for those not loaded yet); nil before
    /// ``performFetch()``.
    public var fetchedObjects: [ResultType]? {
        guard let results else { return nil }
        return results.allIDs.compactMap { try? managedObjectContext.object(with: $0) as? ResultType }
    }

    /// The IDs of the fetched objects in order; nil before ``performFetch()``.
    public var fetchedObjectIDs: [ManagedObjectID]? { results?.allIDs }

    /// The sections in order; nil before ``performFetch()``.
    public var sections: [FetchedResultsSectionInfo]? {
        guard let results else { return nil }
        return results.sections.map { section in
            FetchedResultsSectionInfo(name: section.name, indexTitle: sectionIndexTitle(forSectionName: section.name),
                                      rows: section.rows, ids: results.slots.ids, context: context)
        }
    }

    /// The sections by object ID (empty before ``performFetch()``).
    public var snapshot: ResultsSnapshot {
        guard let results else { return ResultsSnapshot(sections: []) }
        return ResultsSnapshot(sections: results.sections.indices.map { .init(name: results.sections[$0].name, objectIDs: results.ids(in: $0)) })
    }

    /// The index title of a section: the delegate's, or by default the capitalized first letter of
    /// the name.
    public func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        if let title = delegate?.controller(self, sectionIndexTitleForSectionName: sectionName) { return title }
        return sectionName.first.map { String($0).uppercased() } ?? ""
    }

    /// The index titles of the sections, each once, in section order.
    public var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return (sections ?? []).compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// The index of the first section whose index title is `title`; when none has it, the
    /// section at `sectionIndex` in ``sectionIndexTitles`` (clamped to the sections).
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let all = sections ?? []
        if let found = all.firstIndex(where: { $0.indexTitle == title }) { return found }
        return Swift.max(0, Swift.min(sectionIndex, all.count - 1))
    }

    /// The object at `indexPath` (section, row). With a batch size, the objects of its batch are
    /// loaded together and the last few batches kept.
    public func object(at indexPath: IndexPath) -> ResultType {
        guard let results else { preconditionFailure("object(at:) before performFetch()") }
        let id = results.id(section: indexPath[0], row: indexPath[1])
        let context = managedObjectContext
        if fetchRequest.fetchBatchSize > 0, retained[id] == nil {
            return batchObject(at: results.position(of: indexPath), results: results, context: context)
        }
        guard let object = try? context.object(with: id) as? ResultType else {
            preconditionFailure("the fetched object \(id) is not a \(ResultType.self)")
        }
        return object
    }

    /// The object at a position over all sections, its batch loaded.
    private func batchObject(at position: Int, results: ResultSections, context: ManagedObjectContext) -> ResultType {
        let size = fetchRequest.fetchBatchSize
        let start = position / size * size
        if let found = loadedBatches.firstIndex(where: { $0.start == start }), position - start < loadedBatches[found].objects.count {
            return loadedBatches[found].objects[position - start] as! ResultType
        }
        var ids: [ManagedObjectID] = []
        ids.reserveCapacity(size)
        var skipped = 0
        for section in results.sections where ids.count < size {
            let rows = section.rows
            if skipped + rows.count <= start { skipped += rows.count; continue }
            let from = Swift.max(0, start - skipped)
            ids.append(contentsOf: rows.elements(in: from..<Swift.min(rows.count, from + size - ids.count)).map(results.slots.id(at:)))
            skipped += rows.count
        }
        let objects = ids.compactMap { try? context.object(with: $0) }
        try? context.fillFaults(objects)
        loadedBatches.insert((start, objects), at: 0)
        if loadedBatches.count > 4 { loadedBatches.removeLast() }
        return objects[position - start] as! ResultType
    }

    /// Where `object` is in the results, or nil.
    public func indexPath(forObject object: ResultType) -> IndexPath? {
        results?.indexPath(of: object.objectID)
    }

    // MARK: The cache

    /// Where caches are written: `FetchedResults` in the user's caches folder
    /// (`~/.cache/FetchedResults` on Linux) unless set. Each cache is one file named after it.
    public static var cacheDirectory: URL {
        get { FetchedResultsCache.directory }
        set { FetchedResultsCache.directory = newValue }
    }

    /// Deletes the cache called `name`, or every cache when `name` is nil.
    public static func deleteCache(withName name: String?) {
        FetchedResultsCache.delete(name: name)
    }
}

@available(*, unavailable, message: "A controller is confined to its context's queue.")
extension FetchedResultsController: Sendable {}
