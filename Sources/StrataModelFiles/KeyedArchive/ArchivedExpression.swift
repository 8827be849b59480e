import Foundation

/// Core Data's `NSExpression` as a tree: a derived attribute's derivation, a fetch's predicate
/// side, a mapping model's value or source expression.
///
/// Core Data archives these with `NSKeyedArchiver` (in compiled models and in mapping models);
/// Strata reads the archive into this tree. ``format`` writes it in Core Data's expression format:
///
/// ```swift
/// let expression = ArchivedExpression.keyPath(.variable("source"), "continent.numericISO3166Code")
/// expression.format          // "$source.continent.numericISO3166Code"
/// ```
public indirect enum ArchivedExpression: Sendable, Hashable, CustomStringConvertible {
    /// A constant value (`"Unknown"`, `0`, `YES`, `nil`).
    case constant(Constant)
    /// A variable: `$source`, `$manager`, `$FETCH_SOURCE`, …
    case variable(String)
    /// The object the expression is evaluated with (`SELF`).
    case evaluatedObject
    /// A key path applied to an expression: `$source.name` is `.keyPath(.variable("source"), "name")`;
    /// a path on the evaluated object is `.keyPath(.evaluatedObject, "name")`, written `name`.
    /// The path is kept as written, collection operators included (`countries.@distinctUnionOfSets.moods`).
    case keyPath(ArchivedExpression, String)
    /// `FUNCTION(receiver, "selector", arguments…)`: a method called on the receiver, such as
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "MoodToMood", $source.moods)`.
    case function(receiver: ArchivedExpression, selector: String, arguments: [ArchivedExpression])
    /// One of the expression language's own functions (`now()`, `sum(…)`, `count(…)`), which Core
    /// Data archives as a method of its private `_NSPredicateUtilities` class.
    case builtInFunction(name: String, arguments: [ArchivedExpression])
    /// `FETCH(request, context, NO)`: the objects a fetch request finds in a context (Core
    /// Data's `NSFetchRequestExpression`). A mapping model's source expression is one:
    /// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Mood", "rating > 2"), $manager.sourceContext, NO)`.
    case fetch(request: ArchivedExpression, context: ArchivedExpression, countOnly: Bool)
    /// An archived expression of a class Strata does not model (a subquery, an aggregate, a
    /// ternary…); kept by class name so that the file loads and its user can refuse it by name.
    case unsupported(className: String)

    /// A constant of an expression.
    public enum Constant: Sendable, Hashable {
        /// `nil`.
        case null
        /// A string.
        case string(String)
        /// An integer (`NSNumber` holding one).
        case integer(Int64)
        /// A floating-point number.
        case double(Double)
        /// A Boolean (`NSNumber` holding one).
        case bool(Bool)
        /// A date.
        case date(Date)
        /// Bytes.
        case data(Data)
        /// A class, by name (the receiver of a class method).
        case className(String)
        /// A fetch request (`NSFetchRequest`): its entity and its predicate in Core Data's
        /// predicate format (`nil` for none).
        case fetchRequest(entityName: String, predicate: String?)
    }

    /// The expression in Core Data's expression format (the text Xcode's editor shows).
    public var format: String {
        switch self {
        case .constant(let constant): constant.format
        case .variable(let name): "$" + name
        case .evaluatedObject: "SELF"
        case let .keyPath(base, path):
            base == .evaluatedObject ? path : "\(base.format).\(path)"
        case let .function(receiver, selector, arguments):
            "FUNCTION(" + ([receiver.format, Constant.string(selector).format] + arguments.map(\.format)).joined(separator: ", ") + ")"
        case let .builtInFunction(name, arguments):
            name + "(" + arguments.map(\.format).joined(separator: ", ") + ")"
        case let .fetch(request, context, countOnly):
            "FETCH(\(request.format), \(context.format), \(countOnly ? "YES" : "NO"))"
        case .unsupported(let className): "<\(className)>"
        }
    }

    /// ``format``.
    public var description: String { format }
}

extension ArchivedExpression.Constant {
    /// The constant in Core Data's expression format.
    public var format: String {
        switch self {
        case .null: "nil"
        case .string(let s):
            "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .integer(let v): String(v)
        case .double(let v): "\(v)"
        case .bool(let v): v ? "YES" : "NO"
        case .date(let v): "CAST(\(v.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .data(let v): "<\(v.count) bytes>"
        case .className(let name): "CAST(\"\(name)\", \"Class\")"
        case let .fetchRequest(entity, predicate): "<NSFetchRequest entity: \(entity); predicate: (\(predicate ?? "TRUEPREDICATE"))>"
        }
    }
}
