/// Inserts many objects of one entity straight into a store, without managed objects or a
/// context (Core Data's `NSBatchInsertRequest`).
///
/// Each object is a dictionary of attribute values by name. A key that is absent gets the
/// attribute's default value; a key present with `nil` is nil. Values are checked and converted
/// as `ManagedObject/setValue(_:forKey:)` converts them (an `Int` for an `Integer 16` that fits,
/// a `Float` for a `Double`, …), and a non-optional attribute must end up with a value; the first
/// object that fails stops the request with a ``BatchRequestError`` naming its index and key, and
/// nothing is inserted. Relationships cannot be set (as in Core Data), and the model's other
/// validation rules (ranges, lengths, patterns) are not checked.
///
/// ```swift
/// var request = BatchInsertRequest(entityName: "Mood", objects: [
///     ["date": Date(), "rating": 4],
///     ["date": Date(), "rating": 2],
/// ])
/// request.resultType = .objectIDs
/// let ids = try context.execute(request).objectIDs ?? []
/// ```
///
/// The context's registered objects are not touched; see
/// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)`` and `docs/batch-requests.md`.
public struct BatchInsertRequest {
    /// The entity of the new objects (not abstract).
    public var entityName: String
    /// The objects to insert, each a dictionary of attribute values by name.
    public var objectsToInsert: [[String: Any?]]?
    /// Called again and again, each time with an empty dictionary to fill with one object's
    /// values, until it returns true; the dictionary of the call that returns true is not inserted.
    /// Used when ``objectsToInsert`` is nil.
    public var dictionaryHandler: ((inout [String: Any?]) -> Bool)?
    /// What the request returns (default: ``BatchResultType/statusOnly``).
    public var resultType: BatchResultType = .statusOnly
    /// The identifiers of the stores the objects may go to (the first that can hold the entity);
    /// nil: the store a new object of the entity is assigned to.
    public var affectedStoreIdentifiers: [String]?

    /// A request that inserts `objects`.
    public init(entityName: String, objects: [[String: Any?]]) {
        self.entityName = entityName
        self.objectsToInsert = objects
    }

    /// A request that inserts what `handler` provides, one object a call, until it returns true.
    ///
    /// ```swift
    /// var next = 0
    /// let request = BatchInsertRequest(entityName: "Mood") { values in
    ///     guard next < ratings.count else { return true }
    ///     values["rating"] = ratings[next]
    ///     next += 1
    ///     return false
    /// }
    /// ```
    public init(entityName: String, dictionaryHandler handler: @escaping (inout [String: Any?]) -> Bool) {
        self.entityName = entityName
        self.dictionaryHandler = handler
    }

    /// Restricts the request to `stores` (Core Data's `affectedStores`); nil: the assigned store.
    public mutating func setAffectedStores(_ stores: [any PersistentStore]?) {
        affectedStoreIdentifiers = stores?.map(\.identifier)
    }
}
