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
    //
    // The one error rule of typed properties (`@Managed`, generated classes, hand-written ones):
    // nil means only "the property has no value". Any other failure (a value of another type,
    // an unknown key, nil read through a non-optional property, a destination of the wrong
    // class, an object that was deleted or whose context went) is a programming error: the
    // program stops with a message naming the entity, the key, the Swift type expected and what
    // was found (`fatalError`, so the message is printed in release builds too). Code that must
    // handle such failures uses the throwing `value(forKey:as:)` and `setValue(_:forKey:)`.

    /// The value of `key` as `T`; nil only when it has no value.
    ///
    /// For the typed properties of subclasses: `var note: String? { get { self[typed: "note"] } }`.
    /// A value of another type, an unknown key or an unreadable object (deleted, its context
    /// gone) stops the program, naming the entity, key, `T` and what was found.
    public subscript<T>(typed key: String, as type: T.Type = T.self) -> T? {
        let value: Any?
        do {
            value = try self.value(forKey: key)
        } catch {
            typedAccessFailure(key, expected: T.self, found: error)
        }
        guard let value else { return nil }
        guard let typed = value as? T else { typedAccessFailure(key, expected: T.self, foundValue: value) }
        return typed
    }

    /// The value of the attribute `key` as `T`; nil only when it has no value. Read without a
    /// cast from `Any` (`value(forKey:as:)`); every other failure stops the program, as
    /// ``subscript(typed:as:)-(String,_)`` does.
    @inlinable
    public subscript<T: AttributeConvertible>(typed key: String, as type: T.Type = T.self) -> T? {
        do {
            if let value = try value(forKey: key, as: T.self) { return value }
        } catch {
            typedAccessFailure(key, expected: T.self, found: error)
        }
        // Nil: no value, or a value of another type; only the first is an answer.
        typedAbsence(key, expected: T.self)
        return nil
    }

    /// The destination of the to-one `key` as `T`; nil only when it has none. A destination of
    /// another class and every other failure stop the program.
    @inlinable
    public subscript<T: ManagedObject>(typed key: String, as type: T.Type = T.self) -> T? {
        do {
            if let value = try value(forKey: key, as: T.self) { return value }
        } catch {
            typedAccessFailure(key, expected: T.self, found: error)
        }
        typedAbsence(key, expected: T.self)
        return nil
    }

    /// The value of the attribute `key`, which a non-optional property declares always present.
    /// No value, and every failure ``subscript(typed:as:)-(String,_)`` stops at, stop the program.
    @inlinable
    public subscript<T: AttributeConvertible>(required key: String, as type: T.Type = T.self) -> T {
        guard let value = self[typed: key, as: T.self] else { typedAccessFailure(key, expected: T.self, foundValue: nil) }
        return value
    }

    /// The destination of the to-one `key`, which a non-optional property declares always
    /// present; none stops the program, as every failure of ``subscript(typed:as:)-(String,_)`` does.
    @inlinable
    public subscript<T: ManagedObject>(required key: String, as type: T.Type = T.self) -> T {
        guard let value = self[typed: key, as: T.self] else { typedAccessFailure(key, expected: T.self, foundValue: nil) }
        return value
    }

    /// After a typed read gave nil: returns when `key` has no value, stops the program when it
    /// holds a value of another type than `expected` (or cannot be read).
    @usableFromInline
    func typedAbsence(_ key: String, expected: Any.Type) {
        let value: Any?
        do {
            value = try self.value(forKey: key)
        } catch {
            typedAccessFailure(key, expected: expected, found: error)
        }
        if let value { typedAccessFailure(key, expected: expected, foundValue: value) }
    }

    /// Stops the program for a typed property whose read or write failed with `error`.
    @usableFromInline
    func typedAccessFailure(_ key: String, expected: Any.Type, found error: any Error) -> Never {
        fatalError("\(entity.name).\(key): typed property of type \(expected) failed: \(error)")
    }

    /// Stops the program for a typed property that found `value` (nil: no value) where a `T`
    /// was expected.
    @usableFromInline
    func typedAccessFailure(_ key: String, expected: Any.Type, foundValue value: Any?) -> Never {
        let found = value.map { "a value of type \(Swift.type(of: $0))" } ?? "no value (nil read through a non-optional property)"
        fatalError("\(entity.name).\(key): typed property of type \(expected) found \(found)")
    }

    /// Sets `key` from a typed property of a subclass.
    ///
    /// The key and type come from the class's declaration, so a failure here (an unknown key, a
    /// value the property cannot hold, an object that was deleted or whose context went) is a
    /// programming error and stops the program; use `setValue(_:forKey:)` for values from outside.
    public func setTyped<T>(_ value: T?, forKey key: String) {
        do {
            try setValue(value.map { $0 as Any }, forKey: key)
        } catch {
            typedAccessFailure(key, expected: T.self, found: error)
        }
    }

    /// Sets the attribute `key` from a typed property of a subclass, without a cast from `Any`
    /// (the typed `setValue(_:forKey:)`); a failure stops the program, as the untyped form's does.
    @inlinable
    public func setTyped<T: AttributeConvertible>(_ value: T?, forKey key: String) {
        do {
            try setValue(value, forKey: key)
        } catch {
            typedAccessFailure(key, expected: T.self, found: error)
        }
    }

    /// Sets the to-one `key` from a typed property of a subclass, without a cast from `Any`
    /// (the typed `setValue(_:forKey:)`, inverse upkeep included); a destination of the wrong
    /// entity and every other failure stop the program.
    public func setTyped<T: ManagedObject>(_ destination: T?, forKey key: String) {
        do {
            try setValue(destination as ManagedObject?, forKey: key)
        } catch {
            typedAccessFailure(key, expected: T.self, found: error)
        }
    }

    /// The destinations of the unordered to-many `key` as `T`s, for the typed properties of
    /// subclasses: `var tags: Set<Tag> { get { self[toMany: "tags"] } set { … } }`.
    ///
    /// The rule of ``subscript(typed:as:)-(String,_)``: a destination that is not a `T` (its
    /// class was not registered for its entity), a key that is not an unordered to-many, and an
    /// object that cannot be read (deleted, its context gone) stop the program. Setting goes
    /// through `setValue(_:forKey:)`: change tracking and inverse upkeep included.
    public subscript<T: ManagedObject>(toMany key: String, as type: T.Type = T.self) -> Set<T> {
        get {
            let value: Any?
            do {
                value = try self.value(forKey: key)
            } catch {
                typedAccessFailure(key, expected: Set<T>.self, found: error)
            }
            guard let objects = value as? Set<ManagedObject> else { typedAccessFailure(key, expected: Set<T>.self, foundValue: value) }
            return Set(objects.map { typedDestination($0, as: T.self, key: key) })
        }
        set { setTyped(Set(newValue.map { $0 as ManagedObject }), forKey: key) }
    }

    /// The destinations of the ordered to-many `key` as `T`s, in order; the rules of
    /// ``subscript(toMany:as:)``.
    public subscript<T: ManagedObject>(orderedToMany key: String, as type: T.Type = T.self) -> [T] {
        get {
            let value: Any?
            do {
                value = try self.value(forKey: key)
            } catch {
                typedAccessFailure(key, expected: [T].self, found: error)
            }
            guard let objects = value as? [ManagedObject] else { typedAccessFailure(key, expected: [T].self, foundValue: value) }
            return objects.map { typedDestination($0, as: T.self, key: key) }
        }
        set { setTyped(newValue.map { $0 as ManagedObject }, forKey: key) }
    }

    private func typedDestination<T: ManagedObject>(_ object: ManagedObject, as type: T.Type, key: String) -> T {
        guard let typed = object as? T else {
            fatalError("\(entity.name).\(key): typed property of type \(T.self) found a \(object.entity.name) "
                                + "object of class \(Swift.type(of: object)); register \(T.self) for entity \(object.entity.name)")
        }
        return typed
    }
}
