@_spi(StoreImplementation) import StrataCore

/// Keeps Core Data's destination entity columns (`Z<code>_<RELATIONSHIP>`, see
/// ``SQLiteSchema/Table/entityColumns``) equal to the `Z_ENT` of the row each to-one points at.
///
/// Runs inside a save's transaction, after the rows are written: one `UPDATE` per table and 512
/// keys for the rows the save may have pointed somewhere new (its inserted and updated objects
/// and the destinations of their to-many relationships, whose foreign keys a to-many writes), so
/// its cost follows the save, not the table.
struct SQLiteEntityColumnWriter {
    let connection: SQLiteConnection
    let schema: SQLiteSchema

    /// Updates the entity columns of the rows `request` touched.
    func update(after request: StoreSaveRequest) throws {
        let tables = schema.tables.values.filter { !$0.entityColumns.isEmpty }
        guard !tables.isEmpty else { return }
        let roots = Set(tables.map(\.rootEntity))
        var keys: [String: Set<Int64>] = [:]
        func note(_ id: ManagedObjectID) {
            guard let key = id.primaryKey, let root = schema.model.entity(named: id.entityName)?.rootEntityName,
                  roots.contains(root) else { return }
            keys[root, default: []].insert(key)
        }
        for snapshot in request.inserted + request.updated {
            note(snapshot.objectID)
            for destinations in snapshot.toMany.values { destinations.forEach(note) }
        }
        for table in tables {
            guard let touched = keys[table.rootEntity], !touched.isEmpty else { continue }
            for list in BatchSQL.inLists(touched.sorted()) {
                try connection.run("UPDATE \(table.name) SET \(assignments(table)) WHERE Z_PK IN (\(list.marks))", list.values)
            }
        }
    }

    /// Updates the entity columns of every row (after the store's contents were replaced).
    func updateAll() throws {
        for table in schema.tables.values where !table.entityColumns.isEmpty {
            try connection.execute("UPDATE \(table.name) SET \(assignments(table))")
        }
    }

    /// `Z1_BOOK = (SELECT Z_ENT FROM ZBOOK WHERE Z_PK = ZPAGE.ZBOOK), …`: NULL where the foreign
    /// key is.
    private func assignments(_ table: SQLiteSchema.Table) -> String {
        table.entityColumns.sorted { $0.key < $1.key }.compactMap { relationship, column in
            table.toOneColumns[relationship].map {
                "\(column.name) = (SELECT Z_ENT FROM \(column.destinationTable) WHERE Z_PK = \(table.name).\($0))"
            }
        }.joined(separator: ", ")
    }
}
