import Foundation
@_spi(StoreImplementation) import StrataCore

extension SQLiteStore: IntegrityCheckingStore {
    /// Every to-one column and join-table row naming a row its destination table does not hold
    /// (written by another program: Core Data declares no foreign keys), by table, column and
    /// key. Reading such an object keeps going: the to-one reads as nil, the to-many leaves the
    /// member out.
    public func danglingReferences() throws -> [DanglingReference] {
        try withConnection { state in
            try SQLiteIntegrityCheck(schema: schema, connection: state.connection, storeIdentifier: state.identifier,
                                     file: url?.path ?? "").danglingReferences()
        }
    }

    /// SQLite's own `PRAGMA integrity_check` and `foreign_key_check`, the key bookkeeping
    /// (`Z_PRIMARYKEY.Z_MAX` not below any key in use, every `Z_ENT` an entity's code), the
    /// dangling references and the broken inverses of the objects held.
    public func integrityProblems() throws -> [IntegrityProblem] {
        let file = url?.path ?? ""
        var problems = try withConnection { state in
            let check = SQLiteIntegrityCheck(schema: schema, connection: state.connection, storeIdentifier: state.identifier, file: file)
            var problems = try check.fileProblems()
            // A file SQLite finds damaged is not read any further: what it would read is not trustworthy.
            guard problems.isEmpty else { return problems }
            problems += try check.bookkeepingProblems()
            problems += try check.danglingReferences().map { IntegrityProblem.dangling($0, file: file) }
            return problems
        }
        guard !problems.contains(where: { if case .damagedFile = $0.kind { true } else { false } }) else { return problems }
        do {
            problems += ObjectGraphCheck(model: model, file: file).brokenInverses(in: try contentsImage().objects)
        } catch let error as StoreError {
            let reason = if case let .corruptStore(_, _, reason) = error { reason } else { "\(error)" }
            problems.append(IntegrityProblem(file: file, kind: .damagedFile("reading the objects failed: \(reason)")))
        }
        return problems
    }
}

/// The checks of ``SQLiteStore``'s ``IntegrityCheckingStore`` conformance, run on its
/// connection.
struct SQLiteIntegrityCheck {
    let schema: SQLiteSchema
    let connection: SQLiteConnection
    let storeIdentifier: String
    let file: String

    /// The problems SQLite itself finds: damaged pages, indexes and (were there any) foreign keys.
    func fileProblems() throws -> [IntegrityProblem] {
        var problems: [IntegrityProblem] = []
        do {
            let lines = try connection.rows("PRAGMA integrity_check(100)") { $0.text(0) ?? "" }
            for line in lines where line != "ok" {
                problems.append(IntegrityProblem(file: file, kind: .damagedFile("SQLite integrity check: \(line)")))
            }
            guard problems.isEmpty else { return problems }
            let foreign = try connection.rows("PRAGMA foreign_key_check") { ($0.text(0) ?? "", $0.int64(1), $0.text(2) ?? "") }
            for (table, rowid, parent) in foreign {
                problems.append(IntegrityProblem(file: file, kind: .damagedFile("foreign key check: row \(rowid) of \(table) names a missing row of \(parent)")))
            }
        } catch let error as SQLiteError {
            problems.append(IntegrityProblem(file: file, kind: .damagedFile("SQLite integrity check failed: \(error.message) (SQLite error \(error.code))")))
        }
        return problems
    }

    /// `Z_PRIMARYKEY.Z_MAX` of each inheritance root not below the largest key its table holds
    /// (else new objects would be given keys in use), and every row's `Z_ENT` the code of an
    /// entity stored in its table.
    func bookkeepingProblems() throws -> [IntegrityProblem] {
        var problems: [IntegrityProblem] = []
        let maxima = Dictionary(try connection.rows("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY") { ($0.int64(0), $0.int64(1)) }) { first, _ in first }
        for table in schema.tables.values.sorted(by: { $0.name < $1.name }) {
            let root = table.rootEntity
            let largest = try connection.scalar("SELECT max(Z_PK) FROM \(table.name)")
            if case .integer(let inUse)? = largest, let code = schema.codes[root] {
                if let recorded = maxima[code] {
                    if recorded < inUse {
                        problems.append(IntegrityProblem(file: file, entityName: root, kind: .inconsistentBookkeeping(
                            "Z_PRIMARYKEY.Z_MAX is \(recorded), below the largest key in use in \(table.name), \(inUse) (new objects would be given keys in use)")))
                    }
                } else {
                    problems.append(IntegrityProblem(file: file, entityName: root, kind: .inconsistentBookkeeping(
                        "Z_PRIMARYKEY has no row for entity code \(code)")))
                }
            }
            let known = Set(treeNames(root).compactMap { schema.codes[$0] })
            let codes = try connection.rows("SELECT Z_ENT, count(*), min(Z_PK) FROM \(table.name) GROUP BY Z_ENT ORDER BY Z_ENT") {
                ($0.int64(0), $0.int64(1), $0.int64(2))
            }
            for (code, count, first) in codes where !known.contains(code) {
                problems.append(IntegrityProblem(file: file, entityName: root, kind: .inconsistentBookkeeping(
                    "\(count) row\(count == 1 ? "" : "s") of \(table.name) (the first Z_PK \(first)) have Z_ENT \(code), the code of no entity stored in that table")))
            }
        }
        return problems
    }

    /// `root` and every entity below it.
    private func treeNames(_ root: String) -> [String] {
        var names = [root]
        var index = 0
        while index < names.count {
            names += (schema.model.entity(named: names[index])?.subentityNames ?? []).sorted()
            index += 1
        }
        return names
    }

    /// The entity of a row of `table` by its `Z_ENT`, or the table's root when the code is unknown.
    private func entityName(code: Int64, table: SQLiteSchema.Table) -> String {
        schema.namesByCode[code] ?? table.rootEntity
    }

    private func id(_ entity: String, _ key: Int64) -> ManagedObjectID {
        ManagedObjectID(entityName: entity, storeIdentifier: storeIdentifier, primaryKey: key)
    }

    /// Every to-one column and join-table row that names a row the destination table lacks.
    func danglingReferences() throws -> [DanglingReference] {
        var found: [DanglingReference] = []
        for table in schema.tables.values.sorted(by: { $0.name < $1.name }) {
            for (name, column) in table.toOneColumns.sorted(by: { $0.key < $1.key }) {
                guard let relationship = owningRelationship(name, in: table),
                      let destination = schema.model.entity(named: relationship.destinationEntityName),
                      let destinationTable = schema.tables[destination.rootEntityName] else { continue }
                let sql = """
                    SELECT s.Z_PK, s.Z_ENT, s.\(column) FROM \(table.name) s WHERE s.\(column) IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM \(destinationTable.name) d WHERE d.Z_PK = s.\(column)) ORDER BY s.Z_PK
                    """
                for (key, code, missing) in try connection.rows(sql, [], { ($0.int64(0), $0.int64(1), $0.int64(2)) }) {
                    let source = entityName(code: code, table: table)
                    guard schema.model.entity(named: source)?.relationship(named: name) != nil else { continue }
                    found.append(DanglingReference(source: id(source, key), relationship: name,
                                                   destinationEntityName: destination.name, destinationPrimaryKey: missing))
                }
            }
        }
        for join in schema.joinTables {
            guard let owner = schema.model.entity(named: join.entity), let relationship = owner.relationship(named: join.relationship),
                  let destination = schema.model.entity(named: relationship.destinationEntityName),
                  let sourceTable = schema.tables[owner.rootEntityName], let destinationTable = schema.tables[destination.rootEntityName]
            else { continue }
            found += try joinRows(join.name, from: join.sourceColumn, in: sourceTable, to: join.destinationColumn, missingIn: destinationTable,
                                  relationship: relationship.name, ownerEntity: owner.name, destinationEntity: destination.name)
            if let inverse = join.inverse {
                found += try joinRows(join.name, from: join.destinationColumn, in: destinationTable, to: join.sourceColumn, missingIn: sourceTable,
                                      relationship: inverse, ownerEntity: destination.name, destinationEntity: owner.name)
            }
        }
        return found
    }

    /// The relationship `name` of an entity stored in `table` (the first one declaring it).
    private func owningRelationship(_ name: String, in table: SQLiteSchema.Table) -> RelationshipDescription? {
        for entity in treeNames(table.rootEntity) {
            if let relationship = schema.model.entity(named: entity)?.relationship(named: name), !relationship.isToMany {
                return relationship
            }
        }
        return nil
    }

    /// The rows of join table `join` whose `column` names a row of `sourceTable` that holds it,
    /// and whose `otherColumn` names no row of `destinationTable`.
    private func joinRows(_ join: String, from column: String, in sourceTable: SQLiteSchema.Table, to otherColumn: String,
                          missingIn destinationTable: SQLiteSchema.Table, relationship: String,
                          ownerEntity: String, destinationEntity: String) throws -> [DanglingReference] {
        let sql = """
            SELECT s.Z_PK, s.Z_ENT, j.\(otherColumn) FROM \(join) j JOIN \(sourceTable.name) s ON s.Z_PK = j.\(column)
            WHERE NOT EXISTS (SELECT 1 FROM \(destinationTable.name) d WHERE d.Z_PK = j.\(otherColumn)) ORDER BY s.Z_PK, j.rowid
            """
        return try connection.rows(sql, [], { ($0.int64(0), $0.int64(1), $0.int64(2)) }).compactMap { key, code, missing in
            let source = schema.namesByCode[code] ?? ownerEntity
            guard schema.model.entity(named: source)?.relationship(named: relationship) != nil else { return nil }
            return DanglingReference(source: id(source, key), relationship: relationship,
                                     destinationEntityName: destinationEntity, destinationPrimaryKey: missing)
        }
    }
}
