/// Why a fetch request cannot be carried out as given. Every case names the entity, property or
/// expression at fault.
public enum FetchRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A property to fetch or to group by is not a key path of the entity's attributes and
    /// to-one relationships (`reason` says which part is wrong).
    case invalidProperty(entity: String, property: String, reason: String)
    /// An expression cannot be evaluated as described (a sum of strings, a function of a
    /// function, …).
    case invalidExpression(name: String, reason: String)
    /// An expression's value does not fit the result type its description declares.
    case expressionResultType(name: String, expected: AttributeType, found: String)
    /// Two properties to fetch have the same name (the dictionary key).
    case duplicatePropertyName(String)
    /// A request that groups or aggregates fetches a property that is neither grouped by nor an
    /// aggregate; its value would be that of an arbitrary object of the group.
    case ungroupedProperty(entity: String, property: String)
    /// A `havingPredicate` without `propertiesToGroupBy`.
    case havingWithoutGroupBy(entity: String)
    /// Grouped results are sorted by a key that is not one of the result's keys.
    case sortKeyNotInResult(entity: String, key: String)
    /// A relationship key path to prefetch does not walk through relationships.
    case invalidPrefetchKeyPath(entity: String, keyPath: String, reason: String)
    /// A sort selector other than the comparisons Strata knows.
    case unsupportedSortSelector(String)
    /// The asynchronous fetch was cancelled before it ran.
    case cancelled
    /// The predicate compares a key path with a value of a kind it never equals or orders
    /// against (`year == "x"` with `year` an Integer 16): refused rather than answered with
    /// nothing. `keyType` is the key path's attribute type, `found` the other side's kind.
    case mismatchedComparison(entity: String, key: String, keyType: String, predicate: String, found: String)
    /// A sort descriptor's key path goes through a to-many relationship, which has no one value
    /// to sort by.
    case toManySortKey(entity: String, key: String, relationship: String)

    /// A typed fetch found an object whose class is not the request's result class (the class
    /// was not registered for the entity, or a sub-entity's class is not a subclass of it).
    case resultClassMismatch(entity: String, expected: String, found: String)
    /// A key path of a Swift property that the class does not name in its
    /// ``ModelKeyPaths/modelKeyPaths``.
    case unnamedKeyPath(type: String, keyPath: String)

    /// One line that says what is wrong and where.
    public var description: String {
        switch self {
        case let .invalidProperty(entity, property, reason):
            "entity '\(entity)': cannot fetch '\(property)': \(reason)"
        case let .invalidExpression(name, reason): "expression '\(name)': \(reason)"
        case let .expressionResultType(name, expected, found):
            "expression '\(name)': a \(found) value does not fit the result type \(expected.rawValue)"
        case .duplicatePropertyName(let name): "two properties to fetch are named '\(name)'"
        case let .ungroupedProperty(entity, property):
            "entity '\(entity)': '\(property)' is fetched with aggregates but is not in propertiesToGroupBy"
        case .havingWithoutGroupBy(let entity): "entity '\(entity)': a havingPredicate needs propertiesToGroupBy"
        case let .sortKeyNotInResult(entity, key):
            "entity '\(entity)': grouped results cannot be sorted by '\(key)', which is neither grouped by nor fetched"
        case let .invalidPrefetchKeyPath(entity, keyPath, reason):
            "entity '\(entity)': cannot prefetch '\(keyPath)': \(reason)"
        case .unsupportedSortSelector(let selector):
            "unsupported sort selector '\(selector)' (use compare:, caseInsensitiveCompare:, localizedCompare:, localizedCaseInsensitiveCompare: or localizedStandardCompare:)"
        case .cancelled: "the asynchronous fetch was cancelled"
        case let .mismatchedComparison(entity, key, keyType, predicate, found):
            "entity '\(entity)': '\(predicate)' compares '\(key)' (\(keyType)) with \(found), which it never matches"
        case let .resultClassMismatch(entity, expected, found):
            "entity '\(entity)': a fetch of \(expected) found an object of class \(found) (register \(expected) or a subclass for the entity)"
        case let .unnamedKeyPath(type, keyPath):
            "\(type) names no model key for the key path \(keyPath) (add it to \(type).modelKeyPaths)"
        case let .toManySortKey(entity, key, relationship):
            "entity '\(entity)': cannot sort by '\(key)': '\(relationship)' is a to-many relationship, with no one value to sort by"
        }
    }
}
