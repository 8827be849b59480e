import Foundation

/// One result of a dictionary fetch (Core Data's `NSDictionaryResultType`): the fetched
/// properties and expressions by name.
///
/// A value is the natural Swift value of its type (`Int16` for an `Integer 16` attribute,
/// `String`, `Date`, `Decimal`, …); a to-one relationship is the destination's
/// ``ManagedObjectID``. As in Core Data, a property whose value is nil has no entry.
///
/// Unlike `NSDictionary`, a fetched dictionary is `Sendable`: it holds the stored form of its
/// values, so it may leave a background context.
///
/// ```swift
/// for row in try context.fetchDictionaries(request) {
///     let name = row["name"] as? String
///     let total = row["totalAge"] as? Int64
/// }
/// ```
public struct FetchedDictionary: Sendable, Hashable, KeyValueCoding, CustomStringConvertible {
    /// Every key the request asked for, in its order (including keys whose value is nil).
    public let requestedKeys: [String]
    /// The stored form of every non-nil value, by key.
    public let storedValues: [String: AttributeValue]
    /// The entity fetched, named in errors.
    public let entityName: String
    /// The type of each key's value: the attribute it reads or the expression's result type.
    let attributes: [String: AttributeDescription]

    /// Creates a dictionary of stored values, each typed by `attributes` (a key without an
    /// attribute is typed by its value).
    public init(requestedKeys: [String], storedValues: [String: AttributeValue],
                attributes: [String: AttributeDescription] = [:], entityName: String = "") {
        self.requestedKeys = requestedKeys
        self.storedValues = storedValues
        self.attributes = attributes
        self.entityName = entityName
    }

    /// The keys that have a value, in request order.
    public var keys: [String] { requestedKeys.filter { storedValues[$0] != nil } }

    /// The natural Swift value for `key`, or nil when it is nil or not in the result.
    ///
    /// A transformable value is turned back through its transformer; if that fails, the
    /// transformed bytes are given (``value(forKey:)`` reports the error instead).
    public subscript(key: String) -> Any? {
        guard let stored = storedValues[key] else { return nil }
        return (try? naturalValue(stored, key: key)) ?? stored.untypedSwiftValue
    }

    /// The value for `key` as `T`, or nil when it is nil, missing or of another type.
    public subscript<T>(key: String, as type: T.Type) -> T? {
        self[key] as? T
    }

    /// The natural Swift value for `key`; nil for a missing key, as for a dictionary in Core Data.
    ///
    /// A key that is the first part of dotted keys (`"whereIWork"` for `"whereIWork.name"`) and
    /// has no value of its own gives a dictionary of those keys, so predicates and key paths such
    /// as `whereIWork.name` work on grouped results.
    ///
    /// - Throws: ``ObjectError/transformationFailed(entity:key:reason:)`` when a transformable
    ///   value cannot be turned back.
    public func value(forKey key: String) throws -> Any? {
        if let stored = storedValues[key] { return try naturalValue(stored, key: key) }
        let prefix = key + "."
        let nested = requestedKeys.filter { $0.hasPrefix(prefix) }
        guard !nested.isEmpty else { return nil }
        let strip = { (name: String) in String(name.dropFirst(prefix.count)) }
        return FetchedDictionary(
            requestedKeys: nested.map(strip),
            storedValues: Dictionary(nested.compactMap { name in storedValues[name].map { (strip(name), $0) } },
                                     uniquingKeysWith: { first, _ in first }),
            attributes: Dictionary(nested.compactMap { name in attributes[name].map { (strip(name), $0) } },
                                   uniquingKeysWith: { first, _ in first }),
            entityName: entityName)
    }

    /// The values as a plain dictionary, nil values left out (what `NSDictionary` holds).
    public var dictionary: [String: Any] {
        var result: [String: Any] = [:]
        for key in storedValues.keys { result[key] = self[key] }
        return result
    }

    private func naturalValue(_ stored: AttributeValue, key: String) throws -> Any {
        guard let attribute = attributes[key] else { return stored.untypedSwiftValue }
        return try stored.swiftValue(for: attribute, entity: entityName)
    }

    /// Dictionaries are equal when they hold the same values under the same keys.
    public static func == (lhs: FetchedDictionary, rhs: FetchedDictionary) -> Bool {
        lhs.storedValues == rhs.storedValues
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storedValues)
    }

    /// `{name = Ann; total = 3}`, keys in request order, nil values left out.
    public var description: String {
        let entries = keys.map { key in "\(key) = \(self[key].map { "\($0)" } ?? "nil")" }
        return "{" + entries.joined(separator: "; ") + "}"
    }
}
