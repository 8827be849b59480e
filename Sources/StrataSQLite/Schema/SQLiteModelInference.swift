import Foundation
@_spi(StoreImplementation) import StrataCore

/// A model read off the tables of a Core Data SQLite store, for a store whose model is lost:
/// neither its model file nor a compiled model (`Z_MODELCACHE`, which stores older than
/// iOS 8 do not keep) is at hand.
///
/// What the tables say is kept; what only the model said is not:
/// - entities, their codes and inheritance from `Z_PRIMARYKEY` (tables of persistent history
///   and other non-entity tables are left out);
/// - every column of a root's table becomes a property of the root, named by the column name
///   without its `Z`, in lower case (`ZCREATEDAT` → `createdat`): sub-entities inherit them all;
/// - types from the declared column types: `INTEGER` Integer 64 (Booleans read as 0 and 1),
///   `FLOAT` Double, `TIMESTAMP` Date, `VARCHAR` String, `DECIMAL` Decimal, `BLOB` Binary;
/// - an `INTEGER` column named after an entity (`ZUSER` for `User`) is a to-one to it, with no
///   inverse; the to-many sides, join tables and `Z_FOK_` orders are not read.
///
/// The model's version hashes differ from the store's, so the store is opened with
/// `StoreOption/ignoresVersionHashes` (and, to leave it as it is, `StoreOption/readOnly`).
public struct SQLiteModelInference: Sendable {
    /// The model.
    public let model: ManagedObjectModel
    /// Columns that were left out, as `TABLE.COLUMN (declared type)`.
    public let skippedColumns: [String]
    /// What reading the store with ``model`` loses or changes, one line each (join tables of
    /// to-many relationships, ordering columns, tables several entities share, skipped columns,
    /// names and types guessed): what a command that copies the store must not drop silently.
    public let losses: [String]

    /// Reads the tables of the store at `url`, changing nothing in its files.
    ///
    /// - Throws: `StoreError/corruptStore(file:offset:reason:)` for a file that is not a Core
    ///   Data SQLite store or whose tables describe no entity.
    public init(storeAt url: URL) throws {
        let path = url.path
        do {
            let connection = try SQLiteConnection(path: path, mode: SQLiteStore.readingMode(path: path))
            let tables = Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) ?? "" })
            guard tables.contains("Z_PRIMARYKEY"), tables.contains("Z_METADATA") else {
                throw StoreError.corruptStore(file: path, offset: nil, reason: "not a Core Data SQLite store (no Z_PRIMARYKEY or Z_METADATA table)")
            }
            let rows = try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
                (code: $0.int64(0), name: $0.text(1) ?? "", parent: $0.int64(2))
            }
            (model, skippedColumns) = try Self.infer(rows: rows, tables: tables, connection: connection, file: path)
            losses = try Self.losses(model: model, skippedColumns: skippedColumns, tables: tables, connection: connection)
        } catch let error as SQLiteError {
            throw SQLiteStore.storeError(error)
        } catch let error as ModelError {
            throw StoreError.corruptStore(file: path, offset: nil, reason: "its tables describe no valid model: \(error)")
        }
    }

    private static func infer(rows: [(code: Int64, name: String, parent: Int64)], tables: Set<String>,
                              connection: SQLiteConnection, file: String) throws -> (ManagedObjectModel, [String]) {
        let names = Dictionary(rows.map { ($0.code, $0.name) }) { first, _ in first }
        let parents = Dictionary(rows.map { ($0.name, $0.parent) }) { first, _ in first }
        /// The root of `name`'s tree, or nil for a chain that loops or leaves the table.
        func root(of name: String) -> String? {
            var current = name
            for _ in 0...rows.count {
                guard let parent = parents[current] else { return nil }
                if parent == 0 { return current }
                guard let next = names[parent] else { return nil }
                current = next
            }
            return nil
        }
        let entities = rows.filter { row in
            guard isPropertyName(row.name), let root = root(of: row.name) else { return false }
            return tables.contains("Z" + root.uppercased())
        }
        guard !entities.isEmpty else {
            throw StoreError.corruptStore(file: file, offset: nil, reason: "Z_PRIMARYKEY names no entity with a table")
        }
        let byUppercasedName = Dictionary(entities.map { ($0.name.uppercased(), $0.name) }) { first, _ in first }
        var skipped: [String] = []
        var descriptions: [EntityDescription] = []
        for entity in entities {
            let parent = entity.parent == 0 ? nil : names[entity.parent]
            var properties: [PropertyDescription] = []
            if parent == nil {
                let table = "Z" + entity.name.uppercased()
                // PRAGMA takes no bound parameters; the table name is one sqlite_master listed.
                let columns = try connection.rows("PRAGMA table_info(\"\(table)\")") { ($0.text(1) ?? "", ($0.text(2) ?? "").uppercased()) }
                for (column, declared) in columns where !["Z_PK", "Z_ENT", "Z_OPT"].contains(column) {
                    let name = String(column.dropFirst()).lowercased()
                    guard column.hasPrefix("Z"), !column.hasPrefix("Z_"), isPropertyName(name) else {
                        skipped.append("\(table).\(column) (\(declared))")
                        continue
                    }
                    if declared.hasPrefix("INTEGER"), let destination = byUppercasedName[name.uppercased()] {
                        properties.append(.relationship(RelationshipDescription(name: name, destination: destination, maxCount: 1)))
                    } else if let type = attributeType(declared: declared) {
                        properties.append(.attribute(AttributeDescription(name: name, type: type)))
                    } else {
                        skipped.append("\(table).\(column) (\(declared))")
                    }
                }
            }
            descriptions.append(EntityDescription(entity.name, parent: parent) { properties })
        }
        return (try ManagedObjectModel(entities: descriptions), skipped)
    }

    /// The attribute type Core Data declares a column with `declared` for.
    private static func attributeType(declared: String) -> AttributeType? {
        if declared.hasPrefix("INTEGER") { return .integer64 }
        if declared.hasPrefix("FLOAT") || declared.hasPrefix("REAL") || declared.hasPrefix("DOUBLE") { return .double }
        if declared.hasPrefix("TIMESTAMP") { return .date }
        if declared.hasPrefix("VARCHAR") || declared.hasPrefix("TEXT") { return .string }
        if declared.hasPrefix("DECIMAL") { return .decimal }
        if declared.hasPrefix("BLOB") { return .binaryData }
        return nil
    }

    /// Whether `name` can name an entity or property: a letter, then letters, digits and `_`.
    private static func isPropertyName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
    }
}
