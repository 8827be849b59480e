import Foundation
@_spi(StoreImplementation) import StrataCore

extension SQLiteModelInference {
    /// What a model read off the tables loses: each join table (a many-to-many relationship,
    /// `Z_1TAGS`), each ordering column (`Z_FOK_…`, an ordered relationship), each table whose
    /// rows belong to several entities (the sub-entities' own properties become the root's),
    /// each other column left out, and the names and types, which are guesses.
    static func losses(model: ManagedObjectModel, skippedColumns: [String], tables: Set<String>,
                       connection: SQLiteConnection) throws -> [String] {
        var losses: [String] = []
        let joinTables = tables.filter { name in
            guard name.hasPrefix("Z_"), let first = name.dropFirst(2).first else { return false }
            return first.isNumber
        }.sorted()
        if !joinTables.isEmpty {
            losses.append("to-many relationships kept in join tables are dropped: \(joinTables.joined(separator: ", "))")
        }
        let ordering = skippedColumns.filter { $0.contains(".Z_FOK_") }
        if !ordering.isEmpty {
            losses.append("the order of ordered relationships is dropped: \(ordering.joined(separator: ", "))")
        }
        let others = skippedColumns.filter { !$0.contains(".Z_FOK_") }
        if !others.isEmpty {
            losses.append("columns not read are dropped: \(others.joined(separator: ", "))")
        }
        for root in model.entities where root.superentityName == nil && !root.subentityNames.isEmpty {
            let table = "Z" + root.name.uppercased()
            guard tables.contains(table) else { continue }
            // The table name is one sqlite_master listed.
            let codes = try connection.rows("SELECT COUNT(DISTINCT Z_ENT) FROM \"\(table)\"") { $0.int64(0) }
            if (codes.first ?? 0) > 1 {
                let family = model.entityAndDescendants(of: root.name)
                losses.append("entities \(family.joined(separator: ", ")) share table \(table): each is read with every column of the table")
            }
        }
        losses.append("property names are the column names in lower case and types are guessed from the declared column types (to-ones have no inverse)")
        return losses
    }
}
