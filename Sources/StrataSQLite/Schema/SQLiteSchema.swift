@_spi(StoreImplementation) import StrataCore

/// How a model maps onto SQLite tables, following Core Data's conventions (see
/// `docs/formats/sqlite.md`): one table `Z<ROOT>` per inheritance root holding its sub-entities
/// too (told apart by `Z_ENT`), a column `Z<NAME>` per attribute and to-one, join tables for
/// many-to-many and one-way to-many relationships, `Z_FOK_` columns for order.
struct SQLiteSchema: Sendable {
    /// Entity codes (`Z_ENT`): roots in name order, each followed by its descendants depth first.
    let codes: [String: Int64]
    /// Entity names by code.
    let namesByCode: [Int64: String]
    /// Tables by inheritance root name.
    private(set) var tables: [String: Table]
    /// Where each to-many relationship lives, by entity name then relationship name (sub-entities
    /// list their inherited relationships too).
    let toMany: [String: [String: ToManyStorage]]
    /// The join tables.
    let joinTables: [JoinTable]
    /// The model.
    let model: ManagedObjectModel
    /// By root: property names that more than one entity of the tree declares for itself. Such a
    /// name has a column per declaring entity, so a query cannot name one column for it.
    let sharedPropertyNames: [String: Set<String>]

    /// One inheritance root's table.
    struct Table: Sendable {
        /// `Z<ROOT>`.
        var name: String
        /// The root entity.
        var rootEntity: String
        /// Attribute columns by attribute name (every attribute of every entity in the tree).
        var attributeColumns: [String: String]
        /// Foreign-key columns by to-one relationship name.
        var toOneColumns: [String: String]
        /// Order columns (`Z_FOK_<INVERSE>`) by to-one relationship name, for ordered one-to-many.
        var orderColumns: [String: String]
        /// Destination entity columns (`Z<code>_<RELATIONSHIP>`, the code of the destination
        /// entity) by to-one relationship name, for a to-one whose destination has sub-entities:
        /// Core Data keeps the destination row's `Z_ENT` there. Not among ``columns``: a store
        /// without them still opens (nothing is written to a column that is not there).
        var entityColumns: [String: EntityColumn] = [:]
        /// Columns of derived attributes: the store computes them (Core Data with triggers), so a
        /// save never writes them over.
        var derivedColumns: Set<String> = []
        /// Every column after `Z_PK, Z_ENT, Z_OPT`, in table order, with its declared type.
        var columns: [(name: String, type: String)]
    }

    /// A destination entity column and the table of the rows its to-one points at.
    struct EntityColumn: Sendable {
        /// `Z<code>_<RELATIONSHIP>`.
        var name: String
        /// The destination's root table, whose `Z_ENT` the column copies.
        var destinationTable: String
    }

    /// A join table of a many-to-many or one-way to-many relationship.
    struct JoinTable: Sendable {
        /// `Z_<entity code><RELATIONSHIP>`.
        var name: String
        /// The column holding the keys of the objects that own ``relationship``.
        var sourceColumn: String
        /// The column holding the keys of its destinations.
        var destinationColumn: String
        /// The order of destinations within a source, when the naming relationship is ordered.
        var orderColumn: String?
        /// The order of sources within a destination, when the inverse is ordered.
        var inverseOrderColumn: String?
        /// The entity whose relationship names the table, and the relationship.
        var entity: String
        var relationship: String
        /// The inverse, for many-to-many.
        var inverse: String?
    }

    /// Where one to-many relationship's destinations are found.
    enum ToManyStorage: Sendable {
        /// A foreign key on the destination's table, the column of the inverse to-one `inverse`.
        case inverseForeignKey(table: String, column: String, orderColumn: String?, inverse: String)
        /// A join table; `reversed` when this side reads it from the destination column.
        case joinTable(index: Int, reversed: Bool)
    }

    /// Maps `model`. `storedCodes` are the codes an existing store's `Z_PRIMARYKEY` gives by
    /// entity name; they are used when they name every entity of the model (by its name, or by
    /// its renaming identifier: Core Data keeps an entity's first name there when a migration
    /// renames it), else the codes are numbered afresh.
    /// The first name of `model` that cannot be spliced into SQL as part of an identifier
    /// (entity, property and index names become table, column and index names), or nil. A
    /// model read from a file is input from outside: its names must never carry SQL.
    static func unusableName(in model: ManagedObjectModel) -> String? {
        func usable(_ name: String) -> Bool {
            guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
            return name.unicodeScalars.allSatisfy { $0 == "_" || ("0"..."9").contains($0) || $0.properties.isAlphabetic }
        }
        for entity in model.entities {
            if !usable(entity.name) { return entity.name }
            for property in entity.properties {
                // A composite's element is named by its path; each part must be usable.
                let parts = property.attribute?.composite == nil
                    ? [property.name] : property.name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                if !parts.allSatisfy(usable) { return property.name }
            }
            for index in entity.indexes where !usable(index.name) { return index.name }
        }
        return nil
    }

    init(model: ManagedObjectModel, storedCodes: [String: Int64]? = nil) {
        self.model = model
        var codes: [String: Int64] = [:]
        var next: Int64 = 1
        func number(_ name: String) {
            codes[name] = next
            next += 1
            for sub in (model.entity(named: name)?.subentityNames ?? []).sorted() { number(sub) }
        }
        let roots = model.entities.filter { $0.superentityName == nil }.map(\.name).sorted()
        for root in roots { number(root) }
        if let storedCodes, let stored = Self.codes(of: model, in: storedCodes) { codes = stored }
        self.codes = codes
        self.namesByCode = Dictionary(uniqueKeysWithValues: codes.map { ($1, $0) })

        var tables: [String: Table] = [:]
        for root in roots {
            tables[root] = Table(name: "Z" + root.uppercased(), rootEntity: root, attributeColumns: [:],
                                 toOneColumns: [:], orderColumns: [:], columns: [])
        }
        var toMany: [String: [String: ToManyStorage]] = [:]
        var joinTables: [JoinTable] = []
        var joinIndex: [String: Int] = [:]   // "Entity.relationship" → join table
        // Entities in code order, so columns come out in a stable order.
        let ordered = model.entities.sorted { (codes[$0.name] ?? 0) < (codes[$1.name] ?? 0) }
        for entity in ordered {
            let root = entity.rootEntityName
            guard var table = tables[root] else { continue }
            for property in entity.declaredProperties {
                switch property {
                case .attribute(let attribute) where !attribute.isTransient:
                    // Sibling entities that each declare an attribute of one name share its column
                    // (rows say which entity they are). When their types differ, the column is
                    // declared BLOB, whose affinity stores every value as it was bound.
                    if let shared = table.attributeColumns[attribute.name],
                       let index = table.columns.firstIndex(where: { $0.name == shared }) {
                        if table.columns[index].type != Self.declaredType(attribute.type) { table.columns[index].type = "BLOB" }
                        continue
                    }
                    let column = Self.uniqueColumn("Z" + Self.columnStem(attribute.name), in: table)
                    table.attributeColumns[attribute.name] = column
                    table.columns.append((column, Self.declaredType(attribute.type)))
                    if attribute.isDerived { table.derivedColumns.insert(column) }
                case .relationship(let relationship) where !relationship.isTransient && !relationship.isToMany:
                    let column = Self.uniqueColumn("Z" + relationship.name.uppercased(), in: table)
                    table.toOneColumns[relationship.name] = column
                    table.columns.append((column, "INTEGER"))
                    if let destination = model.entity(named: relationship.destinationEntityName), !destination.subentityNames.isEmpty,
                       let code = codes[destination.name] {
                        table.entityColumns[relationship.name] = EntityColumn(
                            name: "Z\(code)_\(relationship.name.uppercased())", destinationTable: "Z" + destination.rootEntityName.uppercased())
                    }
                    if let inverseName = relationship.inverseName,
                       let inverse = model.entity(named: relationship.destinationEntityName)?.relationship(named: inverseName),
                       inverse.isToMany, inverse.isOrdered {
                        let order = Self.uniqueColumn("Z_FOK_" + relationship.name.uppercased(), in: table)
                        table.orderColumns[relationship.name] = order
                        table.columns.append((order, "INTEGER"))
                    }
                default:
                    break
                }
            }
            tables[root] = table
        }
        for entity in ordered {
            for relationship in entity.relationships where relationship.isToMany && !relationship.isTransient {
                let inverse = relationship.inverseName.flatMap {
                    model.entity(named: relationship.destinationEntityName)?.relationship(named: $0)
                }
                if let inverse, !inverse.isToMany,
                   let destination = model.entity(named: relationship.destinationEntityName),
                   let table = tables[destination.rootEntityName], let column = table.toOneColumns[inverse.name] {
                    toMany[entity.name, default: [:]][relationship.name] =
                        .inverseForeignKey(table: table.name, column: column, orderColumn: table.orderColumns[inverse.name],
                                           inverse: inverse.name)
                    continue
                }
                // Join table: shared by both sides of a many-to-many, named after one of them.
                let owner = Self.declaringEntity(of: relationship.name, from: entity, model: model)
                if let index = joinIndex["\(owner).\(relationship.name)"] {
                    let join = joinTables[index]
                    toMany[entity.name, default: [:]][relationship.name] =
                        .joinTable(index: index, reversed: !(join.entity == owner && join.relationship == relationship.name))
                    continue
                }
                let destinationEntity = model.entity(named: relationship.destinationEntityName)
                let inverseOwner = inverse.flatMap { inverse in destinationEntity.map { Self.declaringEntity(of: inverse.name, from: $0, model: model) } }
                // Core Data names a many-to-many table after the side whose entity comes first,
                // and for a relationship to its own entity after the name that sorts last.
                var swapped = false
                if let inverse, let inverseOwner {
                    let ownCode = codes[owner] ?? 0, otherCode = codes[inverseOwner] ?? 0
                    swapped = otherCode < ownCode || (otherCode == ownCode && inverse.name > relationship.name)
                }
                let namingEntity = swapped ? inverseOwner ?? owner : owner
                let namingRelationship = swapped ? inverse ?? relationship : relationship
                let otherRelationship = swapped ? relationship : inverse
                let namingCode = codes[namingEntity] ?? 0
                let destinationCode = codes[namingRelationship.destinationEntityName] ?? 0
                let sourceColumn = otherRelationship.map { "Z_\(namingCode)\($0.name.uppercased())" }
                    ?? "Z_\(namingCode)\(namingEntity.uppercased())"
                var destinationColumn = "Z_\(destinationCode)\(namingRelationship.name.uppercased())"
                if destinationColumn == sourceColumn { destinationColumn += "1" }
                let join = JoinTable(
                    name: "Z_\(namingCode)\(namingRelationship.name.uppercased())",
                    sourceColumn: sourceColumn, destinationColumn: destinationColumn,
                    orderColumn: namingRelationship.isOrdered ? "Z_FOK_" + destinationColumn.dropFirst(2) : nil,
                    inverseOrderColumn: (otherRelationship?.isOrdered ?? false) ? "Z_FOK_" + sourceColumn.dropFirst(2) : nil,
                    entity: namingEntity, relationship: namingRelationship.name, inverse: otherRelationship?.name)
                joinTables.append(join)
                let index = joinTables.count - 1
                joinIndex["\(namingEntity).\(namingRelationship.name)"] = index
                if let otherRelationship {
                    joinIndex["\((swapped ? owner : inverseOwner) ?? owner).\(otherRelationship.name)"] = index
                }
                toMany[entity.name, default: [:]][relationship.name] = .joinTable(index: index, reversed: swapped)
            }
        }
        self.tables = tables
        self.toMany = toMany
        self.joinTables = joinTables
        var declarations: [String: [String: Int]] = [:]
        for entity in model.entities {
            for property in entity.declaredProperties { declarations[entity.rootEntityName, default: [:]][property.name, default: 0] += 1 }
        }
        self.sharedPropertyNames = declarations.mapValues { Set($0.filter { $0.value > 1 }.keys) }
    }

    /// Every entity's code from `storedCodes`, or nil when one is missing or two share a code.
    private static func codes(of model: ManagedObjectModel, in storedCodes: [String: Int64]) -> [String: Int64]? {
        var codes: [String: Int64] = [:]
        for entity in model.entities {
            guard let code = storedCodes[entity.name] ?? entity.renamingIdentifier.flatMap({ storedCodes[$0] }) else { return nil }
            codes[entity.name] = code
        }
        return Set(codes.values).count == codes.count ? codes : nil
    }

    /// The schema without the entity columns in `absent` (by table name, the column names an
    /// existing store lacks).
    func withoutEntityColumns(_ absent: [String: Set<String>]) -> SQLiteSchema {
        var copy = self
        for (root, table) in tables {
            guard let missing = absent[table.name], !missing.isEmpty else { continue }
            copy.tables[root]?.entityColumns = table.entityColumns.filter { !missing.contains($0.value.name) }
        }
        return copy
    }

    /// The entity that declares `relationship` (the entity itself or an ancestor).
    private static func declaringEntity(of relationship: String, from entity: EntityDescription, model: ManagedObjectModel) -> String {
        var current: EntityDescription? = entity
        var declaring = entity.name
        while let candidate = current {
            if candidate.declaredProperties.contains(where: { $0.name == relationship }) { declaring = candidate.name }
            current = candidate.superentityName.flatMap { model.entity(named: $0) }
        }
        return declaring
    }

    /// The column name of an attribute without its `Z`: the name in upper case, and for a
    /// composite's element (`magnitude.richter`) the path with `_` between its parts
    /// (`MAGNITUDE_RICHTER`).
    static func columnStem(_ name: String) -> String {
        name.uppercased().replacingOccurrences(of: ".", with: "_")
    }

    /// `name`, or `name` with a number when a sibling entity already took it.
    private static func uniqueColumn(_ name: String, in table: Table) -> String {
        let taken = Set(table.columns.map(\.name)).union(["Z_PK", "Z_ENT", "Z_OPT"])
        guard taken.contains(name) else { return name }
        var index = 1
        while taken.contains("\(name)\(index)") { index += 1 }
        return "\(name)\(index)"
    }

    /// The declared column type Core Data uses for an attribute type.
    static func declaredType(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .double, .float: "FLOAT"
        case .decimal: "DECIMAL"
        case .string, .uri, .objectID: "VARCHAR"
        case .date: "TIMESTAMP"
        case .binaryData, .transformable, .uuid: "BLOB"
        }
    }

    /// The table of `entity`'s inheritance root.
    func table(for entity: String) -> Table? {
        model.entity(named: entity).flatMap { tables[$0.rootEntityName] }
    }

    /// Whether `codes` (sorted) are those of every entity with rows in `table`: then a query
    /// needs no `Z_ENT IN (…)` condition, which (without an entity index on a table of one
    /// entity) would make SQLite read every row to test it.
    func codes(_ codes: [Int64], coverTable table: Table) -> Bool {
        let tableCodes = self.codes.filter {
            self.table(for: $0.key)?.name == table.name && model.entity(named: $0.key)?.isAbstract == false
        }.values.sorted()
        return codes == tableCodes
    }

    /// `WHERE Z_ENT IN (?, …)` with its values for rows of `codes` in `table`; empty when
    /// they are every entity of the table.
    func entityCondition(_ codes: [Int64], in table: Table) -> (sql: String, values: [SQLiteValue]) {
        guard !self.codes(codes, coverTable: table) else { return ("", []) }
        return (" WHERE Z_ENT IN (\(codes.map { _ in "?" }.joined(separator: ", ")))", codes.map { .integer($0) })
    }

    /// Every statement that creates the schema.
    var createStatements: [String] {
        var statements: [String] = []
        for table in tables.values.sorted(by: { $0.name < $1.name }) {
            let entityColumnAfter = Dictionary(table.entityColumns.compactMap { name, column in table.toOneColumns[name].map { ($0, column.name) } }) { first, _ in first }
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] + table.columns.flatMap { column in
                ["\(column.name) \(column.type)"] + (entityColumnAfter[column.name].map { ["\($0) INTEGER"] } ?? [])
            }
            statements.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
            // As Core Data: only a table several entities share is indexed by entity.
            if model.entities.contains(where: { $0.rootEntityName == table.rootEntity && $0.superentityName != nil }) {
                statements.append("CREATE INDEX \(table.name)_Z_ENT_INDEX ON \(table.name) (Z_ENT)")
            }
            for column in table.toOneColumns.values.sorted() {
                statements.append("CREATE INDEX \(table.name)_\(column)_INDEX ON \(table.name) (\(column))")
            }
            for entity in model.entities where entity.rootEntityName == table.rootEntity {
                for attribute in entity.attributes where attribute.isIndexed && !attribute.isTransient {
                    guard let column = table.attributeColumns[attribute.name], entity.declaredProperties.contains(where: { $0.name == attribute.name }) else { continue }
                    statements.append("CREATE INDEX \(table.name)_\(column)_INDEX ON \(table.name) (\(column))")
                }
                for constraint in entity.uniquenessConstraints {
                    let columns = constraint.compactMap { table.attributeColumns[$0] ?? table.toOneColumns[$0] }
                    guard columns.count == constraint.count, !columns.isEmpty else { continue }
                    statements.append("CREATE UNIQUE INDEX Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_").replacingOccurrences(of: ".", with: "_")) ON \(table.name) (\(columns.map { "\($0) COLLATE BINARY ASC" }.joined(separator: ", ")))")
                }
                for index in entity.indexes {
                    let columns = index.elements.compactMap { element in
                        (table.attributeColumns[element.property] ?? table.toOneColumns[element.property]).map { "\($0) COLLATE BINARY \(element.ascending ? "ASC" : "DESC")" }
                    }
                    guard columns.count == index.elements.count, !columns.isEmpty else { continue }
                    statements.append("CREATE INDEX Z_\(entity.name)_\(index.name) ON \(table.name) (\(columns.joined(separator: ", ")))")
                }
            }
        }
        for join in joinTables {
            var columns = ["\(join.sourceColumn) INTEGER", "\(join.destinationColumn) INTEGER"]
            if let order = join.orderColumn { columns.append("\(order) INTEGER") }
            if let order = join.inverseOrderColumn { columns.append("\(order) INTEGER") }
            columns.append("PRIMARY KEY (\(join.sourceColumn), \(join.destinationColumn))")
            statements.append("CREATE TABLE \(join.name) ( \(columns.joined(separator: ", ")) )")
            statements.append("CREATE INDEX \(join.name)_\(join.destinationColumn)_INDEX ON \(join.name) (\(join.destinationColumn), \(join.sourceColumn))")
        }
        statements.append("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        statements.append("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        return statements
    }
}
