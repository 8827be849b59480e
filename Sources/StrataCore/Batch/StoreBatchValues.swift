/// The objects of a store seen through its requirements, so that key paths and expressions can
/// walk across relationships: what a batch update evaluates its expressions against.
@_spi(StoreImplementation)
public struct StoreSnapshotSource: SnapshotSource {
    /// The store read.
    public let store: any PersistentStore

    /// A source that reads `store`.
    public init(store: any PersistentStore) { self.store = store }

    /// The store's snapshot of the object.
    public func snapshot(for objectID: ManagedObjectID) throws -> ObjectSnapshot? { try store.snapshot(for: objectID) }

    /// The to-many as the snapshot holds it, or as the store answers it.
    public func toMany(of snapshot: ObjectSnapshot, relationship: String) throws -> [ManagedObjectID] {
        try snapshot.toMany[relationship] ?? store.relatedObjectIDs(of: snapshot.objectID, relationship: relationship)
    }
}

extension StoreBatchUpdate {
    /// Whether some value is an expression, to be evaluated object by object.
    public var hasExpressions: Bool {
        values.values.contains { if case .expression = $0 { true } else { false } }
    }

    /// The stored attribute of `key` of every entity of the selection.
    ///
    /// - Throws: ``BatchRequestError`` when some selected entity has no stored attribute `key`.
    public func checkedAttribute(_ key: String, model: ManagedObjectModel) throws -> AttributeDescription {
        var found: AttributeDescription?
        for name in selection.entityNames.sorted() {
            guard let entity = model.entitiesByName[name] else { throw ObjectError.unknownEntity(name) }
            let attribute = try BatchValues.storedAttribute(key, of: entity, index: nil)
            found = found ?? attribute
        }
        guard let found else { throw BatchRequestError.unknownKey(index: nil, entity: "", key: key) }
        return found
    }

    /// The new stored values of one object: constants as they are, expressions evaluated on the
    /// object's stored state and converted to their attribute's type.
    ///
    /// - Throws: ``BatchRequestError/invalidExpressionValue(objectID:key:error:)`` for an
    ///   expression whose value the attribute cannot take, or what evaluating it throws.
    public func resolvedValues(for snapshot: ObjectSnapshot, source: any SnapshotSource,
                               model: ManagedObjectModel) throws -> [String: AttributeValue?] {
        var resolved: [String: AttributeValue?] = [:]
        let entityName = snapshot.objectID.entityName
        for (key, value) in values {
            switch value {
            case .constant(let constant):
                resolved.updateValue(constant, forKey: key)
            case .expression(let expression):
                guard let attribute = model.entitiesByName[entityName]?.attribute(named: key) else {
                    throw BatchRequestError.unknownKey(index: nil, entity: entityName, key: key)
                }
                let raw = try expression.value(with: SnapshotView(snapshot: snapshot, source: source, model: model))
                do {
                    let stored = try BatchValues.storedValue(raw, for: attribute, entity: entityName)
                    if stored == nil, !attribute.isOptional {
                        throw ObjectError.wrongValueType(entity: entityName, key: key, expected: attribute.type, found: "nil")
                    }
                    resolved.updateValue(stored, forKey: key)
                } catch let error as ObjectError {
                    throw BatchRequestError.invalidExpressionValue(objectID: snapshot.objectID, key: key, error: error)
                }
            }
        }
        return resolved
    }
}

/// Turning the values of batch requests into stored values.
enum BatchValues {
    /// The stored attribute `key` of `entity`.
    ///
    /// - Throws: ``BatchRequestError`` for an unknown key, a relationship, a transient or derived
    ///   attribute.
    static func storedAttribute(_ key: String, of entity: EntityDescription, index: Int?) throws -> AttributeDescription {
        switch entity.propertiesByName[key] {
        case nil:
            throw BatchRequestError.unknownKey(index: index, entity: entity.name, key: key)
        case .relationship?, .fetchedProperty?:
            throw BatchRequestError.notAnAttribute(index: index, entity: entity.name, key: key)
        case .attribute(let attribute)?:
            guard !attribute.isTransient, !attribute.isDerived else {
                throw BatchRequestError.notStored(index: index, entity: entity.name, key: key)
            }
            return attribute
        }
    }

    /// The stored form of a Swift value (an ``AttributeValue`` of the right type is taken as it
    /// is; nil and an expression's null stay nil).
    ///
    /// - Throws: ``ObjectError`` when the value is not of the attribute's type or does not fit it.
    static func storedValue(_ value: Any?, for attribute: AttributeDescription, entity: String) throws -> AttributeValue? {
        guard let value else { return nil }
        if let stored = value as? AttributeValue {
            guard stored.matches(attribute.type) else {
                throw ObjectError.wrongValueType(entity: entity, key: attribute.name, expected: attribute.type, found: "\(stored)")
            }
            return stored
        }
        if let constant = value as? PredicateValue { return try storedValue(constant.swiftValue, for: attribute, entity: entity) }
        do {
            return try AttributeValue.make(from: value, for: attribute, entity: entity)
        } catch {
            // An optional wrapped in `Any` (`["note": note as Any]`) stands for what it holds.
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional else { throw error }
            guard let wrapped = mirror.children.first?.value else { return nil }
            return try storedValue(wrapped, for: attribute, entity: entity)
        }
    }
}
