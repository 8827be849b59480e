/// What a fetch returns (Core Data's `NSFetchRequestResultType`).
public enum FetchRequestResultType: Sendable, Hashable, CaseIterable {
    /// Managed objects (`managedObjectResultType`).
    case managedObject
    /// Their IDs only (`managedObjectIDResultType`).
    case managedObjectID
    /// Dictionaries of selected properties and expressions (`dictionaryResultType`).
    case dictionary
    /// How many objects match (`countResultType`).
    case count
}

/// A description of objects to fetch: entity, predicate, order, range, and what to return
/// (Core Data's `NSFetchRequest<ResultType>`).
///
/// `Result` is the class of the objects a fetch returns. A request made with an entity name
/// alone is a `FetchRequest<ManagedObject>`; one made for a subclass fetches that subclass's
/// ``ManagedObject/entityName`` and returns its instances, and a fetch that finds an object of
/// another class throws ``FetchRequestError/resultClassMismatch(entity:expected:found:)``
/// rather than leaving it out:
///
/// ```swift
/// var request = FetchRequest(entityName: "Student")          // FetchRequest<ManagedObject>
/// request.predicate = try ObjectPredicate(format: "id = %@", 1)
/// request.sortDescriptors = [ObjectSortDescriptor(key: "id")]
/// let students = try context.fetch(request)                  // [ManagedObject]
///
/// let recent = FetchRequest<Mood>(sortDescriptors: [try ObjectSortDescriptor(\Mood.date, order: .reverse)])
/// let moods = try context.fetch(recent)                      // [Mood]
/// ```
///
/// The typed methods of ``ManagedObjectContext`` say what they return (``ManagedObjectContext/fetch(_:)``,
/// ``ManagedObjectContext/fetchObjectIDs(_:)``, ``ManagedObjectContext/fetchDictionaries(_:)``,
/// ``ManagedObjectContext/count(for:)``, ``ManagedObjectContext/fetchBatched(_:)``);
/// `ManagedObjectContext/execute(_:)` returns what ``resultType`` asks for. See `docs/fetching.md`.
public struct FetchRequest<Result: ManagedObject>: Sendable, Hashable {
    /// The entity fetched.
    public var entityName: String
    /// The condition objects must meet; nil fetches every object.
    public var predicate: ObjectPredicate?
    /// The order of the results; empty leaves the order to the store.
    public var sortDescriptors: [ObjectSortDescriptor]
    /// The most results returned; 0 means no limit.
    public var fetchLimit: Int
    /// How many matching results to skip first.
    public var fetchOffset: Int
    /// How many objects ``ManagedObjectContext/fetchBatched(_:)`` loads at a time (0: all at once).
    /// The fetch records every matching ID; values load one batch at a time as objects are touched.
    public var fetchBatchSize: Int
    /// Whether objects of sub-entities are included (Core Data's default: yes).
    public var includesSubentities: Bool
    /// Whether unsaved inserts, changes and deletes of the context count (default: yes), for
    /// every result type, dictionaries and aggregates included.
    public var includesPendingChanges: Bool
    /// Whether objects may come back as faults (default: yes). The values a fetch reads fill the
    /// objects at once, whichever this says (see `docs/fetching.md`).
    public var returnsObjectsAsFaults: Bool
    /// Whether the fetch reads the objects' values (default: yes). When false, objects that are
    /// not registered yet come back as faults that fill on first use.
    public var includesPropertyValues: Bool
    /// The identifiers of the stores to search; nil searches every store that can hold the entity.
    public var affectedStoreIdentifiers: [String]?
    /// What `ManagedObjectContext/execute(_:)` returns.
    public var resultType: FetchRequestResultType
    /// The properties and expressions of a dictionary result; nil fetches every stored attribute
    /// of the entity and no relationship (as Core Data: a relationship appears only when asked for).
    public var propertiesToFetch: [FetchProperty]?
    /// The properties dictionary results are grouped by; aggregates then apply per group.
    public var propertiesToGroupBy: [FetchProperty]?
    /// The condition groups must meet, evaluated against each group's dictionary.
    public var havingPredicate: ObjectPredicate?
    /// Whether equal dictionaries are returned once.
    public var returnsDistinctResults: Bool
    /// Relationship key paths (`"whereIWork"`, `"country.continent"`, `"employees"`) whose
    /// destinations are loaded with the fetch, so touching them does not go back to the store.
    public var relationshipKeyPathsForPrefetching: [String]
    /// Whether objects the context has loaded already take the values the fetch read (default:
    /// no, they keep the values they have, as in Core Data). Objects with unsaved changes,
    /// inserted or deleted, are left as they are, their changes unlost.
    public var shouldRefreshRefetchedObjects: Bool

    /// Creates a request for every object of `entityName` (by default the entity of `Result`,
    /// its ``ManagedObject/entityName``).
    public init(
        entityName: String = Result.entityName,
        predicate: ObjectPredicate? = nil,
        sortDescriptors: [ObjectSortDescriptor] = [],
        fetchLimit: Int = 0,
        fetchOffset: Int = 0,
        as type: Result.Type = Result.self
    ) {
        self.init(uncheckedEntityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors,
                  fetchLimit: fetchLimit, fetchOffset: fetchOffset)
    }

    /// The request with every setting kept and another result class.
    public func retyped<Other: ManagedObject>(as type: Other.Type = Other.self) -> FetchRequest<Other> {
        var other = FetchRequest<Other>(uncheckedEntityName: entityName, predicate: predicate,
                                        sortDescriptors: sortDescriptors, fetchLimit: fetchLimit, fetchOffset: fetchOffset)
        other.fetchBatchSize = fetchBatchSize
        other.includesSubentities = includesSubentities
        other.includesPendingChanges = includesPendingChanges
        other.returnsObjectsAsFaults = returnsObjectsAsFaults
        other.includesPropertyValues = includesPropertyValues
        other.affectedStoreIdentifiers = affectedStoreIdentifiers
        other.resultType = resultType
        other.propertiesToFetch = propertiesToFetch
        other.propertiesToGroupBy = propertiesToGroupBy
        other.havingPredicate = havingPredicate
        other.returnsDistinctResults = returnsDistinctResults
        other.relationshipKeyPathsForPrefetching = relationshipKeyPathsForPrefetching
        other.shouldRefreshRefetchedObjects = shouldRefreshRefetchedObjects
        return other
    }

    /// The same request returning plain ``ManagedObject``s: what requests of every class go
    /// through inside a context.
    public var untyped: FetchRequest<ManagedObject> { retyped() }

    /// The designated initializer, every other setting at its default.
    init(
        uncheckedEntityName entityName: String,
        predicate: ObjectPredicate?,
        sortDescriptors: [ObjectSortDescriptor],
        fetchLimit: Int,
        fetchOffset: Int
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
        self.includesPropertyValues = true
        self.affectedStoreIdentifiers = nil
        self.resultType = .managedObject
        self.propertiesToFetch = nil
        self.propertiesToGroupBy = nil
        self.havingPredicate = nil
        self.returnsDistinctResults = false
        self.relationshipKeyPathsForPrefetching = []
        self.shouldRefreshRefetchedObjects = false
    }

    /// Restricts the request to `stores` (Core Data's `affectedStores`); nil searches every store.
    public mutating func setAffectedStores(_ stores: [any PersistentStore]?) {
        affectedStoreIdentifiers = stores?.map(\.identifier)
    }
}

extension FetchRequest where Result == ManagedObject {
    /// Creates a request for every object of `entityName`, returning plain ``ManagedObject``s
    /// (or instances of the class registered for the entity, as `ManagedObject`).
    public init(
        entityName: String,
        predicate: ObjectPredicate? = nil,
        sortDescriptors: [ObjectSortDescriptor] = [],
        fetchLimit: Int = 0,
        fetchOffset: Int = 0
    ) {
        self.init(uncheckedEntityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors,
                  fetchLimit: fetchLimit, fetchOffset: fetchOffset)
    }
}
