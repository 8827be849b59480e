import Foundation
@_spi(StoreImplementation) import StrataCore

/// Finds every uniqueness conflict of a save at once, once SQLite refused one of its rows: the
/// objects of the save that share a constraint's values, and those whose values a stored row
/// already holds, with one lookup query per constraint (and per chunk of the variable limit)
/// over all the save's values, rather than one failed save per conflict.
///
/// It runs inside the save's transaction, after the failed statement: the rows the save has
/// written or will delete are left out of the lookups (their final state is the request's), so
/// what the save wrote before it failed does not matter. Conflicts come as the atomic stores
/// report them: one per object and constraint it breaks, naming the other holder first in store
/// order.
struct SQLiteConstraintCheck {
    let connection: SQLiteConnection
    let schema: SQLiteSchema
    let storeIdentifier: String

    /// One constraint of one declaring entity, with the values the save's objects give it.
    private struct Group {
        let entityName: String
        let properties: [String]
        let table: SQLiteSchema.Table
        let columns: [String]
        /// Each distinct tuple of values, and its encoding for the lookup.
        var tuples: [[AttributeValue]] = []
        var encoded: [[SQLiteValue]] = []
        var tupleIndex: [[AttributeValue]: Int] = [:]
        /// The save's objects that hold each tuple, in the order of the save.
        var holders: [[ManagedObjectID]] = []
        /// The stored rows (outside the save) that hold each tuple.
        var storedHolders: [[ManagedObjectID]] = []
    }

    /// Every conflict `request` meets; empty when none is found.
    func conflicts(of request: StoreSaveRequest) throws -> [ConstraintConflict] {
        var keysInSave: [String: Set<Int64>] = [:]
        for id in request.inserted.map(\.objectID) + request.updated.map(\.objectID) + request.deleted.map(\.objectID) {
            if let table = schema.table(for: id.entityName), let key = key(id) { keysInSave[table.name, default: []].insert(key) }
        }
        var groups: [Group] = []
        var groupIndex: [String: Int] = [:]
        // Each written object's (group, tuple) pairs, in the order the atomic stores check them.
        var checks: [(id: ManagedObjectID, group: Int, tuple: Int)] = []
        for snapshot in request.inserted + request.updated {
            guard let table = schema.table(for: snapshot.objectID.entityName) else { continue }
            var entity = schema.model.entity(named: snapshot.objectID.entityName)
            while let current = entity {
                for constraint in current.uniquenessConstraints {
                    guard let (values, encoded, columns) = values(of: constraint, in: snapshot, table: table) else { continue }
                    let name = current.name + "\u{0}" + constraint.joined(separator: "\u{0}")
                    let index = groupIndex[name] ?? groups.count
                    if index == groups.count {
                        groups.append(Group(entityName: current.name, properties: constraint, table: table, columns: columns))
                        groupIndex[name] = index
                    }
                    let tuple = groups[index].tupleIndex[values] ?? groups[index].tuples.count
                    if tuple == groups[index].tuples.count {
                        groups[index].tuples.append(values)
                        groups[index].encoded.append(encoded)
                        groups[index].tupleIndex[values] = tuple
                        groups[index].holders.append([])
                        groups[index].storedHolders.append([])
                    }
                    groups[index].holders[tuple].append(snapshot.objectID)
                    checks.append((snapshot.objectID, index, tuple))
                }
                entity = current.superentityName.flatMap { schema.model.entity(named: $0) }
            }
        }
        for index in groups.indices {
            try lookUpStoredHolders(&groups[index], leavingOut: keysInSave[groups[index].table.name] ?? [])
        }
        var conflicts: [ConstraintConflict] = []
        for (id, index, tuple) in checks {
            let group = groups[index]
            let others = (group.holders[tuple] + group.storedHolders[tuple]).filter { $0 != id }
            guard let holder = others.min(by: ManagedObjectID.storeOrder) else { continue }
            conflicts.append(ConstraintConflict(entityName: group.entityName, properties: group.properties,
                                                objectID: id, databaseObjectID: holder))
        }
        return conflicts
    }

    /// The values of `constraint` in `snapshot` (a to-one as its destination's ID), their column
    /// encodings and columns; nil when one is missing (a constraint with a nil value is not
    /// checked, as SQLite's unique indexes do not).
    private func values(of constraint: [String], in snapshot: ObjectSnapshot, table: SQLiteSchema.Table)
        -> ([AttributeValue], [SQLiteValue], [String])? {
        var values: [AttributeValue] = []
        var encoded: [SQLiteValue] = []
        var columns: [String] = []
        for property in constraint {
            if let column = table.attributeColumns[property], let value = snapshot.attributes[property] {
                values.append(value)
                encoded.append(SQLiteValueCoding.encode(value))
                columns.append(column)
            } else if let column = table.toOneColumns[property], let destination = snapshot.toOne[property], let key = key(destination) {
                values.append(.objectID(destination))
                encoded.append(.integer(key))
                columns.append(column)
            } else {
                return nil
            }
        }
        return (values, encoded, columns)
    }

    /// Fills `group.storedHolders` with the stored rows, other than `keysInSave`, that hold each
    /// tuple: one query joining the tuples (as a `VALUES` list) to the table per chunk, which
    /// SQLite answers through the constraint's unique index, comparing as the index does.
    private func lookUpStoredHolders(_ group: inout Group, leavingOut keysInSave: Set<Int64>) throws {
        let width = group.columns.count + 1
        let perQuery = max(1, min(500, connection.variableLimit / width))
        let names = (0..<group.columns.count).map { "c\($0)" }
        let join = group.columns.enumerated().map { "t.\($1) = v.c\($0)" }.joined(separator: " AND ")
        var start = 0
        while start < group.tuples.count {
            let end = min(start + perQuery, group.tuples.count)
            let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
            let sql = "WITH v(i, \(names.joined(separator: ", "))) AS (VALUES "
                + Array(repeating: row, count: end - start).joined(separator: ", ")
                + ") SELECT v.i, t.Z_PK, t.Z_ENT FROM v JOIN \(group.table.name) t ON \(join) ORDER BY v.i, t.Z_PK"
            var arguments: [SQLiteValue] = []
            arguments.reserveCapacity((end - start) * width)
            for tuple in start..<end {
                arguments.append(.integer(Int64(tuple)))
                arguments.append(contentsOf: group.encoded[tuple])
            }
            let found = try connection.rows(sql, arguments) { ($0.int64(0), $0.int64(1), $0.int64(2)) }
            for (tuple, key, code) in found where !keysInSave.contains(key) {
                guard let name = schema.namesByCode[code], group.storedHolders.indices.contains(Int(tuple)) else { continue }
                group.storedHolders[Int(tuple)].append(ManagedObjectID(entityName: name, storeIdentifier: storeIdentifier, primaryKey: key))
            }
            start = end
        }
    }

    /// The primary key of `id` when it names a row of this store.
    private func key(_ id: ManagedObjectID) -> Int64? {
        guard id.storeIdentifier == storeIdentifier else { return nil }
        return id.primaryKey
    }
}
