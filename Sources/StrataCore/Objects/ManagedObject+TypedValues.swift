extension ManagedObject {
    /// The value of the attribute `key` as `T`: what `value(forKey: key) as? T` gives, without
    /// boxing the value in `Any` and casting it back.
    ///
    /// Nil when the attribute has no value or its values are not of type `T` (an `Integer 16`
    /// attribute reads as `Int16`, not `Int`). Other keys (relationships, transformable
    /// attributes) are read through ``value(forKey:)``.
    ///
    /// - Throws: what ``value(forKey:)`` throws.
    @inlinable
    public func value<T: AttributeConvertible>(forKey key: String, as type: T.Type = T.self) throws -> T? {
        guard T.convertsDirectly else { return try value(forKey: key) as? T }
        return switch try typedRead(forKey: key, as: T.attributeType) {
        case .stored(let stored): T(attributeValue: stored)
        case .absent: nil
        case .untyped(let value): value as? T
        }
    }

    /// Sets a property from a typed value: what ``setValue(_:forKey:)`` with the value as `Any`
    /// does, the same conversions and errors included, without the casts for a value of the
    /// attribute's own type.
    @inlinable
    public func setValue<T: AttributeConvertible>(_ value: T?, forKey key: String) throws {
        guard T.convertsDirectly else { return try setValue(value.map { $0 as Any }, forKey: key) }
        try typedWrite(value?.attributeValue, of: T.attributeType, forKey: key, untyped: value.map { $0 as Any })
    }

    /// Sets the to-one `key` to `destination`: what ``setValue(_:forKey:)`` with the object as
    /// `Any` does, the same checks, inverse upkeep and errors included, without boxing the object
    /// in `Any` and casting it back. Other keys are set through ``setValue(_:forKey:)``.
    ///
    /// - Throws: what ``setValue(_:forKey:)`` throws.
    public func setValue(_ destination: ManagedObject?, forKey key: String) throws {
        guard let relationship = entity.relationship(named: key), !relationship.isToMany else {
            return try setValue(destination.map { $0 as Any }, forKey: key)
        }
        try fulfillFault()
        // An object in a change list is in a live context (a context cuts its objects loose when
        // it goes), so it needs no check.
        if pendingChange == .none { try checkMutable() }
        try setToOne(key, to: destination.map { try checkedDestination($0, for: relationship) })
    }

    /// The destination of the to-one `key` as `T`: what `value(forKey: key) as? T` gives,
    /// without boxing the object in `Any`. Other keys are read through ``value(forKey:)``.
    ///
    /// - Throws: what ``value(forKey:)`` throws.
    @inlinable
    public func value<T: ManagedObject>(forKey key: String, as type: T.Type = T.self) throws -> T? {
        // Inlinable, so that the cast is specialised in the caller (for `ManagedObject` itself it
        // is none): unspecialised, a cast to a generic class is a run-time call.
        switch try toOneRead(forKey: key) {
        case .destination(let destination): destination as? T
        case .untyped(let value): value as? T
        }
    }

    /// What reading a property as an object found.
    @usableFromInline enum ToOneRead {
        /// The destination of a to-one, nil when it has none.
        case destination(ManagedObject?)
        /// The untyped value of a key that is not a to-one, to be cast.
        case untyped(Any?)
    }

    /// The destination of the to-one `key`, or the untyped value of any other key: the untyped
    /// code of the typed ``value(forKey:as:)`` of an object.
    @usableFromInline
    func toOneRead(forKey key: String) throws -> ToOneRead {
        // The property's own name string (a literal, a name from the model) is told by its
        // words, without copying the relationship's description.
        let isToOne = entity.namesToOne(key) ?? entity.relationship(named: key).map { !$0.isToMany } ?? false
        guard isToOne else { return .untyped(try value(forKey: key)) }
        try fulfillFault()
        try checkUsable()
        return .destination(toOneValues[key])
    }

    /// What a typed read of an attribute found.
    @usableFromInline enum TypedRead {
        /// The stored value of an attribute of the asked type.
        case stored(AttributeValue)
        /// No value, or a value of another type.
        case absent
        /// The untyped value of a key that is not a plain attribute (a relationship, a
        /// transformable attribute), to be cast.
        case untyped(Any?)
    }

    /// The stored value of the attribute `key` when its type is `type`: the untyped code of the
    /// typed ``value(forKey:as:)``, specialised for no Swift type.
    @usableFromInline
    func typedRead(forKey key: String, as type: AttributeType) throws -> TypedRead {
        try withAttributeLayout { layout in
            guard let attribute = plainAttribute(key, in: layout) else { return .untyped(try value(forKey: key)) }
            guard let stored = try storedAttribute(at: attribute.position, of: layout), attribute.type == type else {
                return .absent
            }
            return .stored(stored)
        }
    }

    /// Sets the attribute `key` to `stored`, a value of an attribute of `type`, when the
    /// attribute is of that type; otherwise converts `untyped()` as the untyped setter does.
    @usableFromInline
    func typedWrite(_ stored: AttributeValue?, of type: AttributeType, forKey key: String,
                    untyped: @autoclosure () -> Any?) throws {
        try withAttributeLayout { layout in
            guard let attribute = plainAttribute(key, in: layout) else { return try setValue(untyped(), forKey: key) }
            try setStoredAttribute(at: attribute.position, of: layout) {
                guard let stored else { return nil }
                guard attribute.type != type, let value = untyped() else { return stored }
                return try AttributeValue.make(from: value, ofType: attribute.type, key: key, entity: entity.name)
            }
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
    /// unreadable; read without a cast from `Any` (`value(forKey:as:)`).
    @inlinable
    public subscript<T: AttributeConvertible>(typed key: String, as type: T.Type = T.self) -> T? {
        (try? value(forKey: key, as: T.self)) ?? nil
    }

    /// The destination of the to-one `key` as `T`, or nil when it has none, is of another
    /// class, or is unreadable; read without a cast from `Any` (`value(forKey:as:)`).
    public subscript<T: ManagedObject>(typed key: String, as type: T.Type = T.self) -> T? {
        (try? value(forKey: key, as: T.self)) ?? nil
    }

    /// Sets `key` from a typed property of a subclass.
    ///
    /// The key and type come from the model the subclass was written for, so a failure here is
    /// a programming error and stops the program; use `setValue(_:forKey:)` for values from
    /// outside.
    public func setTyped<T>(_ value: T?, forKey key: String) {
        do {
            try setValue(value.map { $0 as Any }, forKey: key)
        } catch {
            preconditionFailure("\(entity.name).\(key): \(error)")
        }
    }

    /// Sets the attribute `key` from a typed property of a subclass, without a cast from `Any`
    /// (the typed `setValue(_:forKey:)`); a failure stops the program, as the untyped form's does.
    @inlinable
    public func setTyped<T: AttributeConvertible>(_ value: T?, forKey key: String) {
        do {
            try setValue(value, forKey: key)
        } catch {
            preconditionFailure("\(entity.name).\(key): \(error)")
        }
    }

    /// The destinations of the unordered to-many `key` as `T`s, for the typed properties of
    /// subclasses: `var tags: Set<Tag> { get { self[toMany: "tags"] } set { … } }`.
    ///
    /// A destination that is not a `T` (its class was not registered for its entity) stops the
    /// program, as `setTyped(_:forKey:)` does for a wrong value: a typed property never leaves
    /// an object out. Empty when the key cannot be read (the object was deleted or its context
    /// went), as the typed reads of attributes give nil.
    public subscript<T: ManagedObject>(toMany key: String, as type: T.Type = T.self) -> Set<T> {
        get {
            guard let objects = (try? value(forKey: key)) as? Set<ManagedObject> else { return [] }
            return Set(objects.map { Self.typedDestination($0, as: T.self, key: key, entity: entity.name) })
        }
        set { setTyped(Set(newValue.map { $0 as ManagedObject }), forKey: key) }
    }

    /// The destinations of the ordered to-many `key` as `T`s, in order; the rules of
    /// ``subscript(toMany:as:)``.
    public subscript<T: ManagedObject>(orderedToMany key: String, as type: T.Type = T.self) -> [T] {
        get {
            guard let objects = (try? value(forKey: key)) as? [ManagedObject] else { return [] }
            return objects.map { Self.typedDestination($0, as: T.self, key: key, entity: entity.name) }
        }
        set { setTyped(newValue.map { $0 as ManagedObject }, forKey: key) }
    }

    private static func typedDestination<T: ManagedObject>(_ object: ManagedObject, as type: T.Type, key: String, entity: String) -> T {
        guard let typed = object as? T else {
            preconditionFailure("\(entity).\(key): \(object.entity.name) object is a \(Swift.type(of: object)), not a \(T.self); "
                                + "register \(T.self) for entity \(object.entity.name)")
        }
        return typed
    }
}
