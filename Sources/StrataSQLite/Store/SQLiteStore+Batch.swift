import Foundation
@_spi(StoreImplementation) import StrataCore

/// Batch requests in SQL: inserts as multi-row `INSERT`s with keys from `Z_PRIMARYKEY`, updates
/// as `UPDATE … SET …, Z_OPT = Z_OPT + 1`, deletes as `DELETE`s with their join rows, delete rules
/// applied level by level in SQL. No snapshot is made of a row the request does not need to read.
/// Each request is one `BEGIN IMMEDIATE` transaction, which selects its rows (predicate, range,
/// expressions' values) as well as changing them, so no other connection writes in between.
extension SQLiteStore {
    @_spi(StoreImplementation) public func executeBatch(_ request: StoreBatchRequest) throws -> StoreBatchResult {
        try refuseWritingIfReadOnly()
        return switch request {
        case .insert(let insert): try batchInsert(insert)
        case .update(let update): try batchUpdate(update)
        case .delete(let delete): try batchDelete(delete)
        }
    }

    // MARK: Insert

    private func batchInsert(_ insert: StoreBatchInsert) throws -> StoreBatchResult {
        guard let entity = model.entity(named: insert.entityName) else { throw ObjectError.unknownEntity(insert.entityName) }
        guard !entity.isAbstract else { throw ObjectError.abstractEntity(insert.entityName) }
        guard let code = schema.codes[entity.name], let rootCode = schema.codes[entity.rootEntityName],
              let table = schema.tables[entity.rootEntityName] else { throw StoreError.noStoreForEntity(entity.name) }
        let objects = insert.objects
        guard !objects.isEmpty else { return StoreBatchResult(objectIDs: []) }
        for (index, object) in objects.enumerated() {
            for key in object.keys.sorted() { _ = try BatchSQL.column(key, of: entity, in: table, index: index) }
        }
        let attributes = entity.attributes.filter { !$0.isTransient && !$0.isDerived }
            .compactMap { attribute in table.attributeColumns[attribute.name].map { (attribute.name, $0) } }
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + attributes.map(\.1)
        let rowMarks = "(" + names.map { _ in "?" }.joined(separator: ", ") + ")"
        // SQLite takes at least 999 bound values a statement; at most 256 rows keeps statements small.
        let largest = max(1, min(256, 999 / names.count))
        return try withConnection { state in
            try state.connection.transaction {
                let current = try state.connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(rootCode)])
                guard case .integer(let last)? = current else {
                    throw StoreError.corruptStore(file: url?.path ?? "", offset: nil,
                                                  reason: "Z_PRIMARYKEY has no row for entity '\(entity.rootEntityName)'")
                }
                let (end, overflow) = last.addingReportingOverflow(Int64(objects.count))
                guard !overflow else {
                    throw StoreError.corruptStore(file: url?.path ?? "", offset: nil,
                                                  reason: "no primary keys left for entity '\(entity.rootEntityName)'")
                }
                let ids = (0..<objects.count).map {
                    ManagedObjectID(entityName: entity.name, storeIdentifier: state.identifier, primaryKey: last + 1 + Int64($0))
                }
                var start = 0
                for size in BatchSQL.statementSizes(objects.count, largest: largest) {
                    var values: [SQLiteValue] = []
                    values.reserveCapacity(size * names.count)
                    for offset in start..<(start + size) {
                        values += [.integer(last + 1 + Int64(offset)), .integer(code), .integer(1)]
                        for (name, _) in attributes { values.append(SQLiteValueCoding.encode(objects[offset][name])) }
                    }
                    // `OR FAIL`: SQLite keeps no statement journal (which it writes to a temporary
                    // file) to take a failed statement back; a row in conflict stops the statement
                    // and keeps the rows before it, and the request's transaction goes back whole.
                    let sql = "INSERT OR FAIL INTO \(table.name) (\(names.joined(separator: ", "))) VALUES "
                        + Array(repeating: rowMarks, count: size).joined(separator: ", ")
                    if try Self.breaksUniqueIndex({ try state.connection.run(sql, values) }) {
                        // The rows the statement kept are taken out first, so that the conflict is
                        // looked for among the rows as they were before it.
                        let kept = Int64(min(max(state.connection.changes, 0), size))
                        if kept > 0 {
                            let first = last + 1 + Int64(start)
                            try state.connection.run("DELETE FROM \(table.name) WHERE Z_PK >= ? AND Z_PK < ?",
                                                     [.integer(first), .integer(first + kept)])
                        }
                        throw try insertConflict(in: start..<(start + size), of: objects, ids: ids, entity: entity,
                                                 table: table, connection: state.connection)
                    }
                    start += size
                }
                try state.connection.run("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [.integer(end), .integer(rootCode)])
                try recordBatchHistory(insert.transactionInfo, inserted: ids, state)
                try SQLiteDerivedColumnWriter(connection: state.connection, schema: schema)
                    .update(touchedEntities: [entity.name], saved: [entity.name: ids.compactMap(\.primaryKey)])
                return StoreBatchResult(objectIDs: ids)
            }
        }
    }

    /// The error for an insert statement that broke a unique index: the first new object whose
    /// constrained values a stored row, or an earlier object of the same statement, already holds.
    private func insertConflict(in range: Range<Int>, of objects: [[String: AttributeValue]], ids: [ManagedObjectID],
                                entity: EntityDescription, table: SQLiteSchema.Table,
                                connection: SQLiteConnection) throws -> any Error {
        let first = ids.first?.primaryKey ?? 0
        var seen: [String: Int] = [:]
        for index in range {
            let values = objects[index].mapValues { SQLiteValueCoding.encode($0) }
            for (declaring, constraint) in BatchSQL.constraints(of: entity, model: model) {
                guard let holder = try BatchSQL.holder(of: constraint, values: values, excluding: nil, table: table,
                                                       schema: schema, storeIdentifier: ids[index].storeIdentifier ?? "",
                                                       connection: connection) else {
                    let marker = declaring + "\u{0}" + constraint.map { "\(values[$0].map { "\($0)" } ?? "")" }.joined(separator: "\u{0}")
                    if constraint.allSatisfy({ values[$0] != nil && values[$0] != .null }) {
                        if let other = seen[marker] {
                            return BatchRequestError.constraintConflict(index: index, entity: declaring, properties: constraint,
                                                                        otherIndex: other, existingObject: nil)
                        }
                        seen[marker] = index
                    }
                    continue
                }
                let holderIndex = holder.primaryKey.map { Int($0 - first) }.flatMap { $0 >= 0 && $0 < ids.count ? $0 : nil }
                return BatchRequestError.constraintConflict(index: index, entity: declaring, properties: constraint,
                                                            otherIndex: holderIndex, existingObject: holderIndex == nil ? holder : nil)
            }
        }
        return StoreError.constraintConflict([ConstraintConflict(entityName: entity.name, properties: [], objectID: ids[range.lowerBound],
                                                                 databaseObjectID: nil)])
    }

    // MARK: Update

    private func batchUpdate(_ update: StoreBatchUpdate) throws -> StoreBatchResult {
        let keys = update.values.keys.sorted()
        for key in keys { _ = try update.checkedAttribute(key, model: model) }
        return try withConnection { state in
            try state.connection.transaction {
                let reader = self.reader(for: state)
                let rows: [ManagedObjectID]
                // Expressions are evaluated on the rows as the selection read them, before any is changed.
                var perObject: [ManagedObjectID: [String: AttributeValue?]] = [:]
                if update.hasExpressions {
                    var request = update.selection
                    request.includesPropertyValues = true
                    let snapshots = try fetch(request, in: state, reader: reader)
                    for snapshot in snapshots {
                        perObject[snapshot.objectID] = try update.resolvedValues(for: snapshot, source: reader, model: model)
                    }
                    rows = snapshots.map(\.objectID)
                } else {
                    rows = try selectedRows(update.selection, in: state, reader: reader)
                }
                // The rows as they were, when history keeps an update's old values.
                var before: [ManagedObjectID: ObjectSnapshot] = [:]
                if batchUpdatesReadOldValues {
                    for id in rows { before[id] = try reader.snapshot(for: id) }
                }
                for (root, ids) in BatchSQL.byRoot(rows, model: model) {
                    guard let table = schema.tables[root] else { continue }
                    let columns = try keys.map { key -> String in
                        guard let column = table.attributeColumns[key] else {
                            throw BatchRequestError.unknownKey(index: nil, entity: root, key: key)
                        }
                        return column
                    }
                    let assignments = (columns.map { "\($0) = ?" } + ["Z_OPT = Z_OPT + 1"]).joined(separator: ", ")
                    if update.hasExpressions {
                        for id in ids {
                            let values = perObject[id] ?? [:]
                            try updateRows([id], table: table, assignments: assignments,
                                           values: keys.map { SQLiteValueCoding.encode(values[$0] ?? nil) },
                                           newValues: values, connection: state.connection)
                        }
                    } else {
                        var constants: [String: AttributeValue?] = [:]
                        for (key, value) in update.values { if case .constant(let constant) = value { constants.updateValue(constant, forKey: key) } }
                        try updateRows(ids, table: table, assignments: assignments,
                                       values: keys.map { SQLiteValueCoding.encode(constants[$0] ?? nil) },
                                       newValues: constants, connection: state.connection)
                    }
                }
                try recordBatchHistory(update.transactionInfo, updated: rows, updatedKeys: { _ in keys }, before: before, state)
                var saved: [String: [Int64]] = [:]
                for id in rows { if let key = id.primaryKey { saved[id.entityName, default: []].append(key) } }
                try SQLiteDerivedColumnWriter(connection: state.connection, schema: schema).update(touchedEntities: Set(saved.keys), saved: saved)
                return StoreBatchResult(objectIDs: rows)
            }
        }
    }

    /// Sets `assignments` (bound to `values`) on the rows of `ids`, in statements of many keys.
    /// A broken unique index is reported as the save reports it, naming the first row that
    /// cannot take its new values and the row that holds them.
    private func updateRows(_ ids: [ManagedObjectID], table: SQLiteSchema.Table, assignments: String, values: [SQLiteValue],
                            newValues: [String: AttributeValue?], connection: SQLiteConnection) throws {
        for list in BatchSQL.inLists(ids.compactMap(\.primaryKey)) {
            // `OR FAIL`: SQLite keeps no statement journal (which it writes to a temporary file) to
            // take a failed statement back; the rows before one in conflict keep their values, and
            // the request's transaction goes back whole.
            let sql = "UPDATE OR FAIL \(table.name) SET \(assignments) WHERE Z_PK IN (\(list.marks))"
            guard try !Self.breaksUniqueIndex({ try connection.run(sql, values + list.values) }) else {
                // One row at a time, to find the row and its holder (the rows before it take their
                // values; those the statement reached have them already).
                for id in ids {
                    guard let key = id.primaryKey, list.keys.contains(key) else { continue }
                    let one = "UPDATE \(table.name) SET \(assignments) WHERE Z_PK = ?"
                    if try Self.breaksUniqueIndex({ try connection.run(one, values + [.integer(key)]) }) {
                        throw try updateConflict(id, table: table, newValues: newValues, connection: connection)
                    }
                }
                throw StoreError.constraintConflict([])
            }
        }
    }

    /// Runs `body`: true when it broke a unique index, false when it succeeded; other errors are thrown.
    private static func breaksUniqueIndex(_ body: () throws -> Void) throws -> Bool {
        do {
            try body()
            return false
        } catch let error as SQLiteError where error.code == BatchSQL.uniqueConstraint {
            return true
        }
    }

    private func updateConflict(_ id: ManagedObjectID, table: SQLiteSchema.Table, newValues: [String: AttributeValue?],
                                connection: SQLiteConnection) throws -> StoreError {
        guard let entity = model.entity(named: id.entityName), let key = id.primaryKey else { return .missingObject(id) }
        for (declaring, constraint) in BatchSQL.constraints(of: entity, model: model) {
            var values: [String: SQLiteValue] = [:]
            for property in constraint {
                if let new = newValues[property] {
                    values[property] = SQLiteValueCoding.encode(new)
                } else if let column = table.attributeColumns[property] ?? table.toOneColumns[property] {
                    values[property] = try connection.scalar("SELECT \(column) FROM \(table.name) WHERE Z_PK = ?", [.integer(key)]) ?? .null
                }
            }
            if let holder = try BatchSQL.holder(of: constraint, values: values, excluding: key, table: table, schema: schema,
                                                storeIdentifier: id.storeIdentifier ?? "", connection: connection) {
                return .constraintConflict([ConstraintConflict(entityName: declaring, properties: constraint, objectID: id,
                                                               databaseObjectID: holder)])
            }
        }
        return .constraintConflict([ConstraintConflict(entityName: entity.name, properties: [], objectID: id, databaseObjectID: nil)])
    }

    // MARK: Delete

    private func batchDelete(_ delete: StoreBatchDelete) throws -> StoreBatchResult {
        try withConnection { state in
            try state.connection.transaction {
                var plan = SQLiteDeletePlan(schema: schema, connection: state.connection, storeIdentifier: state.identifier)
                switch delete.target {
                case .matching(let request):
                    plan.add(try selectedRows(request, in: state, reader: reader(for: state)))
                case .objects(let ids):
                    plan.add(try existing(ids, connection: state.connection, storeIdentifier: state.identifier))
                }
                try plan.cascade()
                try plan.checkDenyRules()
                // The nullified objects as they were, when history keeps an update's old values.
                var before: [ManagedObjectID: ObjectSnapshot] = [:]
                let reader = reader(for: state)
                try plan.nullify { ids in
                    guard batchUpdatesReadOldValues else { return }
                    for id in ids { before[id] = try reader.snapshot(for: id) }
                }
                // Recorded while the rows are there to give their tombstones.
                try recordBatchHistory(delete.transactionInfo, updated: plan.nullifiedOrder, updatedKeys: { plan.nullifiedKeys[$0, default: []].sorted() },
                                       deleted: plan.order, before: before, state)
                try plan.deleteRows()
                try SQLiteDerivedColumnWriter(connection: state.connection, schema: schema)
                    .update(touchedEntities: Set(plan.order.map(\.entityName) + plan.nullifiedOrder.map(\.entityName)), saved: [:])
                return StoreBatchResult(objectIDs: plan.order, nullifiedObjectIDs: plan.nullifiedOrder)
            }
        }
    }

    // MARK: Selecting rows

    /// The rows `request` selects, read inside the batch request's transaction with the
    /// connection of `state`, so that no other connection can change them before they change.
    ///
    /// Without a predicate or a range, every row of the request's entities in SQL, in key order,
    /// no row's values read; otherwise the IDs the store's fetch matches, the predicate evaluated
    /// exactly as ``fetch(_:)`` evaluates it (in SQL where it translates, the rest in memory).
    private func selectedRows(_ request: StoreFetchRequest, in state: State, reader: SQLiteRowReader) throws -> [ManagedObjectID] {
        guard request.predicate == nil, request.fetchLimit == 0, request.fetchOffset == 0 else {
            return Array(try fetchObjectIDs(request, in: state, reader: reader))
        }
        var rows: [ManagedObjectID] = []
        var byRoot: [String: [Int64]] = [:]
        for name in request.entityNames {
            guard let entity = model.entity(named: name), let code = schema.codes[name] else { continue }
            byRoot[entity.rootEntityName, default: []].append(code)
        }
        for root in byRoot.keys.sorted() {
            guard let table = schema.tables[root], let codes = byRoot[root] else { continue }
            let condition = schema.entityCondition(codes.sorted(), in: table)
            rows += try state.connection.rows("SELECT Z_PK, Z_ENT FROM \(table.name)\(condition.sql) ORDER BY Z_PK",
                                              condition.values) { ($0.int64(0), $0.int64(1)) }
                .compactMap { key, code in
                    schema.namesByCode[code].map { ManagedObjectID(entityName: $0, storeIdentifier: state.identifier, primaryKey: key) }
                }
        }
        return rows
    }

    /// The IDs of `ids` whose rows exist with their entity, in order, each once.
    private func existing(_ ids: [ManagedObjectID], connection: SQLiteConnection, storeIdentifier: String) throws -> [ManagedObjectID] {
        var found: Set<ManagedObjectID> = []
        for (root, group) in BatchSQL.byRoot(ids.filter { $0.storeIdentifier == storeIdentifier }, model: model) {
            guard let table = schema.tables[root] else { continue }
            for list in BatchSQL.inLists(group.compactMap(\.primaryKey)) {
                try connection.rows("SELECT Z_PK, Z_ENT FROM \(table.name) WHERE Z_PK IN (\(list.marks))", list.values) {
                    ($0.int64(0), $0.int64(1))
                }.forEach { key, code in
                    if let name = schema.namesByCode[code] {
                        found.insert(ManagedObjectID(entityName: name, storeIdentifier: storeIdentifier, primaryKey: key))
                    }
                }
            }
        }
        var seen: Set<ManagedObjectID> = []
        return ids.filter { found.contains($0) && seen.insert($0).inserted }
    }
}

/// The rows a batch delete removes (with its cascades) and the rows it changes (nullify), worked
/// out and written in SQL inside the delete's transaction.
private struct SQLiteDeletePlan {
    let schema: SQLiteSchema
    let connection: SQLiteConnection
    let storeIdentifier: String
    /// Deleted keys by inheritance root.
    private var deleted: [String: Set<Int64>] = [:]
    /// Every deleted object in the order found.
    private(set) var order: [ManagedObjectID] = []
    /// Remaining objects whose relationships were nullified, in the order found.
    private(set) var nullifiedOrder: [ManagedObjectID] = []
    /// The relationships nullified in each of them.
    private(set) var nullifiedKeys: [ManagedObjectID: Set<String>] = [:]
    /// The objects found by the last step, not yet followed.
    private var frontier: [ManagedObjectID] = []

    init(schema: SQLiteSchema, connection: SQLiteConnection, storeIdentifier: String) {
        self.schema = schema
        self.connection = connection
        self.storeIdentifier = storeIdentifier
    }

    private var model: ManagedObjectModel { schema.model }

    private func root(_ entity: String) -> String { model.entity(named: entity)?.rootEntityName ?? entity }

    private func isDeleted(_ id: ManagedObjectID) -> Bool {
        id.primaryKey.map { deleted[root(id.entityName)]?.contains($0) ?? false } ?? false
    }

    mutating func add(_ ids: [ManagedObjectID]) {
        for id in ids {
            guard let key = id.primaryKey, deleted[root(id.entityName), default: []].insert(key).inserted else { continue }
            order.append(id)
            frontier.append(id)
        }
    }

    /// The objects of `ids` grouped by entity, entities in the order they first appear.
    private func byEntity(_ ids: [ManagedObjectID]) -> [(String, [Int64])] {
        var groups: [String: [Int64]] = [:]
        var names: [String] = []
        for id in ids {
            guard let key = id.primaryKey else { continue }
            if groups[id.entityName] == nil { names.append(id.entityName) }
            groups[id.entityName, default: []].append(key)
        }
        return names.map { ($0, groups[$0] ?? []) }
    }

    /// The stored relationships of `entity` with `rule`.
    private func relationships(of entity: String, rule: DeleteRule) -> [RelationshipDescription] {
        model.entity(named: entity)?.relationships.filter { $0.deleteRule == rule && !$0.isTransient } ?? []
    }

    /// Adds the destinations of every cascade relationship, level by level, until none is new.
    mutating func cascade() throws {
        while !frontier.isEmpty {
            let level = frontier
            frontier = []
            for (entity, keys) in byEntity(level) {
                for relationship in relationships(of: entity, rule: .cascade) {
                    add(try links(relationship, of: entity, keys: keys).map(\.destination))
                }
            }
        }
    }

    /// Throws for the first deleted object with a `deny` relationship whose destinations remain.
    func checkDenyRules() throws {
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var first: (position: Int, error: BatchRequestError)?
        for (entity, keys) in byEntity(order) {
            for relationship in relationships(of: entity, rule: .deny) {
                var remaining: [Int64: Int] = [:]
                for link in try links(relationship, of: entity, keys: keys) where !isDeleted(link.destination) {
                    remaining[link.source, default: 0] += 1
                }
                for (source, count) in remaining {
                    let id = ManagedObjectID(entityName: entity, storeIdentifier: storeIdentifier, primaryKey: source)
                    let at = position[id] ?? Int.max
                    if first == nil || at < first?.position ?? Int.max {
                        first = (at, .deleteDenied(objectID: id, relationship: relationship.name, destinationCount: count))
                    }
                }
            }
        }
        if let first { throw first.error }
    }

    /// Clears the foreign keys that point at deleted rows through the inverses of `nullify`
    /// relationships, and raises `Z_OPT` of every remaining row whose relationships lose a
    /// deleted object (as a save of those objects would).
    ///
    /// `willChange` is called with the objects found first changed by each statement, before it
    /// runs (what history reads their old values with).
    mutating func nullify(willChange: ([ManagedObjectID]) throws -> Void = { _ in }) throws {
        var bumped: [String: Set<Int64>] = [:]
        for (entity, keys) in byEntity(order) {
            for relationship in relationships(of: entity, rule: .nullify) {
                guard let inverseName = relationship.inverseName,
                      let destinationTable = schema.table(for: relationship.destinationEntityName) else { continue }
                let found = nullifiedOrder.count
                for link in try links(relationship, of: entity, keys: keys) where !isDeleted(link.destination) {
                    guard let inverse = model.entity(named: link.destination.entityName)?.relationship(named: inverseName),
                          !inverse.isTransient, let key = link.destination.primaryKey else { continue }
                    if bumped[destinationTable.rootEntity, default: []].insert(key).inserted { nullifiedOrder.append(link.destination) }
                    nullifiedKeys[link.destination, default: []].insert(inverseName)
                }
                if nullifiedOrder.count > found { try willChange(Array(nullifiedOrder[found...])) }
                // A to-one inverse is a foreign key (and an order column) in the destination's row.
                guard let inverse = model.entity(named: relationship.destinationEntityName)?.relationship(named: inverseName),
                      !inverse.isToMany, !inverse.isTransient, let column = destinationTable.toOneColumns[inverseName] else { continue }
                let clear = ([column] + [destinationTable.orderColumns[inverseName], destinationTable.entityColumns[inverseName]?.name].compactMap { $0 })
                    .map { "\($0) = NULL" }
                for list in BatchSQL.inLists(keys) {
                    try connection.run("UPDATE \(destinationTable.name) SET \(clear.joined(separator: ", ")) WHERE \(column) IN (\(list.marks))",
                                       list.values)
                }
            }
        }
        for (root, keys) in bumped {
            guard let table = schema.tables[root] else { continue }
            for list in BatchSQL.inLists(keys.sorted()) {
                try connection.run("UPDATE \(table.name) SET Z_OPT = Z_OPT + 1 WHERE Z_PK IN (\(list.marks))", list.values)
            }
        }
    }

    /// Deletes the rows and every join row they are part of.
    func deleteRows() throws {
        for root in deleted.keys.sorted() {
            guard let table = schema.tables[root], let keys = deleted[root]?.sorted() else { continue }
            for list in BatchSQL.inLists(keys) {
                try connection.run("DELETE FROM \(table.name) WHERE Z_PK IN (\(list.marks))", list.values)
                for join in schema.joinTables {
                    let sourceRoot = model.entity(named: join.entity)?.rootEntityName
                    let destinationRoot = model.entity(named: join.entity)?.relationship(named: join.relationship)
                        .flatMap { model.entity(named: $0.destinationEntityName)?.rootEntityName }
                    if sourceRoot == root {
                        try connection.run("DELETE FROM \(join.name) WHERE \(join.sourceColumn) IN (\(list.marks))", list.values)
                    }
                    if destinationRoot == root {
                        try connection.run("DELETE FROM \(join.name) WHERE \(join.destinationColumn) IN (\(list.marks))", list.values)
                    }
                }
            }
        }
    }

    /// Each (source key, destination) pair of `relationship` for the rows `keys` of `entity`,
    /// destinations with their entity from `Z_ENT`; references to missing rows are left out.
    private func links(_ relationship: RelationshipDescription, of entity: String,
                       keys: [Int64]) throws -> [(source: Int64, destination: ManagedObjectID)] {
        guard let destination = schema.table(for: relationship.destinationEntityName) else { return [] }
        let select: String
        if relationship.isToMany {
            switch schema.toMany[entity]?[relationship.name] {
            case let .inverseForeignKey(table, column, _, _)?:
                select = "SELECT d.\(column), d.Z_PK, d.Z_ENT FROM \(table) d WHERE d.\(column) IN "
            case let .joinTable(index, reversed)?:
                let join = schema.joinTables[index]
                let (mine, theirs) = reversed ? (join.destinationColumn, join.sourceColumn) : (join.sourceColumn, join.destinationColumn)
                select = "SELECT j.\(mine), d.Z_PK, d.Z_ENT FROM \(join.name) j JOIN \(destination.name) d ON d.Z_PK = j.\(theirs) WHERE j.\(mine) IN "
            case nil:
                return []
            }
        } else {
            guard let source = schema.table(for: entity), let column = source.toOneColumns[relationship.name] else { return [] }
            select = "SELECT s.Z_PK, d.Z_PK, d.Z_ENT FROM \(source.name) s JOIN \(destination.name) d ON d.Z_PK = s.\(column) WHERE s.Z_PK IN "
        }
        var result: [(source: Int64, destination: ManagedObjectID)] = []
        for list in BatchSQL.inLists(keys) {
            result += try connection.rows(select + "(\(list.marks))", list.values) { ($0.int64(0), $0.int64(1), $0.int64(2)) }
                .compactMap { source, key, code in
                    schema.namesByCode[code].map { (source, ManagedObjectID(entityName: $0, storeIdentifier: storeIdentifier, primaryKey: key)) }
                }
        }
        return result
    }
}

/// SQL pieces the batch requests share.
enum BatchSQL {
    /// `SQLITE_CONSTRAINT_UNIQUE`.
    static let uniqueConstraint: Int32 = 2067

    /// The column of the stored attribute `key` of `entity`.
    static func column(_ key: String, of entity: EntityDescription, in table: SQLiteSchema.Table, index: Int?) throws -> String {
        let attribute = try storedAttribute(key, of: entity, index: index)
        guard let column = table.attributeColumns[attribute.name] else {
            throw BatchRequestError.unknownKey(index: index, entity: entity.name, key: key)
        }
        return column
    }

    private static func storedAttribute(_ key: String, of entity: EntityDescription, index: Int?) throws -> AttributeDescription {
        switch entity.propertiesByName[key] {
        case .attribute(let attribute)? where !attribute.isTransient && !attribute.isDerived: attribute
        case .attribute?: throw BatchRequestError.notStored(index: index, entity: entity.name, key: key)
        case .relationship?, .fetchedProperty?: throw BatchRequestError.notAnAttribute(index: index, entity: entity.name, key: key)
        case nil: throw BatchRequestError.unknownKey(index: index, entity: entity.name, key: key)
        }
    }

    /// Rows per statement for `count` rows: as many full statements of `largest` rows as fit,
    /// then powers of two, so that few distinct statements are prepared and cached.
    static func statementSizes(_ count: Int, largest: Int) -> [Int] {
        var sizes = Array(repeating: largest, count: count / largest)
        var rest = count % largest
        var power = 1
        while power * 2 <= rest { power *= 2 }
        while rest > 0 {
            if power <= rest {
                sizes.append(power)
                rest -= power
            }
            power /= 2
        }
        return sizes
    }

    /// `IN (…)` lists of at most 512 keys, each padded with its last key to a power of two so
    /// that few distinct statements are prepared and cached.
    static func inLists(_ keys: [Int64]) -> [(marks: String, values: [SQLiteValue], keys: ArraySlice<Int64>)] {
        var lists: [(marks: String, values: [SQLiteValue], keys: ArraySlice<Int64>)] = []
        var start = 0
        while start < keys.count {
            let chunk = keys[start..<min(start + 512, keys.count)]
            start += chunk.count
            var power = 0
            while 1 << power < chunk.count { power += 1 }
            var values: [SQLiteValue] = []
            values.reserveCapacity(1 << power)
            for key in chunk { values.append(.integer(key)) }
            while values.count < 1 << power { values.append(.integer(chunk[chunk.endIndex - 1])) }
            lists.append((marks[power], values, chunk))
        }
        return lists
    }

    /// `?, ?, …` with 1, 2, 4, … 512 marks, made once.
    private static let marks: [String] = (0...9).map { Array(repeating: "?", count: 1 << $0).joined(separator: ", ") }

    /// `ids` grouped by inheritance root, roots in name order, IDs in their order.
    static func byRoot(_ ids: [ManagedObjectID], model: ManagedObjectModel) -> [(String, [ManagedObjectID])] {
        var groups: [String: [ManagedObjectID]] = [:]
        for id in ids {
            groups[model.entity(named: id.entityName)?.rootEntityName ?? id.entityName, default: []].append(id)
        }
        return groups.keys.sorted().map { ($0, groups[$0] ?? []) }
    }

    /// The uniqueness constraints of `entity` and its ancestors, with the entity that declares each.
    static func constraints(of entity: EntityDescription, model: ManagedObjectModel) -> [(String, [String])] {
        var result: [(String, [String])] = []
        var current: EntityDescription? = entity
        while let each = current {
            result += each.uniquenessConstraints.map { (each.name, $0) }
            current = each.superentityName.flatMap { model.entity(named: $0) }
        }
        return result
    }

    /// The row, other than `excluding`, that holds `values` of the properties of `constraint`;
    /// nil when one of the values is nil (SQLite's unique indexes do not compare NULLs) or none does.
    static func holder(of constraint: [String], values: [String: SQLiteValue], excluding: Int64?, table: SQLiteSchema.Table,
                       schema: SQLiteSchema, storeIdentifier: String, connection: SQLiteConnection) throws -> ManagedObjectID? {
        var clauses: [String] = []
        var bound: [SQLiteValue] = []
        for property in constraint {
            guard let column = table.attributeColumns[property] ?? table.toOneColumns[property],
                  let value = values[property], value != .null else { return nil }
            clauses.append("\(column) = ?")
            bound.append(value)
        }
        if let excluding {
            clauses.append("Z_PK != ?")
            bound.append(.integer(excluding))
        }
        let rows = try connection.rows("SELECT Z_PK, Z_ENT FROM \(table.name) WHERE \(clauses.joined(separator: " AND ")) LIMIT 1", bound) {
            ($0.int64(0), $0.int64(1))
        }
        guard let (key, code) = rows.first, let name = schema.namesByCode[code] else { return nil }
        return ManagedObjectID(entityName: name, storeIdentifier: storeIdentifier, primaryKey: key)
    }
}
