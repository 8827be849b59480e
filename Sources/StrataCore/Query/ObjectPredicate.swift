import Foundation

/// A condition on objects, written in the format-string language of Core Data's predicates.
///
/// ```swift
/// let adults = try ObjectPredicate(format: "age >= %@ AND name BEGINSWITH[c] %@", 18, "a")
/// try adults.evaluate(with: student)   // true or false
/// ```
///
/// Predicates are immutable values, `Sendable` and `Hashable`: object arguments are held as
/// their IDs. They evaluate against anything that is ``KeyValueCoding``. `description` prints a
/// format string that parses back to an equal predicate.
public indirect enum ObjectPredicate: Sendable, Hashable, CustomStringConvertible {
    /// Always true (`TRUEPREDICATE`).
    case truePredicate
    /// Always false (`FALSEPREDICATE`).
    case falsePredicate
    /// Every sub-predicate holds (`AND`).
    case and([ObjectPredicate])
    /// At least one sub-predicate holds (`OR`).
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
        /// `==`
        case equalTo = "=="
        /// `!=`
        case notEqualTo = "!="
        /// `<`
        case lessThan = "<"
        /// `<=`
        case lessThanOrEqualTo = "<="
        /// `>`
        case greaterThan = ">"
        /// `>=`
        case greaterThanOrEqualTo = ">="
        /// `BEGINSWITH`
        case beginsWith = "BEGINSWITH"
        /// `ENDSWITH`
        case endsWith = "ENDSWITH"
        /// `CONTAINS` (substring, or membership when the left side is a collection)
        case contains = "CONTAINS"
        /// `LIKE` with `*` and `?` wildcards
        case like = "LIKE"
        /// `MATCHES` a regular expression
        case matches = "MATCHES"
        /// `IN` a collection (or substring of a string)
        case `in` = "IN"
        /// `BETWEEN {low, high}`
        case between = "BETWEEN"
    }

    /// How the left side's collection is quantified.
    public enum Modifier: String, Sendable, Hashable {
        /// No quantifier.
        case direct = ""
        /// `ANY` (also `SOME`).
        case any = "ANY"
        /// `ALL`.
        case all = "ALL"
        /// `NONE`.
        case none = "NONE"
    }

    /// Parses a predicate from a format string and its arguments.
    ///
    /// - Throws: ``ObjectPredicateError`` with the column where parsing failed.
    public init(format: String, _ arguments: Any?...) throws {
        var parser = PredicateParser(format: format, arguments: arguments)
        self = try parser.parse()
    }

    /// Parses a predicate from a format string and an array of arguments.
    public init(format: String, argumentArray: [Any?]) throws {
        var parser = PredicateParser(format: format, arguments: argumentArray)
        self = try parser.parse()
    }

    /// `key == value`, built in code.
    public static func equal(_ keyPath: String, _ value: Any?) -> ObjectPredicate {
        .comparison(Comparison(.keyPath(keyPath), .equalTo, .constant(PredicateValue(value))))
    }

    /// Whether `object` satisfies the predicate.
    public func evaluate(with object: Any?, substitutionVariables: [String: Any?] = [:]) throws -> Bool {
        try PredicateEvaluator(variables: substitutionVariables.mapValues { PredicateValue($0) }).evaluate(self, on: object)
    }

    /// The predicate with every `$VARIABLE` replaced by a constant.
    public func withSubstitutionVariables(_ variables: [String: Any?]) -> ObjectPredicate {
        let values = variables.mapValues { PredicateValue($0) }
        func substitute(_ expression: ObjectExpression) -> ObjectExpression {
            switch expression {
            case .variable(let name): values[name].map { .constant($0) } ?? expression
            case .aggregate(let items): .aggregateOrConstant(items.map(substitute))
            default: expression
            }
        }
        switch self {
        case .truePredicate, .falsePredicate: return self
        case .and(let items): return .and(items.map { $0.withSubstitutionVariables(variables) })
        case .or(let items): return .or(items.map { $0.withSubstitutionVariables(variables) })
        case .not(let item): return .not(item.withSubstitutionVariables(variables))
        case .comparison(var comparison):
            comparison.left = substitute(comparison.left)
            comparison.right = substitute(comparison.right)
            return .comparison(comparison)
        }
    }

    /// The predicate as a format string that parses back to an equal predicate.
    public var description: String { PredicateFormatter.format(self) }

    /// The predicate as a format string (Core Data's `predicateFormat`).
    public var predicateFormat: String { description }
}

/// Why a predicate could not be parsed or evaluated.
public enum ObjectPredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format string is malformed at `column` (1-based, counted in Unicode scalars).
    case syntax(format: String, column: Int, expected: String, found: String)
    /// A `%` specifier has no argument.
    case missingArgument(format: String, column: Int)
    /// An argument does not fit its specifier.
    case badArgument(format: String, column: Int, expected: String)
    /// A `$VARIABLE` was not substituted.
    case unboundVariable(String)
    /// A `MATCHES` pattern is not a valid regular expression.
    case invalidRegularExpression(String)

    /// One line saying what is wrong and where.
    public var description: String {
        switch self {
        case let .syntax(format, column, expected, found):
            "predicate '\(format)', column \(column): expected \(expected), found \(found)"
        case let .missingArgument(format, column):
            "predicate '\(format)', column \(column): no argument for this specifier"
        case let .badArgument(format, column, expected):
            "predicate '\(format)', column \(column): argument must be \(expected)"
        case .unboundVariable(let name): "predicate variable $\(name) has no value"
        case .invalidRegularExpression(let pattern): "'\(pattern)' is not a valid regular expression"
        }
    }
}
