internal import CSQLite
import Foundation
@_spi(StoreImplementation) import StrataCore

/// Keeps the columns of derived attributes (``SQLiteSchema/Table/derivedColumns``) computed, in
/// SQL, inside the transaction of every save and batch request: Core Data does it with triggers,
/// Strata with one `UPDATE` per derived attribute after the rows are written.
///
/// | derivation | column set to |
/// |---|---|
/// | `name`, `author.name` | the column, or a subquery through each to-one's foreign key |
/// | `lowercase:(…)`, `uppercase:(…)`, `canonical:(…)` | `strata_derive_<function>(…)`, Swift's function of ``Derivation/StringFunction`` |
/// | `pages.@count`, `@sum`, `@min`, `@max`, `@avg` | `COUNT`, `SUM` (0 for none), `MIN`, `MAX`, `AVG` over the inverse foreign key or the join table |
/// | `now()` | the save's time, on the rows it inserted or updated |
///
/// Only the rows whose value changes are written (`… IS NOT …`), and `Z_OPT` is left as it is,
/// as Core Data's triggers leave it. A save that touches none of the tables a derivation
/// reads costs nothing for it; a derivation from the row's own columns is computed on the rows
/// written only; one through a relationship is checked on every row of its entity.
struct SQLiteDerivedColumnWriter {
    let connection: SQLiteConnection
    let schema: SQLiteSchema

    /// Brings derived columns up to date after `request`'s rows were written.
    func update(after request: StoreSaveRequest, now: Date = Date()) throws {
        guard !schema.model.derivedAttributesByEntity.isEmpty else { return }
        var touched = Set<String>()
        var saved: [String: [Int64]] = [:]
        for snapshot in request.inserted + request.updated {
            touched.insert(snapshot.objectID.entityName)
            if let key = snapshot.objectID.primaryKey { saved[snapshot.objectID.entityName, default: []].append(key) }
        }
        for deletion in request.deleted { touched.insert(deletion.objectID.entityName) }
        try update(touchedEntities: touched, saved: saved, now: now)
    }

    /// Brings derived columns up to date after rows of `touchedEntities` were written (nil: any),
    /// setting `now()` columns on the rows `saved` lists by entity name.
    func update(touchedEntities: Set<String>?, saved: [String: [Int64]], now: Date = Date()) throws {
        for (entityName, derived) in schema.model.derivedAttributesByEntity.sorted(by: { $0.key < $1.key }) {
            guard let entity = schema.model.entity(named: entityName), let table = schema.table(for: entityName) else { continue }
            // Sub-entities inherit the attribute: its declaring entity's statement covers their rows.
            let inherited = entity.superentityName.flatMap { schema.model.entity(named: $0)?.attributesByName } ?? [:]
            let codes = schema.codes.filter { schema.model.entity($0.key, isKindOf: entityName) }.map(\.value).sorted()
            for item in derived where inherited[item.attribute.name] == nil {
                guard let column = table.attributeColumns[item.attribute.name] else { continue }
                if case .now = item.derivation {
                    let keys = saved.filter { schema.model.entity($0.key, isKindOf: entityName) }.flatMap(\.value).sorted()
                    for list in BatchSQL.inLists(keys) {
                        try connection.run("UPDATE \(table.name) SET \(column) = ? WHERE Z_PK IN (\(list.marks))",
                                           [SQLiteValueCoding.encode(.date(now))] + list.values)
                    }
                    continue
                }
                if let touchedEntities, !reads(item, of: entity, touched: touchedEntities) { continue }
                guard let value = expression(item, of: entity, table: table) else { continue }
                if touchedEntities != nil, item.derivation.relationshipPath.isEmpty {
                    // A value from the row's own columns changes only in the rows written.
                    let keys = saved.filter { schema.model.entity($0.key, isKindOf: entityName) }.flatMap(\.value).sorted()
                    for list in BatchSQL.inLists(keys) {
                        try connection.run("UPDATE \(table.name) SET \(column) = \(value) WHERE Z_PK IN (\(list.marks)) AND \(column) IS NOT \(value)",
                                           list.values)
                    }
                    continue
                }
                let condition = schema.entityCondition(codes, in: table)
                let filter = condition.sql.isEmpty ? " WHERE " : condition.sql + " AND "
                try connection.run("UPDATE \(table.name) SET \(column) = \(value)\(filter)\(column) IS NOT \(value)", condition.values)
            }
        }
    }

    /// Whether the derivation reads rows of an entity in `touched` (its own, or through its key path).
    private func reads(_ item: DerivedAttribute, of entity: EntityDescription, touched: Set<String>) -> Bool {
        let model = schema.model
        func touches(_ name: String) -> Bool {
            touched.contains { model.entity($0, isKindOf: name) || model.entity(name, isKindOf: $0) }
        }
        if touches(entity.name) { return true }
        var current = entity
        for name in item.derivation.relationshipPath {
            guard let relationship = current.relationship(named: name), let next = model.entity(named: relationship.destinationEntityName) else { return true }
            if touches(next.name) { return true }
            current = next
        }
        return false
    }

    /// The SQL of the derivation's value for a row of `table` (named by its table name), or nil
    /// when a table or column it needs is not in the store.
    private func expression(_ item: DerivedAttribute, of entity: EntityDescription, table: SQLiteSchema.Table) -> String? {
        switch item.derivation {
        case .now:
            return nil
        case .copy(let path):
            return keyPathSQL(path, from: entity, table: table)
        case let .string(function, path):
            return keyPathSQL(path, from: entity, table: table).map { "\(SQLiteDerivationFunctions.name(of: function))(\($0))" }
        case let .aggregate(function, relationshipName, attributeName):
            guard let relationship = entity.relationship(named: relationshipName),
                  let destinationTable = schema.table(for: relationship.destinationEntityName),
                  let storage = schema.toMany[entity.name]?[relationshipName] else { return nil }
            let operand: String
            if let attributeName {
                guard let column = destinationTable.attributeColumns[attributeName] else { return nil }
                operand = "d.\(column)"
            } else {
                operand = "*"
            }
            let call = switch function {
            case .count: "COUNT(\(operand))"
            case .sum: "IFNULL(SUM(\(operand)), 0)"
            case .min: "MIN(\(operand))"
            case .max: "MAX(\(operand))"
            case .avg: "AVG(\(operand))"
            }
            switch storage {
            case let .inverseForeignKey(destination, column, _, _):
                return "(SELECT \(call) FROM \(destination) d WHERE d.\(column) = \(table.name).Z_PK)"
            case let .joinTable(index, reversed):
                let join = schema.joinTables[index]
                let (own, other) = reversed ? (join.destinationColumn, join.sourceColumn) : (join.sourceColumn, join.destinationColumn)
                if attributeName == nil { return "(SELECT \(call) FROM \(join.name) j WHERE j.\(own) = \(table.name).Z_PK)" }
                return "(SELECT \(call) FROM \(join.name) j JOIN \(destinationTable.name) d ON d.Z_PK = j.\(other) WHERE j.\(own) = \(table.name).Z_PK)"
            }
        }
    }

    /// The SQL of the value at the end of `path` (to-ones, then an attribute) for a row of `table`.
    private func keyPathSQL(_ path: [String], from entity: EntityDescription, table: SQLiteSchema.Table) -> String? {
        var current = entity
        var tables: [(name: String, alias: String, foreignKey: String)] = []
        var owner = table.name
        var currentTable = table
        for (step, name) in path.dropLast().enumerated() {
            guard let relationship = current.relationship(named: name), let foreignKey = currentTable.toOneColumns[name],
                  let next = schema.model.entity(named: relationship.destinationEntityName), let nextTable = schema.table(for: next.name) else { return nil }
            tables.append((nextTable.name, "t\(step + 1)", "\(owner).\(foreignKey)"))
            owner = "t\(step + 1)"
            current = next
            currentTable = nextTable
        }
        guard let column = currentTable.attributeColumns[path.last ?? ""] else { return nil }
        var sql = "\(owner).\(column)"
        for link in tables.reversed() {
            sql = "(SELECT \(sql) FROM \(link.name) \(link.alias) WHERE \(link.alias).Z_PK = \(link.foreignKey))"
        }
        return sql
    }
}

/// The string functions of derivations, registered on every connection (they are called only by
/// Strata's own statements, never stored in the file).
enum SQLiteDerivationFunctions {
    /// The SQL name of `function`.
    static func name(of function: Derivation.StringFunction) -> String { "strata_derive_\(function.rawValue)" }

    /// Registers every function on `connection`.
    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        let functions: [(Derivation.StringFunction, @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void)] = [
            (.lowercase, lowercaseCallback), (.uppercase, uppercaseCallback), (.canonical, canonicalCallback),
        ]
        for (function, body) in functions {
            let result = sqlite3_create_function_v2(connection.handle, name(of: function), 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                                    nil, body, nil, nil, nil)
            guard result == SQLITE_OK else { throw connection.lastError(sql: nil, code: result) }
        }
    }

    /// `function` of the text argument; NULL for anything else.
    fileprivate static func run(_ function: Derivation.StringFunction, _ context: OpaquePointer?,
                                _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        guard case .text(let text) = SQLQueryFunctions.value(arguments?[0]) else {
            sqlite3_result_null(context)
            return
        }
        let result = function.apply(text)
        sqlite3_result_text(context, result, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }
}

// The C entry points SQLite calls. They capture nothing, as C function pointers must.

private func lowercaseCallback(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    SQLiteDerivationFunctions.run(.lowercase, context, arguments)
}

private func uppercaseCallback(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    SQLiteDerivationFunctions.run(.uppercase, context, arguments)
}

private func canonicalCallback(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    SQLiteDerivationFunctions.run(.canonical, context, arguments)
}
