import Foundation

extension ObjectPredicate {
    /// Translates a Foundation `#Predicate` into the predicate a format string would give, so
    /// that it runs where format-string predicates run (in SQL on an SQLite store, in memory
    /// elsewhere) with the same answers.
    ///
    /// ```swift
    /// let french = try ObjectPredicate(#Predicate<Mood> { $0.country?.name == "France" })
    /// // the same as try ObjectPredicate(format: "country.name == %@", "France")
    /// ```
    ///
    /// Key paths of a class's properties become model keys through its ``ModelKeyPaths``. What
    /// translates: `==`, `!=`, `<`, `<=`, `>`, `>=`, `&&`, `||`, `!`, Boolean properties,
    /// constants and `nil`, optional chaining (`?.`) and `!`, `String.contains(_:)`
    /// (`CONTAINS`), `starts(with:)` (`BEGINSWITH`), `contains(_:)` of a constant array (`IN`)
    /// or of a to-many (`CONTAINS`), `contains(where:)` and `allSatisfy(_:)` of a to-many
    /// (`SUBQUERY`), a collection's `count` (`@count`), and a closed range's `contains(_:)`
    /// (`BETWEEN`). Anything else is refused (see `docs/typed-models.md`).
    ///
    /// - Throws: ``ObjectPredicateError/untranslatable(expression:reason:)`` naming the
    ///   expression that has no equivalent, or ``FetchRequestError/unnamedKeyPath(type:keyPath:)``
    ///   for a key path its class does not name.
    public init<Root>(_ predicate: Predicate<Root>) throws {
        var translation = PredicateTranslation(root: predicate.variable.key)
        self = try translation.predicate(predicate.expression)
    }
}

extension FetchRequest {
    /// Creates a request for the objects of `Result`'s entity that a Foundation `#Predicate`
    /// accepts (translated by ``ObjectPredicate/init(_:)``).
    ///
    /// ```swift
    /// let recent = try FetchRequest<Mood>(predicate: #Predicate { $0.date > cutoff },
    ///                                     sortDescriptors: [ObjectSortDescriptor(\Mood.date, order: .reverse)])
    /// ```
    ///
    /// - Throws: what ``ObjectPredicate/init(_:)`` throws.
    public init(
        entityName: String = Result.entityName,
        predicate: Predicate<Result>,
        sortDescriptors: [ObjectSortDescriptor] = [],
        fetchLimit: Int = 0,
        fetchOffset: Int = 0
    ) throws {
        self.init(uncheckedEntityName: entityName, predicate: try ObjectPredicate(predicate),
                  sortDescriptors: sortDescriptors, fetchLimit: fetchLimit, fetchOffset: fetchOffset)
    }
}

/// What one Foundation predicate expression translates to: a condition, or a value.
enum TranslatedPredicatePart {
    case predicate(ObjectPredicate)
    case expression(ObjectExpression)
}

/// The state of a `#Predicate` translation: what each of its variables stands for.
struct PredicateTranslation {
    /// The expression each variable stands for: the root is `SELF`, a closure's variable a
    /// `SUBQUERY` variable, an optional chain's variable the value it unwraps.
    var variables: [PredicateExpressions.VariableID: ObjectExpression]
    /// How many `SUBQUERY` variables were named so far.
    var subqueries = 0

    init(root: PredicateExpressions.VariableID) {
        variables = [root: .evaluatedObject]
    }

    /// `expression` translated as a condition (a Boolean value `v` is `v == YES`).
    mutating func predicate(_ expression: Any) throws -> ObjectPredicate {
        switch try part(expression) {
        case .predicate(let predicate): return predicate
        case .expression(let value): return .compare(value, .equalTo, .constant(.bool(true)))
        }
    }

    /// `expression` translated as a value.
    mutating func value(_ expression: Any) throws -> ObjectExpression {
        switch try part(expression) {
        case .expression(let value): return value
        case .predicate(let predicate):
            throw ObjectPredicateError.untranslatable(
                expression: Self.name(of: expression),
                reason: "a condition (\(predicate)) is used as a value")
        }
    }

    mutating func part(_ expression: Any) throws -> TranslatedPredicatePart {
        guard let translatable = expression as? any TranslatablePredicateExpression else {
            throw ObjectPredicateError.untranslatable(
                expression: Self.name(of: expression), reason: "it has no equivalent in a Strata predicate")
        }
        return try translatable.translated(in: &self)
    }

    /// A name for the `SUBQUERY` variable of the next closure.
    mutating func nextVariableName() -> String {
        subqueries += 1
        return "v\(subqueries)"
    }

    /// The name of an expression's type without its generic arguments (`Arithmetic`).
    static func name(of expression: Any) -> String {
        let full = String(describing: type(of: expression))
        return String(full.prefix { $0 != "<" })
    }

    /// A comparison of two translated values.
    ///
    /// A condition compared `== true` is the condition itself (`$0.note?.contains("sea") ==
    /// true`, where the optional chain gives a `Bool?`): nil is not true, and a condition on a
    /// nil value does not hold.
    mutating func compare(_ lhs: Any, _ operation: ObjectPredicate.Operator, _ rhs: Any) throws -> TranslatedPredicatePart {
        let left = try part(lhs)
        let right = try part(rhs)
        switch (left, right) {
        case let (.expression(a), .expression(b)):
            return .predicate(.compare(a, operation, b))
        case (.predicate(let condition), .expression(.constant(.bool(true)))) where operation == .equalTo,
             (.expression(.constant(.bool(true))), .predicate(let condition)) where operation == .equalTo:
            return .predicate(condition)
        default:
            throw ObjectPredicateError.untranslatable(
                expression: Self.name(of: lhs) + " " + operation.rawValue + " " + Self.name(of: rhs),
                reason: "a condition is compared other than with == true")
        }
    }

    /// A constant from a Swift value, refused when it is not a value a predicate holds.
    static func constant(_ value: Any, in expression: Any) throws -> ObjectExpression {
        let converted = PredicateValue(value)
        if case .string = converted, unwrappedOptional(value).map({ $0 is String || $0 is Substring }) == false {
            throw ObjectPredicateError.untranslatable(
                expression: name(of: expression),
                reason: "the constant \(value) of type \(type(of: value)) is not a predicate value")
        }
        return .constant(converted)
    }
}

/// A Foundation predicate expression that has a Strata equivalent.
protocol TranslatablePredicateExpression {
    /// The expression's Strata equivalent.
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart
}

extension PredicateExpressions.Variable: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        guard let bound = translation.variables[key] else {
            throw ObjectPredicateError.untranslatable(expression: "Variable", reason: "a variable outside its closure")
        }
        return .expression(bound)
    }
}

extension PredicateExpressions.KeyPath: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        let base = try translation.value(root)
        if let collection = Root.Output.self as? any CountedCollection.Type, keyPath == collection.countKeyPath {
            return .expression(.keyPath("@count", of: base))
        }
        guard let named = Root.Output.self as? any ModelKeyPaths.Type else {
            throw ObjectPredicateError.untranslatable(
                expression: "KeyPath \(keyPath)",
                reason: "\(Root.Output.self) does not name its model keys (ModelKeyPaths)")
        }
        return .expression(.keyPath(try named.modelKey(for: keyPath), of: base))
    }
}

/// A collection whose `count` a predicate says as `@count`: a to-many as a typed class holds it
/// (`Set`, `Array`). The key path is the type's own `count`, the one `#Predicate`
/// writes, which is not equal to the `Collection` requirement's.
protocol CountedCollection {
    /// `\Self.count`.
    static var countKeyPath: AnyKeyPath { get }
}

extension Set: CountedCollection {
    static var countKeyPath: AnyKeyPath { \Set.count }
}

extension Array: CountedCollection {
    static var countKeyPath: AnyKeyPath { \Array.count }
}

extension PredicateExpressions.Value: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        .expression(try PredicateTranslation.constant(value, in: self))
    }
}

extension PredicateExpressions.NilLiteral: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        .expression(.constant(.null))
    }
}

extension PredicateExpressions.Equal: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        try translation.compare(lhs, .equalTo, rhs)
    }
}

extension PredicateExpressions.NotEqual: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        try translation.compare(lhs, .notEqualTo, rhs)
    }
}

extension PredicateExpressions.Comparison: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        let operation: ObjectPredicate.Operator = switch op {
        case .lessThan: .lessThan
        case .lessThanOrEqual: .lessThanOrEqualTo
        case .greaterThan: .greaterThan
        case .greaterThanOrEqual: .greaterThanOrEqualTo
        }
        return try translation.compare(lhs, operation, rhs)
    }
}

extension PredicateExpressions.Conjunction: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        .predicate(try translation.predicate(lhs) && translation.predicate(rhs))
    }
}

extension PredicateExpressions.Disjunction: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        .predicate(try translation.predicate(lhs) || translation.predicate(rhs))
    }
}

extension PredicateExpressions.Negation: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        .predicate(.not(try translation.predicate(wrapped)))
    }
}

extension PredicateExpressions.ForcedUnwrap: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        try translation.part(inner)
    }
}

extension PredicateExpressions.OptionalFlatMap: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        // `a?.b` reads `b` of what `a` gives; a nil `a` gives nil, as a key path through a
        // missing to-one does.
        translation.variables[variable.key] = try translation.value(wrapped)
        return try translation.part(transform)
    }
}

extension PredicateExpressions.CollectionContainsCollection: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        guard Base.Output.self == String.self || Base.Output.self == Substring.self else {
            throw ObjectPredicateError.untranslatable(
                expression: "CollectionContainsCollection",
                reason: "contains(_:) of a \(Base.Output.self) that is not a string")
        }
        return try translation.compare(base, .contains, other)
    }
}

extension PredicateExpressions.SequenceStartsWith: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        guard Base.Output.self == String.self || Base.Output.self == Substring.self else {
            throw ObjectPredicateError.untranslatable(
                expression: "SequenceStartsWith",
                reason: "starts(with:) of a \(Base.Output.self) that is not a string")
        }
        return try translation.compare(base, .beginsWith, prefix)
    }
}

extension PredicateExpressions.SequenceContains: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        let collection = try translation.value(sequence)
        let item = try translation.value(element)
        if case .constant = collection {
            return .predicate(.compare(item, .in, collection))
        }
        return .predicate(.compare(collection, .contains, item))
    }
}

extension PredicateExpressions.SequenceContainsWhere: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        let (collection, name, condition) = try translation.closure(over: sequence, variable: variable.key, test: test)
        let matches = ObjectExpression.keyPath("@count", of: .subquery(collection: collection, variable: name, predicate: condition))
        return .predicate(.compare(matches, .greaterThan, .constant(.integer(0))))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        let (collection, name, condition) = try translation.closure(over: sequence, variable: variable.key, test: test)
        let failures = ObjectExpression.keyPath("@count", of: .subquery(collection: collection, variable: name, predicate: .not(condition)))
        return .predicate(.compare(failures, .equalTo, .constant(.integer(0))))
    }
}

extension PredicateTranslation {
    /// The collection, `SUBQUERY` variable name and condition of a closure over a to-many.
    mutating func closure(over sequence: Any, variable: PredicateExpressions.VariableID,
                          test: Any) throws -> (ObjectExpression, String, ObjectPredicate) {
        let collection = try value(sequence)
        let name = nextVariableName()
        variables[variable] = .variable(name)
        return (collection, name, try predicate(test))
    }
}

extension PredicateExpressions.RangeExpressionContains: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws -> TranslatedPredicatePart {
        guard let closed = range as? any ClosedRangeBounds else {
            throw ObjectPredicateError.untranslatable(
                expression: "RangeExpressionContains", reason: "contains(_:) of a range that is not closed (a...b)")
        }
        let bounds = ObjectExpression.collection([try translation.value(closed.lowerExpression),
                                                  try translation.value(closed.upperExpression)])
        return .predicate(.compare(try translation.value(element), .between, bounds))
    }
}

/// The two ends of a closed range expression, whatever their types.
protocol ClosedRangeBounds {
    var lowerExpression: Any { get }
    var upperExpression: Any { get }
}

extension PredicateExpressions.ClosedRange: ClosedRangeBounds {
    var lowerExpression: Any { lower }
    var upperExpression: Any { upper }
}
