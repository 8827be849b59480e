extension ManagedObject {
    /// The value of the attribute `key` as `T`: what `value(forKey: key) as? T` gives, without
    /// boxing the value in `Any` and casting it back.
    ///
    /// Nil when the attribute has no value or its values are not of type `T` (an `Integer 16`
    /// attribute reads as `Int16`, not `Int`). Other keys (relationships, transformable
    /// attributes) are read through ``value(forKey:)``.
    ///
    /// - Throws: what ``value(forKey:)`` throws.
    public func value<T: AttributeConvertible>(forKey key: String, as type: T.Type = T.self) throws -> T? {
        let layout = entity.attributeLayout
        guard let position = layout.position(of: key), entity.attributeTypesByPosition[position] != .transformable else {
            return try value(forKey: key) as? T
        }
        guard let stored = try storedAttribute(at: position, of: layout, key: key),
              entity.attributeTypesByPosition[position] == T.attributeType else { return nil }
        return T(attributeValue: stored)
    }

    /// Sets a property from a typed value: what ``setValue(_:forKey:)`` with the value as `Any`
    /// does, the same conversions and errors included, without the casts for a value of the
    /// attribute's own type.
    public func setValue<T: AttributeConvertible>(_ value: T?, forKey key: String) throws {
        let layout = entity.attributeLayout
        guard let position = layout.position(of: key), entity.attributeTypesByPosition[position] != .transformable else {
            return try setValue(value.map { $0 as Any }, forKey: key)
        }
        try setStoredAttribute(at: position, of: layout, key: key) { type in
            guard let value else { return nil }
            return type == T.attributeType
                ? value.attributeValue
                : try AttributeValue.make(from: value, ofType: type, key: key, entity: entity.name)
        }
    }

    // MARK: Typed properties of subclasses

    /// The value of `key` as `T`, or nil when it is nil, of another type, or unreadable.
    ///
    /// For the typed properties of subclasses: `var name: String? { get { self[typed: "name"] } }`.
    public subscript<T>(typed key: String, as type: T.Type = T.self) -> T? {
        (try? value(forKey: key)) as? T
    }

    /// The value of the attribute `key` as `T`, or nil when it is nil, of another type, or
    /// unreadable; read without a cast from `Any` (``value(forKey:as:)``).
    public subscript<T: AttributeConvertible>(typed key: String, as type: T.Type = T.self) -> T? {
        (try? value(forKey: key, as: T.self)) ?? nil
    }

    /// Sets `key` from a typed property of a subclass.
    ///
    /// The key and type come from the model the subclass was written for, so a failure here is
    /// a programming error and stops the program; use ``setValue(_:forKey:)`` for values from
    /// outside.
    public func setTyped<T>(_ value: T?, forKey key: String) {
        do {
            try setValue(value.map { $0 as Any }, forKey: key)
        } catch {
            preconditionFailure("\(entity.name).\(key): \(error)")
        }
    }

    /// Sets the attribute `key` from a typed property of a subclass, without a cast from `Any`
    /// (the typed ``setValue(_:forKey:)``); a failure stops the program, as the untyped form's does.
    public func setTyped<T: AttributeConvertible>(_ value: T?, forKey key: String) {
        do {
            try setValue(value, forKey: key)
        } catch {
            preconditionFailure("\(entity.name).\(key): \(error)")
        }
    }
}
