import Foundation
import StrataCore

/// How the SQLite store answers a ``StoreValuesRequest``: `SELECT t0.Z_ENT, <the columns>` over
/// the body of the fetch's plan (``SQLFetchPlan/body``: its joins, condition, order and range).
///
/// Each key must be the same attribute or to-one of every fetched entity, in a column of its
/// own; a to-one's destination must have no sub-entities (its ID then needs no second read).
/// Values decode exactly as the row reader decodes them.
struct SQLRowValuesPlan {
    /// A column read: the attribute's type, or a to-one's destination entity.
    private enum Read {
        case attribute(AttributeType)
        case toOne(destination: String)
    }

    /// The statement.
    let select: SQLFragment
    private let reads: [Read]
    private let codes: Set<Int64>
    private let storeIdentifier: String

    /// The plan for `request` over `body`, or nil when a key is not a column of every entity.
    init?(_ request: StoreValuesRequest, schema: SQLiteSchema, table: SQLiteSchema.Table, body: SQLFragment,
          storeIdentifier: String) {
        let model = schema.model
        let entities = request.fetch.entityNames.sorted().compactMap { model.entitiesByName[$0] }
        let codes = request.fetch.entityNames.compactMap { schema.codes[$0] }
        guard !entities.isEmpty, entities.count == request.fetch.entityNames.count, codes.count == entities.count else { return nil }
        let shared = schema.sharedPropertyNames[table.rootEntity] ?? []
        var reads: [Read] = []
        var columns: [String] = ["t0.Z_ENT"]
        for key in request.keys {
            guard !shared.contains(key), let property = entities[0].propertiesByName[key],
                  entities.allSatisfy({ $0.propertiesByName[key] == property }) else { return nil }
            switch property {
            case .attribute(let attribute):
                guard !attribute.isTransient, let column = table.attributeColumns[key] else { return nil }
                reads.append(.attribute(attribute.type))
                columns.append("t0.\(column)")
            case .relationship(let relationship):
                guard !relationship.isToMany, !relationship.isTransient, let column = table.toOneColumns[key],
                      model.entitiesByName[relationship.destinationEntityName]?.subentityNames.isEmpty == true else { return nil }
                reads.append(.toOne(destination: relationship.destinationEntityName))
                columns.append("t0.\(column)")
            case .fetchedProperty:
                return nil
            }
        }
        select = ("SELECT " + columns.joined(separator: ", ") + " ") + body
        self.reads = reads
        self.codes = Set(codes)
        self.storeIdentifier = storeIdentifier
    }

    /// The values of each row, or nil when a row is of an entity not fetched or a value does not
    /// decode (reading the rows whole then reports it).
    ///
    /// - Throws: an SQLite error.
    func run(on connection: SQLiteConnection) throws -> [[AttributeValue?]]? {
        var rows: [[AttributeValue?]] = []
        var unusual = false
        let statement = try connection.statement(select.sql)
        defer { statement.reset() }
        try statement.forEachRow(select.parameters) { row in
            guard !unusual else { return }
            guard codes.contains(row.int64(0)) else { unusual = true; return }
            var values: [AttributeValue?] = []
            values.reserveCapacity(reads.count)
            for (index, read) in reads.enumerated() {
                let value = row.value(index + 1)
                switch read {
                case .attribute(let type):
                    do {
                        values.append(try SQLiteValueCoding.decode(value, as: type))
                    } catch {
                        unusual = true
                        return
                    }
                case .toOne(let destination):
                    switch value {
                    case .null: values.append(nil)
                    case .integer(let key):
                        values.append(.objectID(ManagedObjectID(entityName: destination, storeIdentifier: storeIdentifier, primaryKey: key)))
                    default:
                        unusual = true
                        return
                    }
                }
            }
            rows.append(values)
        }
        return unusual ? nil : rows
    }
}
