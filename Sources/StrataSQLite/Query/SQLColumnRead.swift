import Foundation
@_spi(StoreImplementation) import StrataCore

/// A property of the fetched entities read straight from its column of the fetched row (`t0`):
/// an attribute decoded as its type, or a to-one's foreign key as its destination's ID, exactly
/// as the row reader reads them. What the grouping and dictionary plans read instead of whole
/// rows.
struct SQLColumnRead {
    /// The column.
    let column: String
    /// The type the column's values decode as; nil for a to-one.
    let type: AttributeType?
    /// The destination entity of a to-one.
    let destination: String?

    /// The property `key` when it is the same stored attribute or to-one of every entity of
    /// `entities`, in a column of its own of `table`; a to-one's destination must have no
    /// sub-entities (its ID then needs no second read). Nil otherwise.
    init?(_ key: String, of entities: [EntityDescription], table: SQLiteSchema.Table, schema: SQLiteSchema) {
        guard !(schema.sharedPropertyNames[table.rootEntity]?.contains(key) ?? false),
              let property = entities.first?.propertiesByName[key],
              entities.allSatisfy({ $0.propertiesByName[key] == property }) else { return nil }
        switch property {
        case .attribute(let attribute):
            guard !attribute.isTransient, let column = table.attributeColumns[key] else { return nil }
            (self.column, type, destination) = (column, attribute.type, nil)
        case .relationship(let relationship):
            guard !relationship.isToMany, !relationship.isTransient, let column = table.toOneColumns[key],
                  schema.model.entitiesByName[relationship.destinationEntityName]?.subentityNames.isEmpty == true else { return nil }
            (self.column, type, destination) = (column, nil, relationship.destinationEntityName)
        case .fetchedProperty:
            return nil
        }
    }

    /// A stored value that does not decode as its property's value.
    struct Unreadable: Error {}

    /// `value` read from the column: nil for NULL.
    ///
    /// - Throws: ``Unreadable`` for a value its type cannot hold (reading the row whole then
    ///   reports it) or a foreign key that is not an integer.
    func read(_ value: SQLiteValue, storeIdentifier: String) throws(Unreadable) -> AttributeValue? {
        if let destination {
            switch value {
            case .null: return nil
            case .integer(let key):
                return .objectID(ManagedObjectID(entityName: destination, storeIdentifier: storeIdentifier, primaryKey: key))
            default: throw Unreadable()
            }
        }
        guard let type else { throw Unreadable() }
        do {
            return try SQLiteValueCoding.decode(value, as: type)
        } catch {
            throw Unreadable()
        }
    }
}
