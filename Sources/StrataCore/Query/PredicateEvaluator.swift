import Foundation

/// Evaluates an ``ObjectPredicate`` against one value.
///
/// Variables hold raw values (a managed object stays an object), so `$x.name` inside a
/// `SUBQUERY` reads the element's key.
struct PredicateEvaluator {
    var variables: [String: Any]

    func evaluate(_ predicate: ObjectPredicate, on object: Any?) throws -> Bool {
        switch predicate {
        case .truePredicate: return true
        case .falsePredicate: return false
        case .and(let items):
            for item in items where try !evaluate(item, on: object) { return false }
            return true
        case .or(let items):
            for item in items where try evaluate(item, on: object) { return true }
            return false
        case .not(let item): return try !evaluate(item, on: object)
        case .comparison(let comparison): return try evaluate(comparison, on: object)
        }
    }

    // MARK: Expressions

    func value(of expression: ObjectExpression, on object: Any?) throws -> Any? {
        switch expression {
        case .keyPath(let path):
            return try Self.keyPath(path, on: object)
        case .constant(let value):
            return value
        case .evaluatedObject:
            return object
        case .variable(let name):
            guard let value = variables[name] else { throw ObjectPredicateError.unboundVariable(name) }
            return value
        case .aggregate(let items):
            return try items.map { try value(of: $0, on: object) ?? PredicateValue.null }
        case .keyPathOf(let base, let path):
            return try Self.keyPath(path, on: try value(of: base, on: object))
        case .element(let base, let index):
            guard let collection = try value(of: base, on: object) else { return nil }
            let elements = KeyPathEvaluator.elements(of: collection) ?? [collection]
            switch index {
            case .first: return elements.first
            case .last: return elements.last
            case .size: return Int64(elements.count)
            case .index(let i): return i >= 0 && i < elements.count ? elements[Int(i)] : nil
            }
        case .subquery(let collectionExpression, let variable, let predicate):
            guard let collection = try value(of: collectionExpression, on: object) else { return [Any]() }
            let elements = KeyPathEvaluator.elements(of: collection) ?? [collection]
            var inner = self
            var matches: [Any] = []
            for element in elements {
                inner.variables[variable] = element
                if try inner.evaluate(predicate, on: element) { matches.append(element) }
            }
            return matches
        }
    }

    private static func keyPath(_ path: String, on object: Any?) throws -> Any? {
        guard let object = object.flatMap(unwrappedOptional) else { return nil }
        if case .null = object as? PredicateValue { return nil }
        if KeyPathEvaluator.elements(of: object) != nil || object is any KeyValueCoding {
            return try KeyPathEvaluator(keyPath: path).evaluate(on: object)
        }
        throw ObjectError.invalidKeyPath(keyPath: path, reason: "the value of type \(type(of: object)) has no keys")
    }

    // MARK: Comparisons

    private func evaluate(_ comparison: ObjectPredicate.Comparison, on object: Any?) throws -> Bool {
        let left = try value(of: comparison.left, on: object)
        let right = PredicateValue(try value(of: comparison.right, on: object))
        let leftElements = left.flatMap(KeyPathEvaluator.elements(of:))
        switch comparison.modifier {
        case .any:
            return try quantified(left, leftElements).contains { try test(PredicateValue($0), comparison, right) }
        case .all:
            return try quantified(left, leftElements).allSatisfy { try test(PredicateValue($0), comparison, right) }
        case .none:
            return try !quantified(left, leftElements).contains { try test(PredicateValue($0), comparison, right) }
        case .direct:
            if let leftElements, comparison.operation != .contains, comparison.operation != .in {
                // A to-many key path compared directly means "any element" (as in Core Data's SQL).
                return try leftElements.contains { try test(PredicateValue($0), comparison, right) }
            }
            return try test(PredicateValue(left), comparison, right)
        }
    }

    /// The elements a modifier ranges over: none for nil, the value itself when it is not a
    /// collection.
    private func quantified(_ left: Any?, _ elements: [Any]?) -> [Any] {
        if let elements { return elements }
        guard let left = left.flatMap(unwrappedOptional) else { return [] }
        if case .null = left as? PredicateValue { return [] }
        return [left]
    }

    private func test(_ left: PredicateValue, _ comparison: ObjectPredicate.Comparison, _ right: PredicateValue) throws -> Bool {
        let options = comparison.options
        switch comparison.operation {
        case .equalTo: return ValueComparison.equal(left, right, options: options)
        case .notEqualTo: return !ValueComparison.equal(left, right, options: options)
        case .lessThan: return ValueComparison.order(left, right, options: options) == .orderedAscending
        case .lessThanOrEqualTo:
            guard let order = ValueComparison.order(left, right, options: options) else { return false }
            return order != .orderedDescending
        case .greaterThan: return ValueComparison.order(left, right, options: options) == .orderedDescending
        case .greaterThanOrEqualTo:
            guard let order = ValueComparison.order(left, right, options: options) else { return false }
            return order != .orderedAscending
        case .beginsWith, .endsWith, .like, .matches:
            guard case .string(let text) = left, case .string(let other) = right else { return false }
            switch comparison.operation {
            case .beginsWith: return StringMatching.beginsWith(text, other, options)
            case .endsWith: return StringMatching.endsWith(text, other, options)
            case .like: return StringMatching.like(text, other, options)
            default: return try StringMatching.matches(text, other, options)
            }
        case .contains:
            switch (left, right) {
            case (.array(let items), _): return items.contains { ValueComparison.equal($0, right, options: options) }
            case let (.string(text), .string(part)): return StringMatching.contains(text, part, options)
            default: return false
            }
        case .in:
            switch (left, right) {
            case (_, .array(let items)): return items.contains { ValueComparison.equal(left, $0, options: options) }
            case let (.string(part), .string(text)): return StringMatching.contains(text, part, options)
            default: return false
            }
        case .between:
            guard case .array(let bounds) = right, bounds.count == 2,
                  let low = ValueComparison.order(left, bounds[0], options: options),
                  let high = ValueComparison.order(left, bounds[1], options: options) else { return false }
            return low != .orderedAscending && high != .orderedDescending
        }
    }
}
