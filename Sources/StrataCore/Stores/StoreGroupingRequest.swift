/// What a store is asked to group: the rows of one fetch folded into groups, with aggregates
/// per group. The grouping and aggregating half of a dictionary fetch, which a store that can
/// compute it where the rows are (the SQLite store, with `GROUP BY`) answers without handing out
/// a snapshot per row.
///
/// The context asks only when the store's rows are the whole answer: a root context, one store,
/// no unsaved change to the entities fetched that the request includes. It may also ask the
/// store to filter, sort and range the groups (an ``Arrangement``); what the store does not do,
/// the context does.
///
/// A dictionary fetch with distinct results and no aggregates is asked as a grouping too: by
/// every property it reads, with no aggregates.
@_spi(StoreImplementation)
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
    /// How the groups are then filtered, sorted and ranged, when the context asks the store to;
    /// nil: every group, in the order of its first row.
    public var arrangement: Arrangement?

    /// What happens to the groups after they are computed: SQL's `HAVING`, `ORDER BY`, `LIMIT`
    /// and `OFFSET`, in that order, over the names a dictionary fetch gives its keys and
    /// aggregates.
    ///
    /// A store applies all of it or none (``StoreGroupingResult/isArranged``), exactly as the
    /// context would: the having predicate evaluated on each group's values under their names,
    /// a stable sort by the sort descriptors (ties keep the order of the groups' first rows),
    /// then the range.
    public struct Arrangement: Sendable, Hashable {
        /// A group value a name stands for.
        public enum Value: Sendable, Hashable {
            /// The value of ``StoreGroupingRequest/groupBy`` at this index.
            case key(Int)
            /// The value of ``StoreGroupingRequest/aggregates`` at this index.
            case aggregate(Int)
        }

        /// The names the having predicate and the sort descriptors read, and what each stands for.
        public var names: [String: Value]
        /// The condition a group meets; nil keeps every group.
        public var having: ObjectPredicate?
        /// The order of the groups, by names of ``names``.
        public var sortDescriptors: [ObjectSortDescriptor]
        /// How many groups to skip.
        public var offset: Int
        /// How many groups to keep at most; 0 keeps all.
        public var limit: Int

        /// Creates an arrangement.
        public init(names: [String: Value], having: ObjectPredicate? = nil, sortDescriptors: [ObjectSortDescriptor] = [],
                    offset: Int = 0, limit: Int = 0) {
            self.names = names
            self.having = having
            self.sortDescriptors = sortDescriptors
            self.offset = offset
            self.limit = limit
        }
    }

    /// Creates a grouping request.
    public init(entityNames: Set<String>, predicate: ObjectPredicate? = nil, groupBy: [String], aggregates: [Aggregate],
                arrangement: Arrangement? = nil) {
        self.entityNames = entityNames
        self.predicate = predicate
        self.groupBy = groupBy
        self.aggregates = aggregates
        self.arrangement = arrangement
    }
}

/// A store's answer to a ``StoreGroupingRequest``.
@_spi(StoreImplementation)
public struct StoreGroupingResult: Sendable, Hashable {
    /// The groups: every one in the order of its first row, or, when ``isArranged``, those the
    /// arrangement keeps, in its order.
    public var groups: [StoreGroup]
    /// Whether the store applied the request's ``StoreGroupingRequest/arrangement``.
    public var isArranged: Bool

    /// Creates a result.
    public init(groups: [StoreGroup], isArranged: Bool) {
        self.groups = groups
        self.isArranged = isArranged
    }
}

/// One group a store computed for a ``StoreGroupingRequest``.
///
/// A store answers exactly what grouping the rows in memory gives, or not at all: groups in the
/// order of their first row in the store's order (by entity name, then primary key), each keyed
/// by its first row's values; `count:` as an integer, `sum:` of integers as an integer, `average:` as a
/// double (nil without values), `min:`/`max:` as the stored value.
@_spi(StoreImplementation)
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
