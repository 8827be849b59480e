import Foundation
import OrderedCollections

extension ManagedObject {
    /// The value of a property by name: attributes as their Swift type (`Int16` for
    /// `Integer 16`, `String`, `Date`, …), a to-one as a ``ManagedObject``, an unordered to-many
    /// as `Set<ManagedObject>`, an ordered to-many as `[ManagedObject]`, a fetched property as
    /// `[ManagedObject]`.
    ///
    /// - Throws: ``ObjectError/unknownKey(entity:key:)`` for a key the entity does not have,
    ///   ``ObjectError/objectNotFound(_:)`` when the object's row is gone and its context's
    ///   ``ManagedObjectContext/shouldDeleteInaccessibleFaults`` is off,
    ///   ``ObjectError/objectDeleted(_:)`` for an object whose delete was saved.
    public func value(forKey key: String) throws -> Any? {
        let layout = entity.attributeLayout
        if let attribute = plainAttribute(key, in: layout) {
            // Read by position, without copying the attribute's description.
            return try storedAttribute(at: attribute.position, of: layout)?.swiftValue(ofType: attribute.type)
        }
        if !isFault, !isInvalidated, let destination = toOne(named: key) {
            return destination
        }
        if entity.isCompositePath(key) { return try compositeValue(key) }
        let property = try propertyDescription(forKey: key)
        try fulfillFault()
        try checkUsable()
        switch property {
        case .attribute(let attribute):
            return try attributeValues[key].map { try $0.swiftValue(for: attribute, entity: entity.name) }
        case .relationship(let relationship):
            guard relationship.isToMany else { return toOne(named: key) }
            let objects = try loadedToMany(key)
            return relationship.isOrdered ? Array(objects) : Set(objects)
        case .fetchedProperty(let fetched):
            guard let context = managedObjectContext else { throw ObjectError.objectDeleted(objectID) }
            var request = FetchRequest(entityName: fetched.destinationEntityName)
            if let format = fetched.predicateFormat {
                request.predicate = try ObjectPredicate(format: format)
                    .withSubstitutionVariables(["FETCH_SOURCE": objectID])
            }
            return try context.fetch(request)
        }
    }

    /// Sets a property by name, checking the value against the property's type.
    ///
    /// Integers of any width are accepted where they fit; a relationship takes objects of the
    /// destination entity from the same context (a to-many takes any sequence of them). Setting
    /// a relationship updates its inverse at once.
    ///
    /// - Throws: ``ObjectError/unknownKey(entity:key:)``,
    ///   ``ObjectError/wrongValueType(entity:key:expected:found:)``,
    ///   ``ObjectError/valueOutOfRange(entity:key:value:)``, ``ObjectError/wrongContext(_:)``.
    public func setValue(_ value: Any?, forKey key: String) throws {
        let layout = entity.attributeLayout
        if let attribute = plainAttribute(key, in: layout) {
            // Set by position, without copying the attribute's description.
            return try setStoredAttribute(at: attribute.position, of: layout) {
                try value.map { try AttributeValue.make(from: $0, ofType: attribute.type, key: key, entity: entity.name) }
            }
        }
        if let relationship = entity.relationship(named: key) {
            try fulfillFault()
            try checkMutable()
            return try setRelationship(relationship, to: value)
        }
        if entity.isCompositePath(key) { return try setCompositeValue(value, path: key) }
        let property = try propertyDescription(forKey: key)
        try fulfillFault()
        try checkMutable()
        switch property {
        case .attribute(let attribute):
            let stored = try value.map { try AttributeValue.make(from: $0, for: attribute, entity: entity.name) }
            guard attributeValues[key] != stored else { return }
            contextLink?.undoRecorder?.attributeWillChange(self, key, from: attributeValues[key])
            keepCommittedAttributes()
            attributeValues[key] = stored
            markChanged()
        case .relationship(let relationship):
            try setRelationship(relationship, to: value)
        case .fetchedProperty:
            throw ObjectError.wrongValueType(entity: entity.name, key: key, expected: nil, found: "a fetched property is read-only")
        }
    }

    /// Sets several properties, stopping at the first error.
    public func setValuesForKeys(_ values: [String: Any?]) throws {
        for key in values.keys.sorted() { try setValue(values[key] ?? nil, forKey: key) }
    }

    /// The stored form of an attribute, with no conversion (Core Data's `primitiveValue(forKey:)`).
    public func primitiveValue(forKey key: String) throws -> AttributeValue? {
        guard case .attribute = try propertyDescription(forKey: key) else {
            throw ObjectError.wrongValueType(entity: entity.name, key: key, expected: nil, found: "a relationship")
        }
        try fulfillFault()
        try checkUsable()
        return attributeValues[key]
    }

    /// Sets the stored form of an attribute, checked against its type, without tracking the
    /// change (Core Data's `setPrimitiveValue(_:forKey:)`): the object does not become updated,
    /// the key does not appear in ``changedValues()`` of an unchanged object, and no undo step is
    /// recorded. The value is saved only with a tracked change of the same object; an unchanged
    /// object that turns into a fault drops it.
    public func setPrimitiveValue(_ value: AttributeValue?, forKey key: String) throws {
        guard case .attribute(let attribute) = try propertyDescription(forKey: key) else {
            throw ObjectError.wrongValueType(entity: entity.name, key: key, expected: nil, found: "a relationship")
        }
        if let value, !value.matches(attribute.type) {
            throw ObjectError.wrongValueType(entity: entity.name, key: key, expected: attribute.type, found: "\(value)")
        }
        try fulfillFault()
        try checkMutable()
        guard attributeValues[key] != value else { return }
        keepCommittedAttributes()
        attributeValues[key] = value
    }

    // MARK: Helpers

    /// Sets a relationship to `value` (a destination, or a sequence of them for a to-many),
    /// keeping inverses consistent.
    private func setRelationship(_ relationship: RelationshipDescription, to value: Any?) throws {
        let key = relationship.name
        if relationship.isToMany {
            guard let value else { return try replaceToMany(key, with: []) }
            guard let elements = KeyPathEvaluator.elements(of: value) else {
                throw ObjectError.wrongValueType(entity: entity.name, key: key, expected: nil, found: "\(type(of: value))")
            }
            try replaceToMany(key, with: elements.map { try checkedDestination($0, for: relationship) })
        } else {
            try setToOne(key, to: value.map { try checkedDestination($0, for: relationship) })
        }
    }

    /// The position in the entity's `layout`, and the type, of the attribute `key` when it needs
    /// no transformer: the attributes read and written by position.
    @inline(__always)
    func plainAttribute(_ key: String, in layout: AttributeLayout) -> (position: Int, type: AttributeType)? {
        guard let position = layout.position(of: key) else { return nil }
        let type = entity.attributeTypesByPosition[position]
        return type == .transformable ? nil : (position, type)
    }

    /// The stored value of the attribute at `position` of the entity's `layout`,
    /// after loading the object if it is a fault.
    @inline(__always)
    func storedAttribute(at position: Int, of layout: AttributeLayout) throws -> AttributeValue? {
        if isFault { try fulfillFault() }
        try checkUsable()
        // Read in place: calling a method on the stored values would copy them first.
        return attributeValues.isLaidOut(as: layout) ? attributeValues[position: position] : attributeValues[layout.names[position]]
    }

    /// Sets the attribute at `position` of the entity's `layout` (not transformable)
    /// to what `makeStored` makes, and records the change.
    @inline(__always)
    func setStoredAttribute(at position: Int, of layout: AttributeLayout,
                            _ makeStored: () throws -> AttributeValue?) throws {
        // An object in a change list is in a live context (a context cuts its objects loose
        // when it goes), so it needs no check.
        let tracked = pendingChange != .none
        if !tracked { try checkMutable() }
        if isFault { try fulfillFault() }
        let stored = try makeStored()
        if let recorder = contextLink?.undoRecorder { recorder.attributeWillChange(self, at: position, of: layout) }
        keepCommittedAttributes()
        if tracked {
            // Already listed as changed: the value it replaces does not matter.
            attributeValues.setValue(stored, at: position, of: layout)
        } else if attributeValues.replaceValue(at: position, of: layout, with: stored) != stored {
            markChanged()
        }
    }

    func propertyDescription(forKey key: String) throws -> PropertyDescription {
        guard let property = entity.propertiesByName[key] else {
            throw ObjectError.unknownKey(entity: entity.name, key: key)
        }
        return property
    }

    /// Throws for an object cut loose from its context (deleted and saved, rolled back, reset,
    /// or its context gone), whose values are no longer there to read.
    @inline(__always)
    func checkUsable() throws {
        guard !isInvalidated else { throw usableError() }
    }

    /// The error ``checkUsable()`` throws, made out of line: the check is inlined into every read.
    @inline(never)
    private func usableError() -> ObjectError { ObjectError.objectDeleted(objectID) }

    func checkMutable() throws {
        guard !isInvalidated, managedObjectContext != nil else { throw ObjectError.objectDeleted(objectID) }
    }

    /// Records that this object changed, in its context.
    func markChanged() {
        // An object already in a change list stays there (what `markUpdated` checks first),
        // without loading the weak reference to its context.
        guard pendingChange == .none else { return }
        managedObjectContext?.markUpdated(self)
    }

    private func checkedDestination(_ value: Any, for relationship: RelationshipDescription) throws -> ManagedObject {
        guard let object = value as? ManagedObject else {
            throw ObjectError.wrongValueType(entity: entity.name, key: relationship.name, expected: nil, found: "\(type(of: value))")
        }
        return try checkedDestination(object, for: relationship)
    }

    /// `object`, once checked to be of this object's context and of the destination entity of
    /// `relationship`.
    func checkedDestination(_ object: ManagedObject, for relationship: RelationshipDescription) throws -> ManagedObject {
        guard let context = managedObjectContext, object.managedObjectContext === context else {
            throw ObjectError.wrongContext(object.objectID)
        }
        let name = object.entity.name
        guard name == relationship.destinationEntityName
                || context.persistentStoreCoordinator.managedObjectModel.entity(name, isKindOf: relationship.destinationEntityName) else {
            throw ObjectError.wrongValueType(
                entity: entity.name, key: relationship.name, expected: nil,
                found: "an object of entity \(object.entity.name), not \(relationship.destinationEntityName)")
        }
        return object
    }
}
