/// Why a batch request was refused. Nothing was changed in any store that threw it.
///
/// `index` is the position of the object in a ``BatchInsertRequest`` (its place in
/// ``BatchInsertRequest/objectsToInsert``, or the count of earlier dictionaries from its handler);
/// nil means the ``BatchUpdateRequest/propertiesToUpdate`` of an update.
public enum BatchRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The entity has no property of that name.
    case unknownKey(index: Int?, entity: String, key: String)
    /// The key names a relationship or fetched property: batch requests set attributes only.
    case notAnAttribute(index: Int?, entity: String, key: String)
    /// The key names a transient or derived attribute, which is not stored.
    case notStored(index: Int?, entity: String, key: String)
    /// A value is not of its attribute's type or does not fit it; `error` says which.
    case invalidValue(index: Int?, key: String, error: ObjectError)
    /// An expression of an update gave, for one object, a value its attribute cannot take.
    case invalidExpressionValue(objectID: ManagedObjectID, key: String, error: ObjectError)
    /// A non-optional attribute would be nil.
    case missingValue(index: Int?, entity: String, key: String)
    /// An update with nothing to set.
    case noPropertiesToUpdate(entity: String)
    /// Two objects of one insert, or an inserted object and a stored one (`existingObject`), would
    /// share the values of a uniqueness constraint.
    case constraintConflict(index: Int, entity: String, properties: [String], otherIndex: Int?, existingObject: ManagedObjectID?)
    /// A delete leaves `destinationCount` destinations of a `deny` relationship of `objectID`.
    case deleteDenied(objectID: ManagedObjectID, relationship: String, destinationCount: Int)
    /// A delete names an object by a temporary ID, which no store holds.
    case temporaryObjectID(ManagedObjectID)

    /// One line that says what is wrong and where.
    public var description: String {
        func place(_ index: Int?) -> String { index.map { "object \($0)" } ?? "propertiesToUpdate" }
        switch self {
        case let .unknownKey(index, entity, key): return "\(place(index)): entity '\(entity)' has no property '\(key)'"
        case let .notAnAttribute(index, entity, key):
            return "\(place(index)): '\(key)' of entity '\(entity)' is not an attribute (batch requests set attributes only)"
        case let .notStored(index, entity, key):
            return "\(place(index)): attribute '\(key)' of entity '\(entity)' is transient or derived and cannot be stored"
        case let .invalidValue(index, _, error): return "\(place(index)): \(error)"
        case let .invalidExpressionValue(objectID, key, error): return "\(objectID), key '\(key)': \(error)"
        case let .missingValue(index, entity, key):
            return "\(place(index)): attribute '\(key)' of entity '\(entity)' is not optional and has no value"
        case .noPropertiesToUpdate(let entity): return "batch update of entity '\(entity)' has no properties to update"
        case let .constraintConflict(index, entity, properties, otherIndex, existing):
            let holder = otherIndex.map { "object \($0) of the same request" } ?? existing.map { "\($0)" } ?? "another object"
            return "object \(index): \(entity)(\(properties.joined(separator: ", "))) is already held by \(holder)"
        case let .deleteDenied(objectID, relationship, count):
            return "\(objectID) cannot be deleted: relationship '\(relationship)' is deny and \(count) destination(s) would remain"
        case .temporaryObjectID(let id): return "\(id) is a temporary ID: no store holds the object"
        }
    }
}
