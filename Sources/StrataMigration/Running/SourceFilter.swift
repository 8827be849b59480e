import StrataCore

/// Turns an entity mapping's filter predicate into the predicate of the source fetch.
enum SourceFilter {
    /// The filter with `$source` read as the fetched object: `$source.height < 100` fetches
    /// with `height < 100`, which a store can run where its rows are.
    static func fetchPredicate(_ format: String) throws -> ObjectPredicate {
        rewrite(try ObjectPredicate(format: format))
    }

    private static func rewrite(_ predicate: ObjectPredicate) -> ObjectPredicate {
        switch predicate {
        case .truePredicate, .falsePredicate: return predicate
        case .and(let items): return .and(items.map(rewrite))
        case .or(let items): return .or(items.map(rewrite))
        case .not(let item): return .not(rewrite(item))
        case .comparison(var comparison):
            comparison.left = rewrite(comparison.left)
            comparison.right = rewrite(comparison.right)
            return .comparison(comparison)
        }
    }

    private static func rewrite(_ expression: ObjectExpression) -> ObjectExpression {
        switch expression {
        case .variable("source"): return .evaluatedObject
        case .keyPath, .constant, .evaluatedObject, .variable: return expression
        case .aggregate(let items): return .collection(items.map(rewrite))
        case .keyPathOf(let base, let path): return .keyPath(path, of: rewrite(base))
        case .element(let base, let index): return .element(rewrite(base), index)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(collection: rewrite(collection), variable: variable,
                             predicate: variable == "source" ? predicate : rewrite(predicate))
        }
    }
}
