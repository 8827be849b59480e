/// A batch request as one store receives it: checked and converted by the coordinator, with
/// values already in their stored form. What ``BatchExecutingStore/executeBatch(_:)`` takes.
@_spi(StoreImplementation)
public enum StoreBatchRequest: Sendable, Hashable {
    /// Insert new objects.
    case insert(StoreBatchInsert)
    /// Set attributes of the objects a selection matches.
    case update(StoreBatchUpdate)
    /// Delete objects, applying the model's delete rules.
    case delete(StoreBatchDelete)
}

/// New objects of one entity for one store.
@_spi(StoreImplementation)
public struct StoreBatchInsert: Sendable, Hashable {
    /// The entity (concrete) of every new object.
    public var entityName: String
    /// Each object's non-nil attribute values, defaults applied, every value of its attribute's
    /// type, every non-optional attribute present, no two objects sharing the values of a
    /// uniqueness constraint.
    public var objects: [[String: AttributeValue]]
    /// Who executes the request (a context's author and name), for the store's persistent
    /// history; nil when nobody says.
    public var transactionInfo: HistoryTransactionInfo?

    /// Creates an insert.
    public init(entityName: String, objects: [[String: AttributeValue]]) {
        self.entityName = entityName
        self.objects = objects
    }
}

/// New attribute values for the objects of one store that a selection matches.
@_spi(StoreImplementation)
public struct StoreBatchUpdate: Sendable, Hashable {
    /// The objects to update: entities and predicate (order and range are not used).
    public var selection: StoreFetchRequest
    /// The new values by attribute name (attributes every selected entity has).
    public var values: [String: Value]
    /// Who executes the request (a context's author and name), for the store's persistent
    /// history; nil when nobody says.
    public var transactionInfo: HistoryTransactionInfo?

    /// One new value.
    public enum Value: Sendable, Hashable {
        /// A constant in its stored form; nil clears the attribute.
        case constant(AttributeValue?)
        /// An expression evaluated on each object (on its stored state before the update).
        case expression(ObjectExpression)
    }

    /// Creates an update.
    public init(selection: StoreFetchRequest, values: [String: Value]) {
        self.selection = selection
        self.values = values
    }
}

/// Objects of one store to delete.
@_spi(StoreImplementation)
public struct StoreBatchDelete: Sendable, Hashable {
    /// What is deleted.
    public enum Target: Sendable, Hashable {
        /// The objects a request matches, in its order and range.
        case matching(StoreFetchRequest)
        /// The objects of these IDs (objects the store does not hold are passed over).
        case objects([ManagedObjectID])
    }

    /// What is deleted.
    public var target: Target
    /// Who executes the request (a context's author and name), for the store's persistent
    /// history; nil when nobody says.
    public var transactionInfo: HistoryTransactionInfo?

    /// Creates a delete.
    public init(target: Target) {
        self.target = target
    }
}

/// What a store did with a batch request.
@_spi(StoreImplementation)
public struct StoreBatchResult: Sendable, Hashable {
    /// The objects inserted, updated or deleted (deleted by a cascade included), in the order
    /// the store handled them.
    public var objectIDs: [ManagedObjectID]
    /// For a delete: the objects that remain and lost deleted objects from their relationships
    /// (a `nullify` rule); their versions were raised. Empty for inserts and updates.
    public var nullifiedObjectIDs: [ManagedObjectID]

    /// Creates a result.
    public init(objectIDs: [ManagedObjectID], nullifiedObjectIDs: [ManagedObjectID] = []) {
        self.objectIDs = objectIDs
        self.nullifiedObjectIDs = nullifiedObjectIDs
    }
}
