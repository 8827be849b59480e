/// One side of a comparison in an ``ObjectPredicate`` (Core Data's `NSExpression`): a key path,
/// a constant, the evaluated object itself (`SELF`), a substitution variable, a literal
/// collection, a key path applied to another expression, an element of a collection, or a
/// `SUBQUERY`.
///
/// ```swift
/// // SUBQUERY(employees, $e, $e.salary > 100).@count
/// let rich = ObjectExpression.keyPath(
///     "@count",
///     of: .subquery(collection: .keyPath("employees"), variable: "e",
///                   predicate: .compare(.keyPath("salary", of: .variable("e")), .greaterThan, .constant(.integer(100)))))
/// ```
public indirect enum ObjectExpression: Sendable, Hashable, CustomStringConvertible {
    /// A dotted key path on the evaluated object, such as `whereIWork.name` or `employees.@count`.
    case keyPath(String)
    /// A constant value.
    case constant(PredicateValue)
    /// The object being evaluated (`SELF`).
    case evaluatedObject
    /// A `$VARIABLE`, bound by ``ObjectPredicate/withSubstitutionVariables(_:)``, by
    /// ``ObjectPredicate/evaluate(with:substitutionVariables:)`` or by a `SUBQUERY`.
    case variable(String)
    /// A literal collection `{a, b, c}` whose items are not all constants.
    case aggregate([ObjectExpression])
    /// A dotted key path applied to the value of another expression: `$x.name`,
    /// `SUBQUERY(…).@count`, `{1, 2}.@sum`.
    case keyPathOf(ObjectExpression, String)
    /// One element of a collection: `list[FIRST]`, `list[LAST]`, `list[SIZE]`, `list[2]`.
    case element(ObjectExpression, ElementIndex)
    /// `SUBQUERY(collection, $variable, predicate)`: the elements of `collection` for which
    /// `predicate` holds, each evaluated as `SELF` and bound to `$variable`.
    case subquery(collection: ObjectExpression, variable: String, predicate: ObjectPredicate)

    /// Which element of a collection ``element(_:_:)`` takes.
    public enum ElementIndex: Sendable, Hashable {
        /// `[FIRST]`: the first element, nil for an empty collection.
        case first
        /// `[LAST]`: the last element, nil for an empty collection.
        case last
        /// `[SIZE]`: the number of elements.
        case size
        /// `[n]`: the element at a zero-based position, nil when out of range.
        case index(Int64)
    }

    /// A key path applied to another expression's value; `keyPath(p, of: .evaluatedObject)`
    /// is the plain key path `p`.
    public static func keyPath(_ path: String, of base: ObjectExpression) -> ObjectExpression {
        switch base {
        case .evaluatedObject: .keyPath(path)
        case .keyPath(let prefix): .keyPath(prefix + "." + path)
        case .keyPathOf(let inner, let prefix): .keyPathOf(inner, prefix + "." + path)
        default: .keyPathOf(base, path)
        }
    }

    /// A constant built from any Swift value (objects are held by their IDs).
    public static func value(_ value: Any?) -> ObjectExpression {
        .constant(PredicateValue(value))
    }

    /// A literal collection, as a constant array when every item is a constant (the one form
    /// both `{1, 2}` and an array argument take, so that a printed predicate parses back equal).
    public static func collection(_ items: [ObjectExpression]) -> ObjectExpression {
        aggregateOrConstant(items)
    }

    static func aggregateOrConstant(_ items: [ObjectExpression]) -> ObjectExpression {
        var values: [PredicateValue] = []
        for item in items {
            guard case .constant(let value) = item else { return .aggregate(items) }
            values.append(value)
        }
        return .constant(.array(values))
    }

    /// Evaluates the expression against `object`.
    ///
    /// - Throws: ``ObjectPredicateError/unboundVariable(_:)`` for a variable with no value, or
    ///   ``ObjectError/invalidKeyPath(keyPath:reason:)`` and the errors of the object's keys.
    public func value(with object: Any?, variables: [String: PredicateValue] = [:]) throws -> Any? {
        try PredicateEvaluator(variables: variables.mapValues { $0 as Any }).value(of: self, on: object)
    }

    /// The expression with every `$VARIABLE` in `values` replaced by its constant (a
    /// `SUBQUERY`'s own variable stays bound inside it).
    func substituting(_ values: [String: PredicateValue]) -> ObjectExpression {
        switch self {
        case .keyPath, .constant, .evaluatedObject: return self
        case .variable(let name): return values[name].map { .constant($0) } ?? self
        case .aggregate(let items): return .aggregateOrConstant(items.map { $0.substituting(values) })
        case .keyPathOf(let base, let path): return .keyPath(path, of: base.substituting(values))
        case .element(let base, let index): return .element(base.substituting(values), index)
        case .subquery(let collection, let variable, let predicate):
            var inner = values
            inner[variable] = nil
            return .subquery(collection: collection.substituting(values), variable: variable,
                             predicate: predicate.substituting(inner))
        }
    }

    /// The expression in predicate format syntax.
    public var description: String { PredicateFormatter.expression(self) }
}
