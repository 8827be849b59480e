import Foundation
@_spi(StoreImplementation) import StrataCore

/// Which predicates cannot throw when the in-memory evaluator runs them.
///
/// A conjunct left in memory is evaluated only on the rows the conjuncts sent to SQL let
/// through. That changes nothing when it cannot throw; when it may (an unknown key, an unbound
/// variable, an invalid pattern, a transformer, `@sum` of strings), the conjuncts after it stay
/// in memory too, so it is evaluated on exactly the rows the evaluator would reach it on. The
/// check is conservative: it says "cannot throw" only for key paths it has walked through the
/// model.
extension SQLPredicateTranslator {
    /// Whether evaluating `predicate` on any fetched row cannot throw.
    func cannotThrow(_ predicate: ObjectPredicate) -> Bool {
        cannotThrow(predicate, on: root.entities, variables: [:])
    }

    private func cannotThrow(_ predicate: ObjectPredicate, on entities: [EntityDescription],
                             variables: [String: [EntityDescription]]) -> Bool {
        switch predicate {
        case .truePredicate, .falsePredicate:
            return true
        case .and(let items), .or(let items):
            return items.allSatisfy { cannotThrow($0, on: entities, variables: variables) }
        case .not(let item):
            return cannotThrow(item, on: entities, variables: variables)
        case .comparison(let comparison):
            guard cannotThrow(comparison.left, on: entities, variables: variables),
                  cannotThrow(comparison.right, on: entities, variables: variables) else { return false }
            guard comparison.operation == .matches else { return true }
            // A pattern is only known valid when it is a constant that compiles.
            guard Self.isConstant(comparison.right), let pattern = try? comparison.right.value(with: nil) else { return false }
            let value = PredicateValue(pattern)
            guard case .string = value else { return true }
            return PredicateOracle.test(.string(""), .matches, value, options: comparison.options) != nil
        }
    }

    private func cannotThrow(_ expression: ObjectExpression, on entities: [EntityDescription],
                             variables: [String: [EntityDescription]]) -> Bool {
        if Self.isConstant(expression) { return (try? expression.value(with: nil)) != nil }
        switch expression {
        case .constant, .evaluatedObject:
            return true
        case .variable(let name):
            return variables[name] != nil
        case .keyPath(let path):
            return walk(path, from: entities)
        case .keyPathOf(.variable(let name), let path):
            guard let bound = variables[name] else { return false }
            return walk(path, from: bound)
        case .keyPathOf(.subquery(let collection, let variable, let predicate), let path):
            return path == "@count" && subqueryCannotThrow(collection, variable, predicate, on: entities, variables: variables)
        case .element(.subquery(let collection, let variable, let predicate), _):
            return subqueryCannotThrow(collection, variable, predicate, on: entities, variables: variables)
        case .element(let base, _):
            return cannotThrow(base, on: entities, variables: variables)
        case .subquery(let collection, let variable, let predicate):
            return subqueryCannotThrow(collection, variable, predicate, on: entities, variables: variables)
        default:
            return false
        }
    }

    private func subqueryCannotThrow(_ collection: ObjectExpression, _ variable: String, _ predicate: ObjectPredicate,
                                     on entities: [EntityDescription], variables: [String: [EntityDescription]]) -> Bool {
        let start: [EntityDescription]
        let path: String
        switch collection {
        case .keyPath(let p): (start, path) = (entities, p)
        case .keyPathOf(.variable(let name), let p):
            guard let bound = variables[name] else { return false }
            (start, path) = (bound, p)
        default: return false
        }
        guard walk(path, from: start), let destination = toManyDestination(path, from: start) else { return false }
        var inner = variables
        inner[variable] = [destination]
        return cannotThrow(predicate, on: [destination], variables: inner)
    }

    /// The destination of a key path that ends at a to-many relationship.
    private func toManyDestination(_ path: String, from entities: [EntityDescription]) -> EntityDescription? {
        var current = entities
        let components = path.split(separator: ".").map(String.init)
        for (index, name) in components.enumerated() {
            guard let relationship = commonProperty(name, of: current)?.relationship,
                  let destination = schema.model.entity(named: relationship.destinationEntityName) else { return nil }
            if index == components.count - 1 { return relationship.isToMany ? destination : nil }
            current = [destination]
        }
        return nil
    }

    /// Whether a dotted key path can be read from objects of `entities` without throwing: every
    /// key a property of every entity it is read on, nothing after an attribute, collection
    /// operators only after a to-many and only over values they can reduce.
    private func walk(_ path: String, from entities: [EntityDescription]) -> Bool {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !path.isEmpty, components.allSatisfy({ !$0.isEmpty }) else { return false }
        return walk(components[...], from: entities, inCollection: false)
    }

    private func walk(_ components: ArraySlice<String>, from entities: [EntityDescription], inCollection: Bool) -> Bool {
        guard let name = components.first else { return true }
        let rest = components.dropFirst()
        if name.hasPrefix("@") {
            guard inCollection else { return false }
            switch name {
            case "@count", "@min", "@max", "@distinctUnionOfObjects":
                return walk(rest, from: entities, inCollection: false)
            case "@sum", "@avg":
                return walk(rest, from: entities, inCollection: false) && numeric(rest, from: entities)
            default:
                return false
            }
        }
        if let element = entities.first?.compositeElement(startingKeyPath: components) {
            guard let attribute = commonProperty(element.name, of: entities)?.attribute else { return false }
            return components.count == element.count && attribute.type != .transformable
        }
        guard let property = commonProperty(name, of: entities) else { return false }
        switch property {
        case .attribute(let attribute):
            return rest.isEmpty && (attribute.type != .transformable || attribute.valueTransformerName == nil)
        case .relationship(let relationship):
            guard let destination = schema.model.entity(named: relationship.destinationEntityName) else { return false }
            return walk(rest, from: [destination], inCollection: inCollection || relationship.isToMany)
        case .fetchedProperty:
            return false
        }
    }

    /// Whether the values at a key path are numbers (or nil), as `@sum` and `@avg` need.
    private func numeric(_ components: ArraySlice<String>, from entities: [EntityDescription]) -> Bool {
        var current = entities
        for (offset, name) in components.enumerated() {
            guard let property = commonProperty(name, of: current) else { return false }
            if offset == components.count - 1 {
                let numbers: Set<AttributeType> = [.integer16, .integer32, .integer64, .double, .float, .decimal, .boolean]
                return property.attribute.map { numbers.contains($0.type) } ?? false
            }
            guard let relationship = property.relationship, !relationship.isToMany,
                  let destination = schema.model.entity(named: relationship.destinationEntityName) else { return false }
            current = [destination]
        }
        return false
    }

    /// The property `name` of each of `entities`, when they all have the same one.
    private func commonProperty(_ name: String, of entities: [EntityDescription]) -> PropertyDescription? {
        guard let first = entities.first?.propertiesByName[name] else { return nil }
        return entities.allSatisfy({ $0.propertiesByName[name] == first }) ? first : nil
    }
}
