import Foundation
@_spi(StoreImplementation) import StrataCore

/// Long `OR`s: equalities of one key path with constants become one membership test.
///
/// `k == a OR k == b OR …` means `k IN {a, b, …}` (the evaluator's `IN` is "equal to one of
/// them", with the same options), so such a chain is translated as one ``membership`` test: an
/// SQL `IN (?, …)` list where the values' type allows it, which SQLite answers with one lookup
/// per row (or per index probe) instead of one comparison per term. The other terms stay as
/// they are; SQL's `OR` of two-valued conditions does not depend on their order.
extension SQLPredicateTranslator {
    /// The most terms one `AND` or `OR` sends to SQL (an `IN` list counting as one). SQLite's
    /// code generator compares each constant of a statement with every constant before it (to
    /// compute each once), which is quadratic: 5,000 terms prepare in a fraction of a second,
    /// 50,000 took minutes. A longer chain stays in memory (a top-level `AND` keeps its first
    /// terms in SQL and evaluates the others on the rows they select).
    static let termLimit = 5_000

    static func tooManyTerms(_ count: Int) -> Untranslatable {
        Untranslatable("\(count) terms, more than the \(termLimit) one statement takes")
    }

    /// The conditions of the terms of `.or(items)`, nested `OR`s flattened.
    func disjuncts(_ items: [ObjectPredicate], in scope: Scope) throws(Untranslatable) -> [SQLFragment] {
        var terms: [ObjectPredicate] = []
        var pending = items[...]
        var stack: [ArraySlice<ObjectPredicate>] = []
        while true {
            guard let item = pending.popFirst() else {
                guard let outer = stack.popLast() else { break }
                pending = outer
                continue
            }
            if case .or(let nested) = item {
                stack.append(pending)
                pending = nested[...]
            } else {
                terms.append(item)
            }
        }

        // Equalities with a constant, grouped by key path and options, in first-seen order.
        struct Group {
            var left: ObjectExpression
            var options: StringComparisonOptions
            var values: [PredicateValue]
            var terms: [ObjectPredicate]
        }
        var groups: [Group] = []
        var groupIndex: [ObjectExpression: [Int]] = [:]
        var others: [ObjectPredicate] = []
        for term in terms {
            guard resultTerms == nil, case .comparison(let comparison) = term, comparison.modifier == .direct,
                  comparison.operation == .equalTo, !Self.isConstant(comparison.left), Self.isConstant(comparison.right),
                  case .keyPath = comparison.left,
                  let constant = try? comparison.right.value(with: nil) else {
                others.append(term)
                continue
            }
            let value = PredicateValue(constant)
            guard !value.isCollection else { others.append(term); continue }
            if let index = groupIndex[comparison.left]?.first(where: { groups[$0].options == comparison.options }) {
                groups[index].values.append(value)
                groups[index].terms.append(term)
            } else {
                groupIndex[comparison.left, default: []].append(groups.count)
                groups.append(Group(left: comparison.left, options: comparison.options, values: [value], terms: [term]))
            }
        }

        let termCount = others.count + groups.reduce(0) { $0 + ($1.values.count > 1 ? 1 : $1.values.count) }
        guard termCount <= Self.termLimit else { throw Self.tooManyTerms(termCount) }
        var parts: [SQLFragment] = []
        parts.reserveCapacity(groups.count + others.count)
        for group in groups {
            if group.values.count > 1 {
                let left = try term(group.left, in: scope)
                switch left {
                case .scalar, .object:
                    parts.append(try test(left, .in, group.options, .array(group.values)))
                    continue
                default:
                    break
                }
            }
            for term in group.terms { parts.append(try translate(term, in: scope)) }
        }
        for other in others { parts.append(try translate(other, in: scope)) }
        return parts
    }
}
