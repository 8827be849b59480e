import Foundation

/// A derived attribute's ``AttributeDescription/derivationExpression``, parsed and checked
/// against the model: what every store computes when it saves.
///
/// The forms are Core Data's: a copy through a key path (`name`, `author.name`, to-ones then an
/// attribute), `lowercase:(path)`, `uppercase:(path)` and `canonical:(path)` of a string (canonical
/// is lowercased without diacritics), an aggregate of a to-many (`pages.@count`,
/// `pages.@sum.number` or `pages.number.@sum`, and `@min`, `@max`, `@avg`) and `now()` (the time of
/// the save that last inserted or changed the object).
public enum Derivation: Sendable, Hashable {
    /// A string function of a derivation.
    public enum StringFunction: String, Sendable, Hashable, CaseIterable {
        /// The value lowercased.
        case lowercase
        /// The value uppercased.
        case uppercase
        /// The value lowercased and without diacritics, for searching.
        case canonical
    }

    /// A collection operator of a derivation.
    public enum Aggregate: String, Sendable, Hashable, CaseIterable {
        /// The number of destinations (0 for none).
        case count
        /// The sum of the destinations' values (0 for none; nil values are skipped).
        case sum
        /// The smallest value (nil for none).
        case min
        /// The largest value (nil for none).
        case max
        /// The mean of the non-nil values, as a double (nil for none).
        case avg
    }

    /// The value at the end of a key path of to-one relationships and an attribute.
    case copy(path: [String])
    /// A string function of the value at the end of a key path.
    case string(StringFunction, path: [String])
    /// An aggregate of a to-many relationship; `attribute` is nil for `@count`.
    case aggregate(Aggregate, relationship: String, attribute: String?)
    /// The time of the save.
    case now

    /// Parses `text` for an attribute of `entity` in a model whose entities are `entities`, or
    /// returns a reason why Strata cannot compute it.
    static func parse(_ text: String, attribute: AttributeDescription, entity: EntityDescription,
                      entities: [String: EntityDescription]) -> Result<Derivation, DerivationProblem> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let derivation: Derivation
        if trimmed == "now()" {
            derivation = .now
        } else if let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") {
            var name = String(trimmed[..<open])
            if name.hasSuffix(":") { name.removeLast() }
            guard let function = StringFunction(rawValue: name) else { return .failure(.unknownFunction(name)) }
            let inside = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            derivation = .string(function, path: inside.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false).map(String.init))
        } else if trimmed.contains("@") {
            let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let index = parts.firstIndex(where: { $0.hasPrefix("@") }),
                  let function = Aggregate(rawValue: String(parts[index].dropFirst())) else {
                return .failure(.unknownFunction(trimmed))
            }
            let rest = parts.enumerated().filter { $0.offset != index }.map(\.element)
            guard !rest.isEmpty, rest.count <= 2 else { return .failure(.unsupportedKeyPath(trimmed)) }
            derivation = .aggregate(function, relationship: rest[0], attribute: rest.count == 2 ? rest[1] : nil)
        } else {
            derivation = .copy(path: trimmed.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
        }
        if let problem = derivation.problem(for: attribute, of: entity, entities: entities) { return .failure(problem) }
        return .success(derivation)
    }

    /// Why the derivation cannot give `attribute` its value, or nil when it can.
    private func problem(for attribute: AttributeDescription, of entity: EntityDescription,
                         entities: [String: EntityDescription]) -> DerivationProblem? {
        switch self {
        case .now:
            return attribute.type == .date ? nil : .wrongType(expected: "Date")
        case .copy(let path):
            switch Self.source(path, from: entity, entities: entities) {
            case .failure(let problem): return problem
            case .success(let source):
                return source.type == attribute.type ? nil : .wrongType(expected: source.type.rawValue)
            }
        case .string(_, let path):
            switch Self.source(path, from: entity, entities: entities) {
            case .failure(let problem): return problem
            case .success(let source):
                guard source.type == .string else { return .unsupportedKeyPath(path.joined(separator: ".") + " (not a String)") }
                return attribute.type == .string ? nil : .wrongType(expected: "String")
            }
        case let .aggregate(function, relationshipName, attributeName):
            guard let relationship = entity.relationship(named: relationshipName), relationship.isToMany, !relationship.isTransient,
                  let destination = entities[relationship.destinationEntityName] else {
                return .unsupportedKeyPath(relationshipName + " (not a to-many relationship)")
            }
            let integers: Set<AttributeType> = [.integer16, .integer32, .integer64]
            let numeric = integers.union([.double, .float])
            if function == .count {
                guard attributeName == nil else { return .unsupportedKeyPath("\(relationshipName).\(attributeName!).@count") }
                return integers.contains(attribute.type) ? nil : .wrongType(expected: "an integer type")
            }
            guard let attributeName, let source = destination.attribute(named: attributeName), !source.isTransient, !source.isDerived,
                  numeric.contains(source.type) || (source.type == .date && (function == .min || function == .max)) else {
                return .unsupportedKeyPath("\(relationshipName).\(attributeName ?? "") (not an integer, Double or Float attribute)")
            }
            switch function {
            case .avg:
                return [.double, .float].contains(attribute.type) ? nil : .wrongType(expected: "Double or Float")
            case .sum where integers.contains(source.type):
                return integers.contains(attribute.type) ? nil : .wrongType(expected: "an integer type")
            case .sum:
                return [.double, .float].contains(attribute.type) ? nil : .wrongType(expected: "Double or Float")
            default:
                return attribute.type == source.type ? nil : .wrongType(expected: source.type.rawValue)
            }
        }
    }

    /// The attribute at the end of `path` (to-ones, then a stored attribute).
    static func source(_ path: [String], from entity: EntityDescription,
                       entities: [String: EntityDescription]) -> Result<AttributeDescription, DerivationProblem> {
        let text = path.joined(separator: ".")
        guard !path.isEmpty, path.allSatisfy({ !$0.isEmpty }) else { return .failure(.unsupportedKeyPath(text)) }
        var current = entity
        for name in path.dropLast() {
            guard let relationship = current.relationship(named: name), !relationship.isToMany, !relationship.isTransient,
                  let next = entities[relationship.destinationEntityName] else {
                return .failure(.unsupportedKeyPath(text))
            }
            current = next
        }
        guard let attribute = current.attribute(named: path.last!), !attribute.isTransient, !attribute.isDerived else {
            return .failure(.unsupportedKeyPath(text))
        }
        return .success(attribute)
    }

    /// The relationships the derivation reads through, in order (to-ones of a key path, or the
    /// to-many of an aggregate).
    public var relationshipPath: [String] {
        switch self {
        case .now: []
        case .copy(let path), .string(_, let path): Array(path.dropLast())
        case .aggregate(_, let relationship, _): [relationship]
        }
    }
}

/// Why Strata cannot compute a derivation (see ``ModelError/unsupportedDerivation(entity:attribute:expression:reason:)``).
public enum DerivationProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// A function Strata does not compute.
    case unknownFunction(String)
    /// A key path that is not to-ones then a stored attribute (or a to-many for an aggregate).
    case unsupportedKeyPath(String)
    /// The derived attribute's type cannot hold the result.
    case wrongType(expected: String)

    /// What is wrong, in a few words.
    public var description: String {
        switch self {
        case .unknownFunction(let name): "function '\(name)' is not computed by Strata"
        case .unsupportedKeyPath(let path): "key path '\(path)' is not supported"
        case .wrongType(let expected): "the attribute's type must be \(expected)"
        }
    }
}

/// A derived attribute of an entity with its parsed derivation.
public struct DerivedAttribute: Sendable, Hashable {
    /// The entity that declares or inherits the attribute.
    public var entityName: String
    /// The derived attribute.
    public var attribute: AttributeDescription
    /// What its value is computed from.
    public var derivation: Derivation
}
