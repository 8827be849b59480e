import StrataModelFiles

/// An expression of a mapping model: a property mapping's value expression or an entity
/// mapping's source expression (Core Data's `NSExpression`), as a tree.
///
/// Xcode archives these with `NSKeyedArchiver`; ``MappingModel/load(at:)`` reads the archive
/// into this tree, which is the `ArchivedExpression` compiled models use too:
///
/// ```swift
/// let expression = MappingExpression.keyPath(.variable("source"), "continent.numericISO3166Code")
/// expression.format          // "$source.continent.numericISO3166Code"
/// expression.sourceKeyPath   // "continent.numericISO3166Code"
/// ```
public typealias MappingExpression = ArchivedExpression

extension ArchivedExpression {
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
