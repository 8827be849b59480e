@_spi(StoreImplementation) import StrataCore

/// Checks that an existing database has every table and column a schema reads and writes, so
/// that a store written with another layout fails when it opens, naming what is missing, rather
/// than at the first fetch.
struct SQLiteSchemaCheck {
    let schema: SQLiteSchema
    let connection: SQLiteConnection
    let file: String

    /// Throws ``StoreError/corruptStore(file:offset:reason:)`` naming every missing table and
    /// every missing column by table; returns the destination entity columns (which a store
    /// may lack) that are missing, by table.
    @discardableResult
    func requireEveryTableAndColumn(existingTables: Set<String>) throws -> [String: Set<String>] {
        var required: [(table: String, columns: [String], optional: [String])] = []
        for table in schema.tables.values {
            required.append((table.name, ["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name), table.entityColumns.values.map(\.name)))
        }
        for join in schema.joinTables {
            required.append((join.name, [join.sourceColumn, join.destinationColumn] + [join.orderColumn, join.inverseOrderColumn].compactMap { $0 }, []))
        }
        var problems: [String] = []
        var absentEntityColumns: [String: Set<String>] = [:]
        for (table, columns, optional) in required.sorted(by: { $0.table < $1.table }) {
            guard existingTables.contains(table) else {
                problems.append("table \(table) is missing")
                continue
            }
            // PRAGMA takes no bound parameters; the name is one of the schema's own, checked above
            // to be a table of this database.
            let present = Set(try connection.rows("PRAGMA table_info(\(table))") { $0.text(1)?.uppercased() ?? "" })
            let missing = columns.filter { !present.contains($0.uppercased()) }
            if !missing.isEmpty { problems.append("table \(table) has no column \(missing.joined(separator: ", "))") }
            absentEntityColumns[table] = Set(optional.filter { !present.contains($0.uppercased()) })
        }
        guard problems.isEmpty else {
            throw StoreError.corruptStore(file: file, offset: nil, reason: "not the layout the model needs: " + problems.joined(separator: "; "))
        }
        return absentEntityColumns
    }
}
