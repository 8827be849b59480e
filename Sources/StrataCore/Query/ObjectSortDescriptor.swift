import Foundation

/// Orders objects by the value at a key path (Core Data's `NSSortDescriptor`).
///
/// Named so as not to clash with Foundation's `SortDescriptor`. nil sorts before every value in
/// ascending order and after every value in descending order, as in Core Data (and SQLite).
///
/// ```swift
/// // Core Data: NSSortDescriptor(key: "name", ascending: true,
/// //                             selector: #selector(NSString.localizedStandardCompare(_:)))
/// let byName = ObjectSortDescriptor(key: "name", comparison: .localizedStandard())
/// let german = ObjectSortDescriptor(key: "name", comparison: .localized(Locale(identifier: "de")))
/// ```
///
/// String comparisons go through Foundation's `compare(_:options:range:locale:)`, which is backed
/// by ICU's collation on Linux as on Apple platforms, so a locale's alphabet is honoured: in German
/// `Köln` sorts before `Kyllburg`, in Swedish `Sundsvall` before `Södertälje` (å, ä, ö follow z).
/// Values that are not strings (numbers, dates, …) are compared in their natural order under
/// every comparison.
public struct ObjectSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// How strings are compared: the comparison selectors Core Data users pass to
    /// `NSSortDescriptor`.
    public enum Comparison: Sendable, Hashable {
        /// `compare:`: by Unicode order, canonically equivalent strings equal (precomposed `É`
        /// equals `E` + U+0301). Numbers, dates and other values: natural order.
        case standard
        /// `caseInsensitiveCompare:`: Unicode order ignoring case.
        case caseInsensitive
        /// `localizedCompare:`: the collation of `locale` (Core Data uses the current locale).
        case localized(Locale)
        /// `localizedCaseInsensitiveCompare:`: the collation of `locale`, ignoring case.
        case localizedCaseInsensitive(Locale)
        /// `localizedStandardCompare:`: as the Finder sorts: the collation of `locale`, ignoring
        /// case and width, with runs of digits compared as numbers (`file9` before `file10`).
        case localizedStandard(Locale = .current)

        /// The Objective-C selector name Core Data code uses for this comparison.
        public var selectorName: String {
            switch self {
            case .standard: "compare:"
            case .caseInsensitive: "caseInsensitiveCompare:"
            case .localized: "localizedCompare:"
            case .localizedCaseInsensitive: "localizedCaseInsensitiveCompare:"
            case .localizedStandard: "localizedStandardCompare:"
            }
        }
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

    /// Creates a sort descriptor from the key path of a property of a class that names its
    /// model keys (``ModelKeyPaths``), in Foundation's `SortOrder`.
    ///
    /// ```swift
    /// let newestFirst = try ObjectSortDescriptor(\Mood.date, order: .reverse)
    /// ```
    ///
    /// - Throws: ``FetchRequestError/unnamedKeyPath(type:keyPath:)`` when `Root` does not name
    ///   the key path.
    public init<Root: ModelKeyPaths, Value>(_ keyPath: KeyPath<Root, Value>, order: SortOrder = .forward,
                                            comparison: Comparison = .standard) throws {
        self.init(key: try Root.modelKey(for: keyPath), ascending: order == .forward, comparison: comparison)
    }

    /// Creates a sort descriptor from a Core Data comparison selector name (`"compare:"`,
    /// `"caseInsensitiveCompare:"`, `"localizedCompare:"`, `"localizedCaseInsensitiveCompare:"`,
    /// `"localizedStandardCompare:"`); the localized ones use `locale` (by default the current one,
    /// as `NSString`'s methods do).
    ///
    /// - Throws: ``FetchRequestError/unsupportedSortSelector(_:)`` for any other selector.
    public init(key: String, ascending: Bool = true, selector: String, locale: Locale = .current) throws {
        let comparison: Comparison
        switch selector {
        case "compare:": comparison = .standard
        case "caseInsensitiveCompare:": comparison = .caseInsensitive
        case "localizedCompare:": comparison = .localized(locale)
        case "localizedCaseInsensitiveCompare:": comparison = .localizedCaseInsensitive(locale)
        case "localizedStandardCompare:": comparison = .localizedStandard(locale)
        default: throw FetchRequestError.unsupportedSortSelector(selector)
        }
        self.init(key: key, ascending: ascending, comparison: comparison)
    }

    /// The same descriptor in the opposite direction.
    public var reversed: ObjectSortDescriptor {
        ObjectSortDescriptor(key: key, ascending: !ascending, comparison: comparison)
    }

    /// The order of two values under this descriptor (direction included).
    public func compare(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult {
        compareValues(PredicateValue(lhs), PredicateValue(rhs))
    }

    /// The order of two values already normalised (direction included).
    func compareValues(_ lhs: PredicateValue, _ rhs: PredicateValue) -> ComparisonResult {
        let result = compareAscending(lhs, rhs)
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
            case .localized(let locale):
                return x.compare(y, options: [], range: nil, locale: locale)
            case .localizedCaseInsensitive(let locale):
                return x.compare(y, options: [.caseInsensitive], range: nil, locale: locale)
            case .localizedStandard(let locale):
                // The options of NSString's localizedStandardCompare:.
                return x.compare(y, options: [.caseInsensitive, .numeric, .widthInsensitive, .forcedOrdering],
                                 range: nil, locale: locale)
            }
        default:
            return ValueComparison.order(a, b, options: []) ?? .orderedSame
        }
    }

    /// `key ASC` or `key DESC`, followed by the selector when it is not `compare:`.
    public var description: String {
        let direction = "\(key) \(ascending ? "ASC" : "DESC")"
        return comparison == .standard ? direction : "\(direction) \(comparison.selectorName)"
    }
}

extension Array where Element == ObjectSortDescriptor {
    /// Sorts `items` by these descriptors, stably; the first descriptor decides first.
    ///
    /// This is the order contexts and the built-in stores use; a store of your own that sorts in
    /// memory calls it to order exactly as they do:
    ///
    /// ```swift
    /// let ordered = try request.sortDescriptors.sorted(rows) { row in MyRowView(row) }
    /// ```
    ///
    /// - Parameters:
    ///   - items: the items to sort.
    ///   - key: the key-value view of an item that sort keys are read from.
    /// - Throws: what reading a key throws.
    public func sorted<T>(_ items: [T], key: (T) throws -> any KeyValueCoding) throws -> [T] {
        try sorted(items) { item, descriptor in try key(item).value(forKeyPath: descriptor.key) }
    }

    /// Sorts `items` stably by the values `value` reads for each descriptor (read once per item
    /// and descriptor, then compared).
    ///
    /// - Throws: what `value` throws.
    public func sorted<T>(_ items: [T], value: (T, ObjectSortDescriptor) throws -> Any?) throws -> [T] {
        guard !isEmpty, items.count > 1 else { return items }
        let keyed = try items.enumerated().map { index, item in
            (index, item, try map { try value(item, $0) })
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
