import Foundation

/// Orders objects by the value at a key path (Core Data's `NSSortDescriptor`).
///
/// Named so as not to clash with Foundation's `SortDescriptor`. nil sorts before every value in
/// ascending order and after every value in descending order, as in Core Data.
public struct ObjectSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// How strings are compared.
    public enum Comparison: Sendable, Hashable {
        /// By Unicode scalar order (numbers, dates: natural order).
        case standard
        /// Ignoring case.
        case caseInsensitive
        /// With the collation of a locale (`"de"`, `"sv"`, `"da"`), as `localizedCompare`.
        case localized(String)
        /// With the collation of a locale, ignoring case.
        case localizedCaseInsensitive(String)
    }

    /// The key path sorted on.
    public var key: String
    /// Whether smaller values come first.
    public var ascending: Bool
    /// How strings are compared.
    public var comparison: Comparison

    /// Creates a sort descriptor.
    public init(key: String, ascending: Bool = true, comparison: Comparison = .standard) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// The order of two values under this descriptor (direction included).
    public func compare(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult {
        let result = compareAscending(PredicateValue(lhs), PredicateValue(rhs))
        guard !ascending else { return result }
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    /// The order of two objects by the value at ``key``.
    public func compareObjects(_ lhs: any KeyValueCoding, _ rhs: any KeyValueCoding) throws -> ComparisonResult {
        compare(try lhs.value(forKeyPath: key), try rhs.value(forKeyPath: key))
    }

    private func compareAscending(_ a: PredicateValue, _ b: PredicateValue) -> ComparisonResult {
        switch (a, b) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case let (.string(x), .string(y)):
            switch comparison {
            case .standard: return ValueComparison.order(a, b, options: []) ?? .orderedSame
            case .caseInsensitive: return ValueComparison.order(a, b, options: .caseInsensitive) ?? .orderedSame
            case .localized(let identifier):
                return x.compare(y, options: [], range: nil, locale: Locale(identifier: identifier))
            case .localizedCaseInsensitive(let identifier):
                return x.compare(y, options: [.caseInsensitive], range: nil, locale: Locale(identifier: identifier))
            }
        default:
            return ValueComparison.order(a, b, options: []) ?? .orderedSame
        }
    }

    /// `key ASC` or `key DESC`.
    public var description: String { "\(key) \(ascending ? "ASC" : "DESC")" }
}

extension Array where Element == ObjectSortDescriptor {
    /// Sorts `items` by these descriptors, stably; the first descriptor decides first.
    func sorted<T>(_ items: [T], key: (T) -> any KeyValueCoding) throws -> [T] {
        guard !isEmpty else { return items }
        // Read each sort key once per item, then sort on the cached values.
        let keyed = try items.enumerated().map { index, item in
            (index, item, try map { try key(item).value(forKeyPath: $0.key) })
        }
        return keyed.sorted { lhs, rhs in
            for (i, descriptor) in enumerated() {
                switch descriptor.compare(lhs.2[i], rhs.2[i]) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return lhs.0 < rhs.0
        }.map(\.1)
    }
}
