import Foundation
@_spi(StoreImplementation) import StrataCore

/// An inferred migration of an SQLite store file run as SQL inside one transaction, as Core Data
/// runs a lightweight migration in situ: no object is loaded.
///
/// Each table of the new model is kept and widened with `ALTER TABLE … ADD COLUMN` when its
/// existing columns are the first columns of the new table, hold the same values and its rows
/// keep their entity codes; else it is rebuilt: the old table is renamed aside, the new one is
/// created as a fresh store creates it and filled by one `INSERT … SELECT` (renamed columns, new
/// entity codes, converted values, defaults), and the old one dropped. Join tables likewise. Then
/// the indexes, `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE` are made what a store created by
/// the new model holds; primary keys are kept, so object URIs stay valid.
struct SQLiteInPlaceMigration {
    let connection: SQLiteConnection
    let mapping: InferredMapping
    let file: String
    /// The schema of the source model with the store's entity codes.
    let old: SQLiteSchema
    /// The schema a store created by the destination model has.
    let new: SQLiteSchema

    /// A migration of the store open on `connection`.
    init(connection: SQLiteConnection, mapping: InferredMapping, file: String) throws {
        self.connection = connection
        self.mapping = mapping
        self.file = file
        let stored = try connection.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") { ($0.int64(0), $0.text(1) ?? "") }
        self.old = SQLiteSchema(model: mapping.source, storedCodes: Dictionary(stored.map { ($1, $0) }) { first, _ in first })
        self.new = SQLiteSchema(model: mapping.destination)
    }

    /// The suffix of an old table's name while it is set aside.
    static let asideSuffix = "_STRATA_MIGRATING"

    /// Runs the migration; the caller holds the transaction.
    func run(progress: (Double) -> Void) throws {
        if let name = SQLiteSchema.unusableName(in: mapping.destination) {
            throw StoreError.unusableName(file: file, name: name)
        }
        let existingTables = Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) ?? "" })
        let oldTableNames = Set(old.tables.values.map(\.name)).union(old.joinTables.map(\.name)).intersection(existingTables)
        let plans = new.tables.values.sorted { $0.name < $1.name }.map { plan(for: $0, existingTables: existingTables) }
        let keptTables = Set(plans.filter(\.isKept).map(\.table.name))
        let joinPlans = new.joinTables.map { plan(for: $0, existingTables: existingTables, keptTables: keptTables) }
        // Old tables that are not kept as they are go aside (with their triggers gone: they name them).
        let kept = keptTables.union(joinPlans.filter(\.isKept).map(\.name))
        let aside = oldTableNames.subtracting(kept).sorted()
        for table in aside {
            for trigger in try connection.rows("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", [.text(table)], { $0.text(0) ?? "" }) {
                try connection.execute("DROP TRIGGER \(trigger)")
            }
            try connection.execute("ALTER TABLE \(table) RENAME TO \(table)\(Self.asideSuffix)")
        }
        let creates = new.createStatements
        let steps = Double(plans.count + joinPlans.count + 1)
        var done = 0.0
        for plan in plans {
            try apply(plan, creates: creates)
            done += 1
            progress(done / steps)
        }
        for plan in joinPlans {
            try apply(plan, creates: creates)
            done += 1
            progress(done / steps)
        }
        for table in aside { try connection.execute("DROP TABLE \(table)\(Self.asideSuffix)") }
        try rebuildIndexes(creates: creates, tables: Set(new.tables.values.map(\.name)).union(new.joinTables.map(\.name)).union(oldTableNames))
        // Destination entity columns hold entity codes, which a rebuilt or widened table may lack.
        if plans.contains(where: { !$0.table.entityColumns.isEmpty }) {
            try SQLiteEntityColumnWriter(connection: connection, schema: new).updateAll()
        }
        try writePrimaryKeys()
        try writeMetadata()
        progress(1)
    }

    // MARK: - Entity tables

    /// How one table of the new model is made.
    struct TablePlan {
        var table: SQLiteSchema.Table
        /// The old table its rows come from, and the entity codes (old → new) of those rows.
        var source: SQLiteSchema.Table?
        var codes: [Int64: Int64]
        /// Per new column: the SQL that computes it from the old row, and its bound values.
        var expressions: [String: (sql: String, values: [SQLiteValue])]
        /// Kept and widened by `ALTER TABLE … ADD COLUMN` (the new columns after the old ones).
        var isKept: Bool
        /// Old columns of a kept table whose rows need values written (defaults).
        var keptUpdates: [(column: String, sql: String, values: [SQLiteValue])]

        /// Whether rows change entity code.
        var changesCodes: Bool { codes.contains { $0.key != $0.value } }
    }

    /// Every column of a table in creation order, entity columns included.
    static func allColumns(_ table: SQLiteSchema.Table) -> [(name: String, type: String)] {
        let entityColumnAfter = Dictionary(table.entityColumns.compactMap { name, column in table.toOneColumns[name].map { ($0, column.name) } }) { first, _ in first }
        return [("Z_PK", "INTEGER PRIMARY KEY"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER")] + table.columns.flatMap { column in
            [(column.name, column.type)] + (entityColumnAfter[column.name].map { [($0, "INTEGER")] } ?? [])
        }
    }

    func plan(for table: SQLiteSchema.Table, existingTables: Set<String>) -> TablePlan {
        let entities = mapping.destination.entityAndDescendants(of: table.rootEntity)
        var codes: [Int64: Int64] = [:]
        var source: SQLiteSchema.Table?
        for entity in entities {
            guard let sourceName = mapping.entitySources[entity], let oldCode = old.codes[sourceName],
                  let newCode = new.codes[entity], let oldTable = old.table(for: sourceName) else { continue }
            codes[oldCode] = newCode
            source = oldTable
        }
        if let name = source?.name, !existingTables.contains(name) { source = nil }
        var expressions: [String: (sql: String, values: [SQLiteValue])] = [:]
        let codeCase = codes.contains { $0.key != $0.value }
            ? "CASE Z_ENT " + codes.sorted { $0.key < $1.key }.map { "WHEN \($0.key) THEN \($0.value)" }.joined(separator: " ") + " END"
            : "Z_ENT"
        expressions["Z_PK"] = ("Z_PK", [])
        expressions["Z_ENT"] = (codeCase, [])
        expressions["Z_OPT"] = ("Z_OPT", [])
        for (name, column) in table.attributeColumns {
            expressions[column] = attributeExpression(name, in: entities, source: source)
        }
        for (name, column) in table.toOneColumns {
            expressions[column] = relationshipExpression(name, in: entities, source: source, orderColumn: false)
            if let order = table.orderColumns[name] {
                expressions[order] = relationshipExpression(name, in: entities, source: source, orderColumn: true)
            }
        }
        var plan = TablePlan(table: table, source: source, codes: codes, expressions: expressions, isKept: false, keptUpdates: [])
        // Kept when the old table has this name, rows keep their codes and every row is kept,
        // and its columns are the first of the new table, each holding its own values.
        if let source, source.name == table.name, !plan.changesCodes,
           Set(old.codes.filter { old.table(for: $0.key)?.name == source.name }.values).isSubset(of: Set(codes.keys)),
           let existing: [(String, String)] = try? connection.rows("PRAGMA table_info(\(table.name))", [], { ($0.text(1) ?? "", $0.text(2) ?? "") }) {
            let wanted = Self.allColumns(table)
            let prefix = existing.count <= wanted.count && zip(existing, wanted).allSatisfy { (have: (String, String), want: (name: String, type: String)) -> Bool in
                have.0 == want.name && (have.1 == want.type || want.name == "Z_PK")
            }
            let identities = existing.allSatisfy { (column: (String, String)) -> Bool in
                guard let expression = expressions[column.0] else { return table.entityColumns.values.contains { $0.name == column.0 } }
                return expression.sql == column.0 || expression.sql.hasPrefix("COALESCE(\(column.0),")
            }
            if prefix, identities {
                plan.isKept = true
                plan.keptUpdates = existing.compactMap { (column: (String, String)) -> (column: String, sql: String, values: [SQLiteValue])? in
                    guard let expression = expressions[column.0], expression.sql != column.0 else { return nil }
                    return (column.0, expression.sql, expression.values)
                }
            }
        }
        return plan
    }

    /// The SQL of an attribute column: the source column (per entity when siblings differ), or
    /// the default value, with the default in place of NULL for an attribute made required.
    func attributeExpression(_ name: String, in entities: [String], source: SQLiteSchema.Table?) -> (sql: String, values: [SQLiteValue]) {
        var perEntity: [(codes: [Int64], sql: String, values: [SQLiteValue])] = []
        for entity in entities {
            guard let description = mapping.destination.entity(named: entity), let attribute = description.attribute(named: name),
                  !attribute.isTransient else { continue }
            let oldCode = mapping.entitySources[entity].flatMap { old.codes[$0] }
            let sourceName = mapping.propertySources[entity]?[name]
            let defaultValue = SQLiteValueCoding.encode(attribute.defaultValue)
            var expression: (String, [SQLiteValue])
            if let sourceName, let source, let column = source.attributeColumns[sourceName] {
                expression = !attribute.isOptional && attribute.defaultValue != nil
                    ? ("COALESCE(\(column), ?)", [defaultValue]) : (column, [])
            } else {
                expression = defaultValue == .null ? ("NULL", []) : ("?", [defaultValue])
            }
            perEntity.append((oldCode.map { [$0] } ?? [], expression.0, expression.1))
        }
        return merged(perEntity)
    }

    /// The SQL of a to-one column (or its order column): the source to-one's column, or NULL.
    func relationshipExpression(_ name: String, in entities: [String], source: SQLiteSchema.Table?,
                                orderColumn: Bool) -> (sql: String, values: [SQLiteValue]) {
        var perEntity: [(codes: [Int64], sql: String, values: [SQLiteValue])] = []
        for entity in entities {
            guard let relationship = mapping.destination.entity(named: entity)?.relationship(named: name), !relationship.isTransient else { continue }
            let oldCode = mapping.entitySources[entity].flatMap { old.codes[$0] }
            var sql = "NULL"
            if let sourceName = mapping.propertySources[entity]?[name], let source {
                let column = orderColumn ? source.orderColumns[sourceName] : source.toOneColumns[sourceName]
                if let column { sql = column }
            }
            perEntity.append((oldCode.map { [$0] } ?? [], sql, []))
        }
        return merged(perEntity)
    }

    /// One expression when every entity computes the column alike, else a `CASE Z_ENT`.
    func merged(_ perEntity: [(codes: [Int64], sql: String, values: [SQLiteValue])]) -> (sql: String, values: [SQLiteValue]) {
        guard let first = perEntity.first else { return ("NULL", []) }
        if perEntity.allSatisfy({ $0.sql == first.sql && $0.values == first.values }) { return (first.sql, first.values) }
        var sql = "CASE Z_ENT"
        var values: [SQLiteValue] = []
        for each in perEntity where !each.codes.isEmpty {
            sql += " WHEN \(each.codes[0]) THEN \(each.sql)"
            values += each.values
        }
        return (sql + " ELSE NULL END", values)
    }

    /// Creates (or widens) one entity table and fills it.
    func apply(_ plan: TablePlan, creates: [String]) throws {
        let table = plan.table
        if plan.isKept {
            let existing = Set(try connection.rows("PRAGMA table_info(\(table.name))") { $0.text(1) ?? "" })
            var updates = plan.keptUpdates.map { ($0.column, $0.sql, $0.values) }
            for column in Self.allColumns(table) where !existing.contains(column.name) {
                try connection.execute("ALTER TABLE \(table.name) ADD COLUMN \(column.name) \(column.type)")
                if let expression = plan.expressions[column.name], expression.sql != "NULL" {
                    updates.append((column.name, expression.sql, expression.values))
                }
            }
            if !updates.isEmpty {
                try connection.run("UPDATE \(table.name) SET " + updates.map { "\($0.0) = \($0.1)" }.joined(separator: ", "),
                                   updates.flatMap(\.2))
            }
            return
        }
        guard let create = creates.first(where: { $0.hasPrefix("CREATE TABLE \(table.name) (") }) else { return }
        try connection.execute(create)
        guard let source = plan.source else { return }
        let columns = Self.allColumns(table).map(\.name).filter { plan.expressions[$0] != nil }
        let expressions = columns.compactMap { plan.expressions[$0] }
        let codes = plan.codes.keys.sorted().map(String.init).joined(separator: ", ")
        try connection.run("INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) SELECT "
                           + expressions.map(\.sql).joined(separator: ", ")
                           + " FROM \(source.name)\(Self.asideSuffix) WHERE Z_ENT IN (\(codes))",
                           expressions.flatMap(\.values))
    }

    // MARK: - Join tables

    /// How one join table of the new model is made.
    struct JoinPlan {
        var join: SQLiteSchema.JoinTable
        var name: String { join.name }
        /// Kept as it is.
        var isKept: Bool
        /// The `SELECT` that fills it (source, destination, orders) from old tables; nil: empty.
        var select: String?
    }

    func plan(for join: SQLiteSchema.JoinTable, existingTables: Set<String>, keptTables: Set<String>) -> JoinPlan {
        /// The name an old table is read under once the tables not kept are set aside.
        func readable(_ name: String) -> String { keptTables.contains(name) ? name : name + Self.asideSuffix }
        var plan = JoinPlan(join: join, isKept: false, select: nil)
        guard let sourceEntity = mapping.entitySources[join.entity],
              let sourceRelationship = mapping.propertySources[join.entity]?[join.relationship],
              let relationship = mapping.source.entity(named: sourceEntity)?.relationship(named: sourceRelationship) else { return plan }
        /// Rows (owner, target) with the order of targets within an owner and of owners within
        /// a target, as the new join table's columns want them.
        func select(owner: String, target: String, ownerRank: String, targetRank: String, from table: String, condition: String = "") -> String {
            var columns = ["owner", "target"]
            if join.orderColumn != nil { columns.append("ROW_NUMBER() OVER (PARTITION BY owner ORDER BY ownerRank, target)") }
            if join.inverseOrderColumn != nil { columns.append("ROW_NUMBER() OVER (PARTITION BY target ORDER BY targetRank, owner)") }
            return "SELECT \(columns.joined(separator: ", ")) FROM (SELECT \(owner) AS owner, \(target) AS target, "
                + "\(ownerRank) AS ownerRank, \(targetRank) AS targetRank FROM \(table)\(condition))"
        }
        switch old.toMany[sourceEntity]?[sourceRelationship] {
        case .joinTable(let index, let reversed)?:
            let oldJoin = old.joinTables[index]
            guard existingTables.contains(oldJoin.name) else { return plan }
            if oldJoin.name == join.name, !reversed, oldJoin.sourceColumn == join.sourceColumn,
               oldJoin.destinationColumn == join.destinationColumn, oldJoin.orderColumn == join.orderColumn,
               oldJoin.inverseOrderColumn == join.inverseOrderColumn {
                plan.isKept = true
                return plan
            }
            let owner = reversed ? oldJoin.destinationColumn : oldJoin.sourceColumn
            let target = reversed ? oldJoin.sourceColumn : oldJoin.destinationColumn
            let ownerRank = (reversed ? oldJoin.inverseOrderColumn : oldJoin.orderColumn) ?? "0"
            let targetRank = (reversed ? oldJoin.orderColumn : oldJoin.inverseOrderColumn) ?? "0"
            plan.select = select(owner: owner, target: target, ownerRank: ownerRank, targetRank: targetRank, from: readable(oldJoin.name))
        case .inverseForeignKey(let table, let column, let orderColumn, _)?:
            guard existingTables.contains(table) else { return plan }
            plan.select = select(owner: column, target: "Z_PK", ownerRank: orderColumn ?? "0", targetRank: "0", from: readable(table),
                                 condition: " WHERE \(column) IS NOT NULL")
        case nil where !relationship.isToMany:
            guard let table = old.table(for: sourceEntity), let column = table.toOneColumns[sourceRelationship],
                  existingTables.contains(table.name) else { return plan }
            plan.select = select(owner: "Z_PK", target: column, ownerRank: "0", targetRank: table.orderColumns[sourceRelationship] ?? "0",
                                 from: readable(table.name),
                                 condition: " WHERE \(column) IS NOT NULL")
        case nil:
            break
        }
        return plan
    }

    func apply(_ plan: JoinPlan, creates: [String]) throws {
        guard !plan.isKept else { return }
        let join = plan.join
        if let create = creates.first(where: { $0.hasPrefix("CREATE TABLE \(join.name) (") }) { try connection.execute(create) }
        guard let select = plan.select else { return }
        var columns = [join.sourceColumn, join.destinationColumn]
        if let order = join.orderColumn { columns.append(order) }
        if let order = join.inverseOrderColumn { columns.append(order) }
        try connection.execute("INSERT OR IGNORE INTO \(join.name) (\(columns.joined(separator: ", "))) \(select)")
    }

    // MARK: - Indexes, keys, metadata

    /// Drops the indexes of the model's tables a fresh store would not have, and creates those it
    /// would that are missing.
    func rebuildIndexes(creates: [String], tables: Set<String>) throws {
        let existing = try connection.rows("SELECT name, sql, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
            ($0.text(0) ?? "", $0.text(1) ?? "", $0.text(2) ?? "")
        }
        let wanted = creates.filter { $0.hasPrefix("CREATE INDEX") || $0.hasPrefix("CREATE UNIQUE INDEX") }
        let wantedSet = Set(wanted)
        for (name, sql, table) in existing where tables.contains(table) && !wantedSet.contains(sql) {
            try connection.execute("DROP INDEX \(name)")
        }
        let have = Set(existing.map(\.1))
        for statement in wanted where !have.contains(statement) { try connection.execute(statement) }
    }

    /// `Z_PRIMARYKEY` as a fresh store of the new model has it, with each root's `Z_MAX` at least
    /// the old one and the largest key its table holds.
    func writePrimaryKeys() throws {
        let oldMax = Dictionary(try connection.rows("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY") { ($0.int64(0), $0.int64(1)) }) { first, _ in first }
        try connection.execute("DELETE FROM Z_PRIMARYKEY")
        for (name, code) in new.codes.sorted(by: { $0.value < $1.value }) {
            let entity = mapping.destination.entity(named: name)
            let parent = entity?.superentityName.flatMap { new.codes[$0] } ?? 0
            var max: Int64 = 0
            if let entity, entity.superentityName == nil, let table = new.tables[name] {
                let tree = mapping.destination.entityAndDescendants(of: name)
                let previous = tree.compactMap { mapping.entitySources[$0].flatMap { old.codes[$0] }.flatMap { oldMax[$0] } }.max() ?? 0
                let highest: Int64
                if case .integer(let value)? = try connection.scalar("SELECT MAX(Z_PK) FROM \(table.name)") { highest = value } else { highest = 0 }
                max = Swift.max(previous, highest)
            }
            try connection.run("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                               [.integer(code), .text(name), .integer(parent), .integer(max)])
        }
    }

    /// The metadata with the new model's version hashes, and the new model's compiled model.
    func writeMetadata() throws {
        let (identifier, metadata) = try SQLiteStore.storedMetadata(connection, file: file)
        var image = StoreImage(identifier: identifier, metadata: metadata)
        image.stampMetadata(type: .sqlite, model: mapping.destination)
        try connection.run("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1", [.blob(try MetadataPropertyList.encode(image.metadata))])
        if let compiled = try CompiledModelCoder.encoded(mapping.destination) {
            try SQLiteStore.writeModelCache(compiled, on: connection)
        } else {
            try connection.execute("DROP TABLE IF EXISTS Z_MODELCACHE")
        }
    }
}
