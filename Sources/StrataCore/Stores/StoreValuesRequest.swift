/// What a store is asked to read for a dictionary fetch that neither groups, aggregates nor
/// makes its results distinct: some values of each object a fetch matches, in the fetch's order
/// and range. A store that can read just those values (the SQLite store: one `SELECT` of those
/// columns) answers without making a snapshot per row.
///
/// The context asks only when the store's rows are the whole answer: a root context, one store,
/// no unsaved change to the entities fetched that the request includes.
@_spi(StoreImplementation)
public struct StoreValuesRequest: Sendable, Hashable {
    /// The objects: entities, predicate, order and range.
    public var fetch: StoreFetchRequest
    /// The attributes and to-one relationships read from each object, in order.
    public var keys: [String]
    /// Whether each row starts with the object's ID (``AttributeValue/objectID(_:)``), before the
    /// keys' values: what a fetched results controller builds its results from.
    public var includesObjectIDs: Bool

    /// Creates a values request.
    public init(fetch: StoreFetchRequest, keys: [String], includesObjectIDs: Bool = false) {
        self.fetch = fetch
        self.keys = keys
        self.includesObjectIDs = includesObjectIDs
    }
}
