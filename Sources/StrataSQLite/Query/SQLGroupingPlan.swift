import Foundation
import StrataCore

/// How the SQLite store answers a ``StoreGroupingRequest``: one `SELECT … GROUP BY` that
/// groups and aggregates the matching rows, joined back to each group's first row for the
/// group's values.
///
/// Only what SQL computes exactly as grouping the rows in memory does is planned; anything else
/// makes no plan, and the context groups the rows itself:
///
/// - one entity (groups come in the order of their first row, the smallest `Z_PK`);
/// - group keys of integer, Boolean, string (by their bytes: values group by their Unicode
///   scalars in memory too), date, double and float attributes, and to-ones whose destination
///   has no sub-entities;
/// - `count:` of anything; `sum:` and `average:` of integers and Booleans (exact: an integer
///   sum that overflows makes SQLite fail, and the context then groups in memory, where the
///   total becomes a double); `min:` and `max:` of integers, dates, doubles and floats.
///
/// Each column read is also checked for values of a storage class its attribute type does
/// not store (a number kept as a BLOB: NaN, −0.0; text in an integer column): when a group
/// meets one, ``run(on:)`` gives nil, so memory, which orders and reports those as it always
/// does, answers.
struct SQLGroupingPlan {
    /// A column read by the plan: where it is and how its values are decoded.
    private struct Read {
        var column: String
        /// The type the column's values are decoded as; nil for a to-one's foreign key.
        var type: AttributeType?
        /// The destination entity of a to-one.
        var destination: String?
        /// The storage classes the column may hold.
        var storageClasses: [String]
    }

    /// The grouping statement.
    let select: SQLFragment
    private let keys: [Read]
    private let aggregates: [(function: AggregateFunction, read: Read?)]
    /// How many storage-class checks follow the aggregates in each row.
    private let checkCount: Int
    private let storeIdentifier: String

    /// The plan for `request` over the rows of `source` (``SQLFetchPlan/source``), or nil when
    /// SQL cannot compute it exactly.
    init?(_ request: StoreGroupingRequest, entity: EntityDescription, model: ManagedObjectModel, table: SQLiteSchema.Table,
          source: SQLFragment, storeIdentifier: String) {
        guard request.entityNames == [entity.name] else { return nil }
        func read(_ key: String) -> Read? {
            if let attribute = entity.attribute(named: key), !attribute.isTransient, let column = table.attributeColumns[key] {
                let classes: [String] = switch attribute.type {
                case .integer16, .integer32, .integer64, .boolean: ["integer"]
                case .double, .float, .date: ["integer", "real"]
                case .string: ["text"]
                default: []
                }
                return classes.isEmpty ? nil : Read(column: column, type: attribute.type, storageClasses: classes)
            }
            if let relationship = entity.relationship(named: key), !relationship.isToMany, !relationship.isTransient,
               let column = table.toOneColumns[key],
               model.entitiesByName[relationship.destinationEntityName]?.subentityNames.isEmpty == true {
                return Read(column: column, destination: relationship.destinationEntityName, storageClasses: ["integer"])
            }
            return nil
        }

        var keys: [Read] = []
        var groupTerms: [String] = []
        var checks: [String] = []
        for key in request.groupBy {
            guard let found = read(key) else { return nil }
            keys.append(found)
            // Strings group by their bytes (SQLite's BINARY), as values do in memory: by their
            // Unicode scalars, so the two spellings of "é" are two groups, as in Core Data.
            groupTerms.append(found.type == .boolean ? "(t0.\(found.column) <> 0)" : "t0.\(found.column)")
        }
        var aggregates: [(function: AggregateFunction, read: Read?)] = []
        var terms: [String] = []
        for aggregate in request.aggregates {
            guard let key = aggregate.key else {
                guard aggregate.function == .count else { return nil }
                aggregates.append((.count, nil))
                terms.append("count(*)")
                continue
            }
            guard let found = read(key) else { return nil }
            let value = found.type == .boolean ? "(t0.\(found.column) <> 0)" : "t0.\(found.column)"
            switch (aggregate.function, found.type) {
            case (.count, _):
                terms.append("count(t0.\(found.column))")
            case (.sum, .integer16?), (.sum, .integer32?), (.sum, .integer64?), (.sum, .boolean?):
                terms.append("sum(\(value))")
            case (.average, .integer16?), (.average, .integer32?), (.average, .integer64?), (.average, .boolean?):
                terms.append("sum(\(value)), count(\(value))")
            case (.min, .integer16?), (.min, .integer32?), (.min, .integer64?), (.min, .date?), (.min, .double?), (.min, .float?),
                 (.max, .integer16?), (.max, .integer32?), (.max, .integer64?), (.max, .date?), (.max, .double?), (.max, .float?):
                terms.append("\(aggregate.function == .min ? "min" : "max")(t0.\(found.column))")
            default:
                return nil
            }
            aggregates.append((aggregate.function, found))
        }
        for found in keys + aggregates.compactMap(\.read) {
            let classes = (found.storageClasses + ["null"]).map { "'\($0)'" }.joined(separator: ", ")
            checks.append("max(typeof(t0.\(found.column)) NOT IN (\(classes)))")
        }

        // The inner query groups; the outer one reads each group's values from its first row.
        let selected: String = (terms + checks + ["0"]).joined(separator: ", ")
        let grouping: String = groupTerms.isEmpty ? "" : " GROUP BY " + groupTerms.joined(separator: ", ")
        let inner: SQLFragment = ("SELECT min(t0.Z_PK) AS z_first, " + selected + " ") + source + grouping
        let firstRow: String = (["g.*"] + keys.map { "f.\($0.column)" }).joined(separator: ", ")
        let join: String = keys.isEmpty ? "" : " LEFT JOIN \(table.name) f ON f.Z_PK = g.z_first ORDER BY g.z_first"
        select = ("SELECT " + firstRow + " FROM (") + inner + (") g" + join)
        self.keys = keys
        self.aggregates = aggregates
        self.checkCount = checks.count
        self.storeIdentifier = storeIdentifier
    }

    /// The groups, or nil when a column read holds a value of a storage class its type does
    /// not store, or an integer sum overflows: memory then groups the rows.
    ///
    /// - Throws: an SQLite error.
    func run(on connection: SQLiteConnection) throws -> [StoreGroup]? {
        var groups: [StoreGroup] = []
        var unusual = false
        do {
            try connection.statement(select.sql).forEachRow(select.parameters) { row in
                // Columns: first key, the aggregates' terms, the checks, a 0, then the keys.
                var index = 1
                var values: [AttributeValue?] = []
                for (function, read) in aggregates {
                    switch function {
                    case .count:
                        values.append(.integer(row.int64(index)))
                        index += 1
                    case .sum:
                        values.append(.integer(row.isNull(index) ? 0 : row.int64(index)))
                        index += 1
                    case .average:
                        let count = row.int64(index + 1)
                        values.append(count == 0 ? nil : .double(Double(row.int64(index)) / Double(count)))
                        index += 2
                    case .min, .max:
                        values.append(decode(row.value(index), read, unusual: &unusual))
                        index += 1
                    }
                }
                for offset in 0..<checkCount where row.int64(index + offset) != 0 { unusual = true }
                index += checkCount + 1
                let key = keys.indices.map { decode(row.value(index + $0), keys[$0], unusual: &unusual) }
                groups.append(StoreGroup(key: key, aggregates: values))
            }
        } catch let error as SQLiteError where error.message.contains("integer overflow") {
            return nil
        }
        return unusual ? nil : groups
    }

    /// A stored value as its attribute's value, a foreign key as its destination's ID; a value
    /// that cannot be read so sets `unusual` (memory then reads the rows and reports it).
    private func decode(_ value: SQLiteValue, _ read: Read?, unusual: inout Bool) -> AttributeValue? {
        guard let read else { return nil }
        if let destination = read.destination {
            switch value {
            case .null: return nil
            case .integer(let key):
                return .objectID(ManagedObjectID(entityName: destination, storeIdentifier: storeIdentifier, primaryKey: key))
            default:
                unusual = true
                return nil
            }
        }
        guard let type = read.type, let decoded = try? SQLiteValueCoding.decode(value, as: type) else {
            if value != .null { unusual = true }
            return nil
        }
        return decoded
    }
}
