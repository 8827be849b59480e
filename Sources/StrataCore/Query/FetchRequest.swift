/// A description of objects to fetch: entity, predicate, order and range.
///
/// ```swift
/// var request = FetchRequest(entityName: "Student")
/// request.predicate = try ObjectPredicate(format: "id = %@", 1)
/// request.sortDescriptors = [ObjectSortDescriptor(key: "id")]
/// let students = try context.fetch(request)
/// ```
public struct FetchRequest: Sendable, Hashable {
    /// The entity fetched.
    public var entityName: String
    /// The condition objects must meet; nil fetches every object.
    public var predicate: ObjectPredicate?
    /// The order of the results; empty leaves the order to the store.
    public var sortDescriptors: [ObjectSortDescriptor]
    /// The most objects returned; 0 means no limit.
    public var fetchLimit: Int
    /// How many matching objects to skip first.
    public var fetchOffset: Int
    /// How many rows to load at a time (0: all at once). A hint for incremental stores.
    public var fetchBatchSize: Int
    /// Whether objects of sub-entities are included (Core Data's default: yes).
    public var includesSubentities: Bool
    /// Whether unsaved inserts, changes and deletes of the context count (default: yes).
    public var includesPendingChanges: Bool
    /// Whether objects come back as faults to be filled on first access (default: yes).
    public var returnsObjectsAsFaults: Bool
    /// The identifiers of the stores to search; nil searches every store that can hold the entity.
    public var affectedStoreIdentifiers: [String]?

    /// Creates a request for every object of `entityName`.
    public init(
        entityName: String,
        predicate: ObjectPredicate? = nil,
        sortDescriptors: [ObjectSortDescriptor] = [],
        fetchLimit: Int = 0,
        fetchOffset: Int = 0
    ) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.fetchBatchSize = 0
        self.includesSubentities = true
        self.includesPendingChanges = true
        self.returnsObjectsAsFaults = true
        self.affectedStoreIdentifiers = nil
    }
}
