/// Sets attributes of every object of an entity that matches a predicate, straight in the
/// store, without managed objects or a context (Core Data's `NSBatchUpdateRequest`).
///
/// Each updated object's version (`Z_OPT` in SQLite) is raised, so a context that still holds
/// the old values gets a merge conflict when it saves them, as after any other save.
///
/// ```swift
/// var request = BatchUpdateRequest(entityName: "Mood")
/// request.predicate = try ObjectPredicate(format: "rating < 3")
/// request.propertiesToUpdate = ["rating": 3, "note": nil]
/// request.resultType = .count
/// let raised = try context.execute(request).count ?? 0
/// ```
///
/// A value in ``propertiesToUpdate`` is a constant (converted to the attribute's type as
/// `ManagedObject/setValue(_:forKey:)` converts it; nil clears an optional attribute) or an
/// ``ObjectExpression`` evaluated on each object (`.keyPath("otherAttribute")`). Only stored
/// attributes of the entity can be set; the model's validation rules are not checked.
public struct BatchUpdateRequest {
    /// The entity whose objects are updated (with its sub-entities unless
    /// ``includesSubentities`` is false).
    public var entityName: String
    /// The condition objects must meet; nil updates every object of the entity.
    public var predicate: ObjectPredicate?
    /// Whether objects of sub-entities are updated too (default: yes).
    public var includesSubentities: Bool = true
    /// The new values by attribute name: constants, nil, or ``ObjectExpression``s.
    public var propertiesToUpdate: [String: Any?] = [:]
    /// What the request returns (default: ``BatchResultType/statusOnly``).
    public var resultType: BatchResultType = .statusOnly
    /// The identifiers of the stores to update; nil: every store that can hold the entity.
    public var affectedStoreIdentifiers: [String]?

    /// A request that updates objects of `entityName`.
    public init(entityName: String, predicate: ObjectPredicate? = nil, propertiesToUpdate: [String: Any?] = [:]) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }

    /// Restricts the request to `stores` (Core Data's `affectedStores`); nil: every store.
    public mutating func setAffectedStores(_ stores: [any PersistentStore]?) {
        affectedStoreIdentifiers = stores?.map(\.identifier)
    }
}
