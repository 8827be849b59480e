/// An aggregate function of a dictionary fetch: the functions of `NSExpression(forFunction:)`
/// that Core Data runs in the store.
public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
    /// `count:`: how many non-nil values (how many objects, for the evaluated object).
    case count = "count:"
    /// `sum:`: the total of the non-nil values; 0 when there are none (SQLite's `total()`, which
    /// Core Data uses).
    case sum = "sum:"
    /// `average:`: the mean of the non-nil values; nil when there are none.
    case average = "average:"
    /// `min:`: the smallest non-nil value (numbers, strings, dates); nil when there are none.
    case min = "min:"
    /// `max:`: the largest non-nil value; nil when there are none.
    case max = "max:"

    /// The function named as Core Data names it (`"sum:"`), or nil for any other name.
    public init?(functionName: String) {
        self.init(rawValue: functionName)
    }

    /// The name as Core Data writes it (`"sum:"`).
    public var functionName: String { rawValue }
}

/// What an ``ExpressionDescription`` computes: a key path's value, the fetched object itself
/// (its ID), or an aggregate function of either over the objects of a group.
///
/// ```swift
/// .sum("age")                      // NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "age")])
/// .count()                         // count: of the evaluated object: how many objects
/// .keyPath("whereIWork.name")      // a value under a name of your choosing
/// .evaluatedObject                 // the object's ID (Core Data's expressionForEvaluatedObject)
/// ```
public indirect enum FetchExpression: Sendable, Hashable, CustomStringConvertible {
    /// The value at a key path of the entity (attributes, through to-one relationships).
    case keyPath(String)
    /// The fetched object itself, which a dictionary holds as its ``ManagedObjectID``.
    case evaluatedObject
    /// An aggregate function of an argument (a key path or, for `count:`, the object).
    case function(AggregateFunction, FetchExpression)

    /// `count:` of a key path's non-nil values, or of the objects when `keyPath` is nil.
    public static func count(_ keyPath: String? = nil) -> FetchExpression {
        .function(.count, keyPath.map { .keyPath($0) } ?? .evaluatedObject)
    }
    /// `sum:` of a key path's values.
    public static func sum(_ keyPath: String) -> FetchExpression { .function(.sum, .keyPath(keyPath)) }
    /// `average:` of a key path's values.
    public static func average(_ keyPath: String) -> FetchExpression { .function(.average, .keyPath(keyPath)) }
    /// `min:` of a key path's values.
    public static func min(_ keyPath: String) -> FetchExpression { .function(.min, .keyPath(keyPath)) }
    /// `max:` of a key path's values.
    public static func max(_ keyPath: String) -> FetchExpression { .function(.max, .keyPath(keyPath)) }

    /// A function by its Core Data name (`"sum:"`) applied to a key path.
    ///
    /// - Throws: ``FetchRequestError/invalidExpression(name:reason:)`` for a function Strata does
    ///   not run in fetches.
    public init(function name: String, keyPath: String) throws {
        guard let function = AggregateFunction(functionName: name) else {
            throw FetchRequestError.invalidExpression(
                name: name, reason: "unsupported function (use count:, sum:, average:, min: or max:)")
        }
        self = .function(function, .keyPath(keyPath))
    }

    /// Whether the expression aggregates a group of objects into one value.
    public var isAggregate: Bool {
        if case .function = self { return true }
        return false
    }

    /// The expression as `NSExpression` prints it: `sum:(age)`, `count:(SELF)`, `age`.
    public var description: String {
        switch self {
        case .keyPath(let path): path
        case .evaluatedObject: "SELF"
        case let .function(function, argument): "\(function.functionName)(\(argument))"
        }
    }
}

/// A named, typed expression to fetch into a dictionary (Core Data's `NSExpressionDescription`).
///
/// ```swift
/// let total = ExpressionDescription(name: "totalAge", expression: .sum("age"), resultType: .integer64)
/// request.propertiesToFetch = ["name", .expression(total)]
/// ```
public struct ExpressionDescription: Sendable, Hashable, CustomStringConvertible {
    /// The key of the value in each result dictionary.
    public var name: String
    /// What is computed.
    public var expression: FetchExpression
    /// The type of the value: an aggregate's result is converted to it (an average into an
    /// integer type rounds toward zero).
    public var resultType: AttributeType

    /// Creates an expression description.
    public init(name: String, expression: FetchExpression, resultType: AttributeType) {
        self.name = name
        self.expression = expression
        self.resultType = resultType
    }

    /// `name = expression (type)`.
    public var description: String { "\(name) = \(expression) (\(resultType.rawValue))" }
}

/// One entry of `propertiesToFetch` or `propertiesToGroupBy`: a property or key path by name, or
/// an expression description. A string literal is a key path.
///
/// ```swift
/// request.propertiesToFetch = ["name", "whereIWork", "whereIWork.name",
///                              .expression(ExpressionDescription(name: "n", expression: .count(), resultType: .integer64))]
/// ```
public enum FetchProperty: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// An attribute (its value), a to-one relationship (the destination's ID), or a key path
    /// through to-one relationships to either. The dictionary key is the key path as written.
    case keyPath(String)
    /// A named expression.
    case expression(ExpressionDescription)

    /// A key path from a string literal.
    public init(stringLiteral value: String) { self = .keyPath(value) }

    /// An attribute of the request's entity (Core Data code passes `NSAttributeDescription`s).
    public static func attribute(_ attribute: AttributeDescription) -> FetchProperty { .keyPath(attribute.name) }

    /// A to-one relationship of the request's entity, fetched as the destination's ID.
    public static func relationship(_ relationship: RelationshipDescription) -> FetchProperty {
        .keyPath(relationship.name)
    }

    /// The key of the value in a result dictionary.
    public var name: String {
        switch self {
        case .keyPath(let path): path
        case .expression(let description): description.name
        }
    }

    /// The key path or the expression.
    public var description: String {
        switch self {
        case .keyPath(let path): path
        case .expression(let expression): expression.description
        }
    }
}
