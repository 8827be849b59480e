import Foundation

/// Anything that answers values by key: managed objects, store snapshots, dictionaries.
///
/// Predicates, sort descriptors and key paths work on any `KeyValueCoding` value, so they are
/// not tied to managed objects.
public protocol KeyValueCoding {
    /// The value for `key`, or nil; throws for a key the value does not have.
    func value(forKey key: String) throws -> Any?
}

extension KeyValueCoding {
    /// The value at a dotted key path such as `"whereIWork.name"` or `"employees.@count"`.
    ///
    /// A key path walks through to-one values; through a collection it gives the collection of
    /// the values of its elements. The collection operators `@count`, `@sum`, `@avg`, `@min`,
    /// `@max` and `@distinctUnionOfObjects` reduce a collection.
    ///
    /// - Throws: ``ObjectError/invalidKeyPath(keyPath:reason:)`` for a malformed path, or the
    ///   error of the key that does not exist.
    public func value(forKeyPath keyPath: String) throws -> Any? {
        try KeyPathEvaluator(keyPath: keyPath).evaluate(on: self)
    }
}

extension Dictionary: KeyValueCoding where Key == String {
    /// The entry for `key`; a missing key is nil, as for a dictionary in Core Data.
    public func value(forKey key: String) throws -> Any? {
        guard let value = self[key] else { return nil }
        return unwrappedOptional(value)
    }
}

/// The value inside an `Any` that boxes an optional (`[String: Any?]` values, `[Int?]`
/// elements), or nil when it boxes `nil`; any other value as it is.
func unwrappedOptional(_ value: Any) -> Any? {
    guard let optional = value as? any AnyOptional else { return value }
    return optional.wrappedAny.flatMap(unwrappedOptional)
}

private protocol AnyOptional {
    var wrappedAny: Any? { get }
}

extension Optional: AnyOptional {
    var wrappedAny: Any? { map { $0 as Any } }
}

/// Walks a dotted key path over key-value values and collections.
struct KeyPathEvaluator {
    let keyPath: String
    let components: [Substring]

    init(keyPath: String) {
        self.keyPath = keyPath
        self.components = keyPath.split(separator: ".", omittingEmptySubsequences: false)
    }

    func evaluate(on root: Any?) throws -> Any? {
        guard !keyPath.isEmpty, components.allSatisfy({ !$0.isEmpty }) else {
            throw ObjectError.invalidKeyPath(keyPath: keyPath, reason: "empty component")
        }
        return try evaluate(components[...], on: root)
    }

    private func evaluate(_ path: ArraySlice<Substring>, on value: Any?) throws -> Any? {
        guard let first = path.first else { return value }
        let rest = path.dropFirst()
        if first.hasPrefix("@") {
            guard let value else { return nil }
            guard let elements = Self.elements(of: value) else {
                throw ObjectError.invalidKeyPath(keyPath: keyPath, reason: "'\(first)' needs a collection")
            }
            return try apply(String(first), to: elements, rest: rest)
        }
        guard let value else { return nil }
        if let elements = Self.elements(of: value) {
            var results: [Any] = []
            for element in elements {
                let result = try evaluate(path, on: element)
                if let nested = result.flatMap(Self.elements(of:)) {
                    results.append(contentsOf: nested)
                } else if let result {
                    results.append(result)
                }
            }
            return results
        }
        guard let object = value as? any KeyValueCoding else {
            throw ObjectError.invalidKeyPath(keyPath: keyPath, reason: "'\(first)' applied to a value of type \(type(of: value))")
        }
        return try evaluate(rest, on: try object.value(forKey: String(first)))
    }

    private func apply(_ operation: String, to elements: [Any], rest: ArraySlice<Substring>) throws -> Any? {
        let values: [Any] = rest.isEmpty
            ? elements
            : try elements.compactMap { try evaluate(rest, on: $0) }
        switch operation {
        case "@count":
            return Int64(values.count)
        case "@sum":
            return try sum(values)
        case "@avg":
            guard !values.isEmpty else { return nil }
            let total = try sum(values)
            return PredicateValue(total).doubleValue.map { $0 / Double(values.count) }
        case "@min", "@max":
            var best: (value: Any, key: PredicateValue)?
            for value in values {
                let key = PredicateValue(value)
                guard let current = best else { best = (value, key); continue }
                let order = ValueComparison.order(key, current.key, options: [])
                if (operation == "@min" && order == .orderedAscending) || (operation == "@max" && order == .orderedDescending) {
                    best = (value, key)
                }
            }
            return best?.value
        case "@distinctUnionOfObjects":
            var seen = Set<PredicateValue>()
            return values.filter { seen.insert(PredicateValue($0)).inserted }
        default:
            throw ObjectError.invalidKeyPath(keyPath: keyPath, reason: "unknown collection operator '\(operation)'")
        }
    }

    private func sum(_ values: [Any]) throws -> Any {
        var integerTotal: Int64 = 0
        var doubleTotal = 0.0
        var decimalTotal = Decimal(0)
        var kind = 0  // 0 integer, 1 double, 2 decimal
        for value in values {
            switch PredicateValue(value) {
            case .integer(let v):
                let (sum, overflow) = integerTotal.addingReportingOverflow(v)
                if overflow { kind = max(kind, 1) } else { integerTotal = sum }
                doubleTotal += Double(v); decimalTotal += Decimal(v)
            case .double(let v): kind = max(kind, 1); doubleTotal += v; decimalTotal += Decimal(v)
            case .decimal(let v): kind = 2; decimalTotal += v; doubleTotal += NSDecimalNumber(decimal: v).doubleValue
            case .bool(let v): integerTotal += v ? 1 : 0; doubleTotal += v ? 1 : 0; decimalTotal += v ? 1 : 0
            case .null: continue
            default: throw ObjectError.invalidKeyPath(keyPath: keyPath, reason: "@sum of a non-number \(type(of: value))")
            }
        }
        switch kind {
        case 0: return integerTotal
        case 1: return doubleTotal
        default: return decimalTotal
        }
    }

    /// The elements of a collection value (array, set, ordered relationship), or nil.
    static func elements(of value: Any) -> [Any]? {
        if value is String || value is Data { return nil }
        if let constant = value as? PredicateValue {
            guard case .array(let items) = constant else { return nil }
            return items
        }
        if let array = value as? [Any] { return array }
        if let set = value as? Set<AnyHashable> { return set.map(\.base) }
        if let sequence = value as? any ObjectCollection { return sequence.anyElements }
        return nil
    }
}

/// A collection of objects that key paths walk through, such as a to-many relationship value.
public protocol ObjectCollection {
    /// The elements, in order where there is one.
    var anyElements: [Any] { get }
}
