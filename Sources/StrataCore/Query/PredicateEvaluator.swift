import Foundation

/// Evaluates an ``ObjectPredicate`` against one value.
struct PredicateEvaluator {
    let variables: [String: PredicateValue]

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

    private func evaluate(_ comparison: ObjectPredicate.Comparison, on object: Any?) throws -> Bool {
        let left = try comparison.left.value(with: object, variables: variables)
        let right = try comparison.right.value(with: object, variables: variables)
        let leftElements = left.flatMap(KeyPathEvaluator.elements(of:))
        switch comparison.modifier {
        case .any:
            return try (leftElements ?? [left as Any]).contains { try test($0, comparison, right) }
        case .all:
            return try (leftElements ?? [left as Any]).allSatisfy { try test($0, comparison, right) }
        case .none:
            return try !(leftElements ?? [left as Any]).contains { try test($0, comparison, right) }
        case .direct:
            if let leftElements, comparison.operation != .contains, comparison.operation != .in {
                // A to-many key path compared directly means "any element" (as in Core Data's SQL).
                return try leftElements.contains { try test($0, comparison, right) }
            }
            return try test(left, comparison, right)
        }
    }

    private func test(_ leftRaw: Any?, _ comparison: ObjectPredicate.Comparison, _ rightRaw: Any?) throws -> Bool {
        let left = PredicateValue(leftRaw)
        let right = PredicateValue(rightRaw)
        let options = comparison.options
        switch comparison.operation {
        case .equalTo: return ValueComparison.equal(left, right, options: options)
        case .notEqualTo: return !ValueComparison.equal(left, right, options: options)
        case .lessThan: return ValueComparison.order(left, right, options: options) == .orderedAscending
        case .lessThanOrEqualTo:
            return [.orderedAscending, .orderedSame].contains(ValueComparison.order(left, right, options: options))
        case .greaterThan: return ValueComparison.order(left, right, options: options) == .orderedDescending
        case .greaterThanOrEqualTo:
            return [.orderedDescending, .orderedSame].contains(ValueComparison.order(left, right, options: options))
        case .beginsWith, .endsWith, .like, .matches:
            guard case .string(let l) = left, case .string(let r) = right else { return false }
            let (a, b) = (ValueComparison.fold(l, options), ValueComparison.fold(r, options))
            switch comparison.operation {
            case .beginsWith: return a.unicodeScalars.starts(with: b.unicodeScalars) || a.hasPrefix(b)
            case .endsWith: return a.unicodeScalars.reversed().starts(with: b.unicodeScalars.reversed()) || a.hasSuffix(b)
            case .like: return WildcardPattern(b).matches(a)
            default: return try RegularExpressionCache.fullMatch(b, a)
            }
        case .contains:
            if case .array(let items) = left {
                return items.contains { ValueComparison.equal($0, right, options: options) }
            }
            guard case .string(let l) = left, case .string(let r) = right else { return false }
            return ValueComparison.fold(l, options).contains(ValueComparison.fold(r, options))
        case .in:
            switch right {
            case .array(let items): return items.contains { ValueComparison.equal(left, $0, options: options) }
            case .string(let r):
                guard case .string(let l) = left else { return false }
                return ValueComparison.fold(r, options).contains(ValueComparison.fold(l, options))
            default: return ValueComparison.equal(left, right, options: options)
            }
        case .between:
            guard case .array(let bounds) = right, bounds.count == 2 else { return false }
            let low = ValueComparison.order(left, bounds[0], options: options)
            let high = ValueComparison.order(left, bounds[1], options: options)
            return (low == .orderedDescending || low == .orderedSame) && (high == .orderedAscending || high == .orderedSame)
        }
    }
}

/// A `LIKE` pattern: `*` matches any run of characters, `?` exactly one.
struct WildcardPattern {
    let pattern: [Character]
    init(_ pattern: String) { self.pattern = Array(pattern) }

    func matches(_ text: String) -> Bool {
        let text = Array(text)
        var p = 0, t = 0
        var star = -1, mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "\\", p + 1 < pattern.count, pattern[p + 1] == text[t] {
                p += 2; t += 1
            } else if p < pattern.count, pattern[p] == "?" || (pattern[p] == text[t] && pattern[p] != "*") {
                p += 1; t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p; mark = t; p += 1
            } else if star >= 0 {
                p = star + 1; mark += 1; t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}

/// Compiles `MATCHES` patterns once.
enum RegularExpressionCache {
    static func fullMatch(_ pattern: String, _ text: String) throws -> Bool {
        let regex: NSRegularExpression
        do {
            regex = try NSRegularExpression(pattern: "^(?:\(pattern))$", options: [])
        } catch {
            throw ObjectPredicateError.invalidRegularExpression(pattern)
        }
        let range = NSRange(text.startIndex..., in: text)
        return regex.firstMatch(in: text, options: [], range: range) != nil
    }
}
