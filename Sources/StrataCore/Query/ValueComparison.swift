import Foundation

/// How strings compare in a predicate (`[c]`, `[d]`, `[n]`).
public struct StringComparisonOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `[c]`: case-insensitive, by full Unicode case folding (`ß` matches `SS`).
    public static let caseInsensitive = StringComparisonOptions(rawValue: 1)
    /// `[d]`: diacritic-insensitive (`é`, `e` + U+0301 and `e` compare equal).
    public static let diacriticInsensitive = StringComparisonOptions(rawValue: 2)
    /// `[n]`: normalized; the strings are already folded, so they compare as their Unicode
    /// scalars, with no folding and no canonical equivalence. It overrides `[c]` and `[d]`.
    public static let normalized = StringComparisonOptions(rawValue: 4)
}

/// Equality and order between normalised values, shared by predicates and sorting.
enum ValueComparison {
    /// Folds a string for comparison under `options` (`[n]` folds nothing).
    static func fold(_ string: String, _ options: StringComparisonOptions) -> String {
        guard !options.contains(.normalized) else { return string }
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
        case let (.string(a), .string(b)): return stringOrder(a, b, options) == .orderedSame
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
        case let (.string(a), .string(b)): return stringOrder(a, b, options)
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

    /// Strings in order: canonically equivalent strings are the same, after folding, and others
    /// in the order of their scalars in normal form C (``canonicalOrder(_:_:)``); under `[n]` by
    /// Unicode scalar values alone.
    static func stringOrder(_ a: String, _ b: String, _ options: StringComparisonOptions) -> ComparisonResult {
        if options.contains(.normalized) {
            let (x, y) = (a.unicodeScalars, b.unicodeScalars)
            if x.elementsEqual(y) { return .orderedSame }
            return x.lexicographicallyPrecedes(y) { $0.value < $1.value } ? .orderedAscending : .orderedDescending
        }
        return canonicalOrder(fold(a, options), fold(b, options))
    }

    /// The order of two strings' scalars in normal form C, compared as UTF-8 bytes (whose order
    /// is the scalars' order): canonically equivalent strings are the same.
    ///
    /// Swift's `<` means this order, but its implementation answers neither `<` nor `>` for
    /// some unequal pairs (precomposed `éx` against `e` + U+0301), which leaves a sort's order
    /// to its algorithm; here every pair is ordered, as the SQLite store's sort keys are. Two
    /// all-ASCII strings (already NFC) are compared as they are.
    static func canonicalOrder(_ x: String, _ y: String) -> ComparisonResult {
        if x.utf8.allSatisfy({ $0 < 0x80 }), y.utf8.allSatisfy({ $0 < 0x80 }) {
            return x == y ? .orderedSame : (x.utf8.lexicographicallyPrecedes(y.utf8) ? .orderedAscending : .orderedDescending)
        }
        let (p, q) = (x._nfcCodeUnits, y._nfcCodeUnits)
        return p == q ? .orderedSame : (p.lexicographicallyPrecedes(q) ? .orderedAscending : .orderedDescending)
    }

    private static func compare<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }
}
