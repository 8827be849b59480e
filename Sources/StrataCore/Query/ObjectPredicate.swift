import Foundation

/// A condition on objects, written in the format-string language of Core Data's predicates.
///
/// ```swift
/// let adults = try ObjectPredicate(format: "age >= %@ AND name BEGINSWITH[c] %@", 18, "a")
/// try adults.evaluate(with: student)   // true or false
/// ```
///
/// Predicates are immutable values, `Sendable` and `Hashable`: object arguments are held as
/// their IDs. They evaluate against anything that is ``KeyValueCoding`` (managed objects,
/// store snapshots, dictionaries) and against plain values through `SELF`. `description`
/// prints a format string that parses back to an equal predicate. They can also be built in
/// code, with the cases, the `compare` functions and the operators `&&`, `||` and `!`. The
/// grammar and its exact semantics are in `docs/predicates.md`.
public indirect enum ObjectPredicate: Sendable, Hashable, CustomStringConvertible {
    /// Always true (`TRUEPREDICATE`).
    case truePredicate
    /// Always false (`FALSEPREDICATE`).
    case falsePredicate
    /// Every sub-predicate holds (`AND`); an empty list holds.
    case and([ObjectPredicate])
    /// At least one sub-predicate holds (`OR`); an empty list does not hold.
    case or([ObjectPredicate])
    /// The sub-predicate does not hold (`NOT`).
    case not(ObjectPredicate)
    /// A comparison between two expressions.
    case comparison(Comparison)

    /// A comparison: `[ANY|ALL|NONE] left OPERATOR[options] right`.
    public struct Comparison: Sendable, Hashable {
        /// The left expression.
        public var left: ObjectExpression
        /// The operator.
        public var operation: Operator
        /// The right expression.
        public var right: ObjectExpression
        /// String comparison options.
        public var options: StringComparisonOptions
        /// How a collection on the left is quantified.
        public var modifier: Modifier

        /// Creates a comparison.
        public init(_ left: ObjectExpression, _ operation: Operator, _ right: ObjectExpression,
                    options: StringComparisonOptions = [], modifier: Modifier = .direct) {
            self.left = left
            self.operation = operation
            self.right = right
            self.options = options
            self.modifier = modifier
        }
    }

    /// A comparison operator.
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        /// `==` (also `=`)
        case equalTo = "=="
        /// `!=` (also `<>`)
        case notEqualTo = "!="
        /// `<`
        case lessThan = "<"
        /// `<=` (also `=<`)
        case lessThanOrEqualTo = "<="
        /// `>`
        case greaterThan = ">"
        /// `>=` (also `=>`)
        case greaterThanOrEqualTo = ">="
        /// `BEGINSWITH`
        case beginsWith = "BEGINSWITH"
        /// `ENDSWITH`
        case endsWith = "ENDSWITH"
        /// `CONTAINS` (substring, or membership when the left side is a collection)
        case contains = "CONTAINS"
        /// `LIKE` with `*` and `?` wildcards
        case like = "LIKE"
        /// `MATCHES` a regular expression (ICU syntax, whole-string match)
        case matches = "MATCHES"
        /// `IN` a collection (or substring of a string)
        case `in` = "IN"
        /// `BETWEEN {low, high}`, both ends included
        case between = "BETWEEN"
    }

    /// How the left side's collection is quantified.
    public enum Modifier: String, Sendable, Hashable {
        /// No quantifier.
        case direct = ""
        /// `ANY` (also `SOME`): at least one element passes.
        case any = "ANY"
        /// `ALL`: every element passes (true for an empty collection).
        case all = "ALL"
        /// `NONE`: no element passes (true for an empty collection).
        case none = "NONE"
    }

    /// Parses a predicate from a format string and its arguments.
    ///
    /// ```swift
    /// try ObjectPredicate(format: "%K BEGINSWITH[cd] %@ AND age BETWEEN {%d, %d}", "name", "e", 18, 65)
    /// ```
    ///
    /// - Throws: ``ObjectPredicateError`` naming the 1-based column where parsing failed and
    ///   what was expected there.
    public init(format: String, _ arguments: Any?...) throws {
        var parser = PredicateParser(format: format, arguments: arguments)
        self = try parser.parse()
    }

    /// Parses a predicate from a format string and an array of arguments.
    ///
    /// - Throws: ``ObjectPredicateError`` naming the column where parsing failed.
    public init(format: String, argumentArray: [Any?]) throws {
        var parser = PredicateParser(format: format, arguments: argumentArray)
        self = try parser.parse()
    }

    /// `TRUEPREDICATE` or `FALSEPREDICATE` (Core Data's `NSPredicate(value:)`).
    public init(value: Bool) {
        self = value ? .truePredicate : .falsePredicate
    }

    /// `key == value`, built in code.
    public static func equal(_ keyPath: String, _ value: Any?) -> ObjectPredicate {
        .comparison(Comparison(.keyPath(keyPath), .equalTo, .value(value)))
    }

    /// `[modifier] keyPath OPERATOR[options] value`, built in code.
    ///
    /// ```swift
    /// ObjectPredicate.compare("name", .beginsWith, "saint", options: [.caseInsensitive, .diacriticInsensitive])
    /// ```
    public static func compare(_ keyPath: String, _ operation: Operator, _ value: Any?,
                               options: StringComparisonOptions = [], modifier: Modifier = .direct) -> ObjectPredicate {
        .comparison(Comparison(.keyPath(keyPath), operation, .value(value), options: options, modifier: modifier))
    }

    /// `[modifier] left OPERATOR[options] right` between two expressions, built in code.
    public static func compare(_ left: ObjectExpression, _ operation: Operator, _ right: ObjectExpression,
                               options: StringComparisonOptions = [], modifier: Modifier = .direct) -> ObjectPredicate {
        .comparison(Comparison(left, operation, right, options: options, modifier: modifier))
    }

    /// Both predicates hold (Core Data's `NSCompoundPredicate(andPredicateWithSubpredicates:)`);
    /// an `AND` on either side is extended rather than nested.
    public static func && (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        switch (lhs, rhs) {
        case let (.and(a), .and(b)): .and(a + b)
        case let (.and(a), _): .and(a + [rhs])
        case let (_, .and(b)): .and([lhs] + b)
        default: .and([lhs, rhs])
        }
    }

    /// Either predicate holds; an `OR` on either side is extended rather than nested.
    public static func || (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        switch (lhs, rhs) {
        case let (.or(a), .or(b)): .or(a + b)
        case let (.or(a), _): .or(a + [rhs])
        case let (_, .or(b)): .or([lhs] + b)
        default: .or([lhs, rhs])
        }
    }

    /// The predicate does not hold.
    public static prefix func ! (predicate: ObjectPredicate) -> ObjectPredicate {
        .not(predicate)
    }

    /// Whether `object` satisfies the predicate.
    ///
    /// `object` may be anything ``KeyValueCoding`` (a managed object, a dictionary) or a plain
    /// value that the predicate reaches through `SELF`. `substitutionVariables` binds
    /// `$VARIABLE`s for this evaluation; their values keep their type, so `$obj.name` reads the
    /// key of an object passed in.
    ///
    /// - Throws: ``ObjectPredicateError/unboundVariable(_:)``,
    ///   ``ObjectPredicateError/invalidRegularExpression(_:)``, or the error of a key the
    ///   object does not have.
    public func evaluate(with object: Any?, substitutionVariables: [String: Any?] = [:]) throws -> Bool {
        let variables = substitutionVariables.mapValues { $0.flatMap(unwrappedOptional) ?? PredicateValue.null as Any }
        return try PredicateEvaluator(variables: variables).evaluate(self, on: object)
    }

    /// The predicate with every `$VARIABLE` in `variables` replaced by a constant (Core Data's
    /// `withSubstitutionVariables(_:)`); variables not in the dictionary stay.
    public func withSubstitutionVariables(_ variables: [String: Any?]) -> ObjectPredicate {
        substituting(variables.mapValues { PredicateValue($0) })
    }

    func substituting(_ values: [String: PredicateValue]) -> ObjectPredicate {
        switch self {
        case .truePredicate, .falsePredicate: return self
        case .and(let items): return .and(items.map { $0.substituting(values) })
        case .or(let items): return .or(items.map { $0.substituting(values) })
        case .not(let item): return .not(item.substituting(values))
        case .comparison(var comparison):
            comparison.left = comparison.left.substituting(values)
            comparison.right = comparison.right.substituting(values)
            return .comparison(comparison)
        }
    }

    /// The predicate as a format string that parses back to an equal predicate.
    public var description: String { PredicateFormatter.format(self) }

    /// The predicate as a format string (Core Data's `predicateFormat`).
    public var predicateFormat: String { description }
}
