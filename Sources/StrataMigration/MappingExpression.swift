import Foundation

/// An expression of a mapping model: a property mapping's value expression or an entity
/// mapping's source expression (Core Data's `NSExpression`), as a tree.
///
/// Xcode archives these with `NSKeyedArchiver`; ``MappingModel/load(at:)`` reads the archive
/// into this tree. ``format`` writes it in Core Data's expression format:
///
/// ```swift
/// let expression = MappingExpression.keyPath(.variable("source"), "continent.numericISO3166Code")
/// expression.format          // "$source.continent.numericISO3166Code"
/// expression.sourceKeyPath   // "continent.numericISO3166Code"
/// ```
public indirect enum MappingExpression: Sendable, Hashable, CustomStringConvertible {
    /// A constant value (`"Unknown"`, `0`, `YES`, `nil`).
    case constant(Constant)
    /// A variable: `$source`, `$manager`, `$entityPolicy`, `$destination`, …
    case variable(String)
    /// The object the expression is evaluated with (`SELF`).
    case evaluatedObject
    /// A key path applied to an expression: `$source.name` is `.keyPath(.variable("source"), "name")`;
    /// a path on the evaluated object is `.keyPath(.evaluatedObject, "name")`, written `name`.
    /// The path is kept as written, collection operators included (`countries.@distinctUnionOfSets.moods`).
    case keyPath(MappingExpression, String)
    /// `FUNCTION(receiver, "selector", arguments…)`: a method called on the receiver, such as
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "MoodToMood", $source.moods)`.
    case function(receiver: MappingExpression, selector: String, arguments: [MappingExpression])
    /// One of the expression language's own functions (`now()`, `sum(…)`), which Core Data
    /// archives as a method of its private `_NSPredicateUtilities` class.
    case builtInFunction(name: String, arguments: [MappingExpression])
    /// An archived expression of a class Strata does not model (a subquery, an aggregate, a
    /// ternary…); kept by class name so that the mapping model loads and a migration can refuse
    /// it by name.
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
        case .unsupported(let className): "<\(className)>"
        }
    }

    /// ``format``.
    public var description: String { format }

    /// The key path read from the source object, when the expression is just that:
    /// `"name"` for `$source.name`, `""` for `$source` itself; `nil` for anything else.
    public var sourceKeyPath: String? {
        switch self {
        case .variable("source"): ""
        case .keyPath(.variable("source"), let path): path
        default: nil
        }
    }

    /// The selector of the migration manager's method that carries a relationship over.
    public static let destinationInstancesSelector = "destinationInstancesForEntityMappingNamed:sourceInstances:"

    /// For `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "M", X)`:
    /// the entity mapping's name `M` and the source instances `X`; `nil` for anything else.
    public var destinationInstances: DestinationInstances? {
        guard case let .function(.variable("manager"), Self.destinationInstancesSelector, arguments) = self,
              arguments.count == 2, case .constant(.string(let name)) = arguments[0] else { return nil }
        return DestinationInstances(entityMappingName: name, sourceInstances: arguments[1])
    }

    /// What a relationship mapping's usual value expression says: take the destination objects
    /// that the entity mapping named `entityMappingName` made from `sourceInstances`.
    public struct DestinationInstances: Sendable, Hashable {
        /// The entity mapping whose destination objects are meant.
        public var entityMappingName: String
        /// The source objects (usually `$source.<relationship>`).
        public var sourceInstances: MappingExpression

        /// Creates the description of a relationship mapping's expression.
        public init(entityMappingName: String, sourceInstances: MappingExpression) {
            self.entityMappingName = entityMappingName
            self.sourceInstances = sourceInstances
        }

        /// The expression that says it, as Xcode generates it.
        public var expression: MappingExpression {
            .function(receiver: .variable("manager"), selector: MappingExpression.destinationInstancesSelector,
                      arguments: [.constant(.string(entityMappingName)), sourceInstances])
        }
    }

    /// Reads a key path as Xcode's relationship mapping inspector takes it: `$source`,
    /// `$source.country.continent`, or a path on the evaluated object (`country.continent`).
    /// Returns `nil` for anything else (spaces, operators, quotes, empty components).
    public static func parseKeyPath(_ text: String) -> MappingExpression? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var components = trimmed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = components.first, !first.isEmpty else { return nil }
        let valid: (String) -> Bool = { component in
            var body = Substring(component)
            if body.first == "@" { body = body.dropFirst() }
            guard let head = body.first, head.isLetter || head == "_" else { return false }
            return body.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }
        var base = MappingExpression.evaluatedObject
        if first.hasPrefix("$") {
            let name = String(first.dropFirst())
            guard valid(name), !name.hasPrefix("@") else { return nil }
            base = .variable(name)
            components.removeFirst()
        }
        guard components.allSatisfy(valid) else { return nil }
        return components.isEmpty ? base : .keyPath(base, components.joined(separator: "."))
    }
}

extension MappingExpression.Constant {
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
        }
    }
}
