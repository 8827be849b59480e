import Foundation

/// How strings compare in a predicate (`[c]`, `[d]`, `[n]`).
public struct StringComparisonOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `[c]`: case-insensitive.
    public static let caseInsensitive = StringComparisonOptions(rawValue: 1)
    /// `[d]`: diacritic-insensitive (precomposed and decomposed forms compare equal).
    public static let diacriticInsensitive = StringComparisonOptions(rawValue: 2)
    /// `[n]`: normalized; the strings are already folded, compare as given.
    public static let normalized = StringComparisonOptions(rawValue: 4)
}

/// Equality and order between normalised values, shared by predicates and sorting.
enum ValueComparison {
    /// Folds a string for comparison under `options`.
    static func fold(_ string: String, _ options: StringComparisonOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        guard !folding.isEmpty else { return string }
        return string.folding(options: folding, locale: nil)
    }

    /// Whether two values are equal (numbers across widths, strings under `options`).
    static func equal(_ lhs: PredicateValue, _ rhs: PredicateValue, options: StringComparisonOptions) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case let (.string(a), .string(b)): return fold(a, options) == fold(b, options)
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options: options) }
        default:
            if let order = order(lhs, rhs, options: options) { return order == .orderedSame }
            return lhs == rhs
        }
    }

    /// The order of two values, or nil when they cannot be ordered.
    static func order(_ lhs: PredicateValue, _ rhs: PredicateValue, options: StringComparisonOptions) -> ComparisonResult? {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): return compare(a, b)
        case let (.decimal(a), .decimal(b)): return compare(a, b)
        case let (.decimal(a), .integer(b)): return compare(a, Decimal(b))
        case let (.integer(a), .decimal(b)): return compare(Decimal(a), b)
        case let (.string(a), .string(b)):
            let (x, y) = (fold(a, options), fold(b, options))
            return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
        case let (.date(a), .date(b)): return compare(a, b)
        case let (.uuid(a), .uuid(b)): return compare(a.uuidString, b.uuidString)
        case let (.url(a), .url(b)): return compare(a.absoluteString, b.absoluteString)
        case let (.data(a), .data(b)):
            return a.lexicographicallyPrecedes(b) ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        default:
            if let a = lhs.doubleValue, let b = rhs.doubleValue { return compare(a, b) }
            return nil
        }
    }

    private static func compare<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }
}
