/// Why a predicate could not be parsed or evaluated.
public enum ObjectPredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format string is malformed at `column` (1-based, counted in Unicode scalars):
    /// `expected` says what the parser needed there, `found` what it saw.
    case syntax(format: String, column: Int, expected: String, found: String)
    /// A `%` specifier at `column` has no argument left.
    case missingArgument(format: String, column: Int)
    /// The argument of the specifier at `column` does not fit it (`%K` needs a key path
    /// string, `%d` an integer, …).
    case badArgument(format: String, column: Int, expected: String)
    /// A `$VARIABLE` had no value when the predicate was evaluated.
    case unboundVariable(String)
    /// A `MATCHES` pattern is not a valid regular expression.
    case invalidRegularExpression(String)
    /// A part of a Foundation `#Predicate` has no equivalent in a Strata predicate:
    /// `expression` names it (`Arithmetic`, `KeyPath \Mood.<computed …>`), `reason` says why.
    case untranslatable(expression: String, reason: String)

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
        case let .untranslatable(expression, reason): "#Predicate: cannot translate \(expression): \(reason)"
        }
    }
}
