/// What a store is asked to group: the rows of one fetch folded into groups, with aggregates
/// per group. The grouping and aggregating half of a dictionary fetch, which a store that can
/// compute it where the rows are (the SQLite store, with `GROUP BY`) answers without handing out
/// a snapshot per row.
///
/// The context asks only when the store's rows are the whole answer: a root context, one store,
/// no unsaved change to the entities fetched that the request includes. It filters, sorts, makes
/// distinct and ranges the groups itself.
public struct StoreGroupingRequest: Sendable, Hashable {
    /// One aggregate of each group: a function of a property's non-nil values, or, for
    /// `count:` with no key, of the objects.
    public struct Aggregate: Sendable, Hashable {
        /// The function.
        public var function: AggregateFunction
        /// The attribute or to-one relationship of the entity, or nil for the objects themselves.
        public var key: String?

        /// Creates an aggregate.
        public init(_ function: AggregateFunction, key: String?) {
            self.function = function
            self.key = key
        }
    }

    /// The entities whose objects are grouped.
    public var entityNames: Set<String>
    /// The condition the rows meet; nil takes every row.
    public var predicate: ObjectPredicate?
    /// The attributes and to-one relationships of the entity whose values make a group; empty:
    /// every matching row in one group (which exists even when no row matches).
    public var groupBy: [String]
    /// The aggregates of each group.
    public var aggregates: [Aggregate]

    /// Creates a grouping request.
    public init(entityNames: Set<String>, predicate: ObjectPredicate? = nil, groupBy: [String], aggregates: [Aggregate]) {
        self.entityNames = entityNames
        self.predicate = predicate
        self.groupBy = groupBy
        self.aggregates = aggregates
    }
}

/// One group a store computed for a ``StoreGroupingRequest``.
///
/// A store answers exactly what grouping the rows in memory gives, or not at all: groups in the
/// order of their first row in the store's order (by primary key), each keyed by its first
/// row's values; `count:` as an integer, `sum:` of integers as an integer, `average:` as a
/// double (nil without values), `min:`/`max:` as the stored value.
public struct StoreGroup: Sendable, Hashable {
    /// The group's values of ``StoreGroupingRequest/groupBy``, in order (nil: no value).
    public var key: [AttributeValue?]
    /// The value of each of ``StoreGroupingRequest/aggregates``, in order.
    public var aggregates: [AttributeValue?]

    /// Creates a group.
    public init(key: [AttributeValue?], aggregates: [AttributeValue?]) {
        self.key = key
        self.aggregates = aggregates
    }
}
