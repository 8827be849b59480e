/// Deletes every object a fetch request matches, or the objects of a list of IDs, straight in
/// the store, without managed objects or a context (Core Data's `NSBatchDeleteRequest`).
///
/// The model's delete rules apply as they do when a context deletes and saves: `cascade`
/// deletes the destinations too (and theirs, recursively), `nullify` removes the deleted objects
/// from the inverse relationships of the objects that remain (raising their versions), `deny`
/// refuses the whole request with ``BatchRequestError/deleteDenied(objectID:relationship:destinationCount:)``
/// while a destination would remain, `noAction` leaves the destinations as they are. A request
/// lands whole or not at all in each store.
///
/// ```swift
/// var fetch = FetchRequest(entityName: "Mood")
/// fetch.predicate = try ObjectPredicate(format: "date < %@", cutoff)
/// var request = BatchDeleteRequest(fetchRequest: fetch)
/// request.resultType = .objectIDs
/// let result = try context.execute(request)
/// ManagedObjectContext.mergeChanges(
///     fromRemoteContextSave: [ManagedObjectContext.deletedObjectsKey: result.objectIDs ?? []],
///     into: [context])
/// ```
///
/// The result counts and lists every object deleted, the ones deleted by a cascade included.
public struct BatchDeleteRequest: Sendable, Hashable {
    /// What is deleted.
    public enum Target: Sendable, Hashable {
        /// The objects a fetch request matches (its entity, sub-entities, predicate, stores, and
        /// its sort and range when it has a limit or an offset).
        case fetchRequest(FetchRequest<ManagedObject>)
        /// The objects of these IDs; IDs of objects no store holds any more are passed over.
        case objectIDs([ManagedObjectID])
    }

    /// What is deleted.
    public var target: Target
    /// What the request returns (default: ``BatchResultType/statusOnly``).
    public var resultType: BatchResultType = .statusOnly

    /// A request that deletes what `fetchRequest` matches.
    public init(fetchRequest: FetchRequest<ManagedObject>) {
        self.target = .fetchRequest(fetchRequest)
    }

    /// A request that deletes the objects of `objectIDs` (of any entities, unlike Core Data,
    /// which wants one entity).
    public init(objectIDs: [ManagedObjectID]) {
        self.target = .objectIDs(objectIDs)
    }

    /// The fetch request, for a request made with one.
    public var fetchRequest: FetchRequest<ManagedObject>? {
        if case .fetchRequest(let request) = target { return request }
        return nil
    }
}
