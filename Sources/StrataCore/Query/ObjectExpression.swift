/// One side of a comparison in an ``ObjectPredicate``: a key path, a constant, the evaluated
/// object itself (`SELF`), a substitution variable or a literal collection.
public indirect enum ObjectExpression: Sendable, Hashable, CustomStringConvertible {
    /// A dotted key path, such as `whereIWork.name` or `employees.@count`.
    case keyPath(String)
    /// A constant value.
    case constant(PredicateValue)
    /// The object being evaluated (`SELF`).
    case evaluatedObject
    /// A `$VARIABLE` to be substituted before evaluation.
    case variable(String)
    /// A literal collection `{a, b, c}`.
    case aggregate([ObjectExpression])

    /// A literal collection, as a constant array when every item is a constant (the one form
    /// both `{1, 2}` and an array argument take, so that a printed predicate parses back equal).
    static func aggregateOrConstant(_ items: [ObjectExpression]) -> ObjectExpression {
        var values: [PredicateValue] = []
        for item in items {
            guard case .constant(let value) = item else { return .aggregate(items) }
            values.append(value)
        }
        return .constant(.array(values))
    }

    /// Evaluates the expression against `object`.
    public func value(with object: Any?, variables: [String: PredicateValue] = [:]) throws -> Any? {
        switch self {
        case .keyPath(let path):
            guard let object else { return nil }
            if let kvc = object as? any KeyValueCoding { return try kvc.value(forKeyPath: path) }
            throw ObjectError.invalidKeyPath(keyPath: path, reason: "the evaluated value of type \(type(of: object)) has no keys")
        case .constant(let value): return value
        case .evaluatedObject: return object
        case .variable(let name):
            guard let value = variables[name] else { throw ObjectPredicateError.unboundVariable(name) }
            return value
        case .aggregate(let items): return try items.map { try $0.value(with: object, variables: variables) as Any }
        }
    }

    /// The expression in predicate format syntax.
    public var description: String {
        switch self {
        case .keyPath(let path): path.split(separator: ".").map { PredicateFormatter.keyPathComponent(String($0)) }.joined(separator: ".")
        case .constant(let value): PredicateFormatter.literal(value)
        case .evaluatedObject: "SELF"
        case .variable(let name): "$\(name)"
        case .aggregate(let items): "{" + items.map(\.description).joined(separator: ", ") + "}"
        }
    }
}
