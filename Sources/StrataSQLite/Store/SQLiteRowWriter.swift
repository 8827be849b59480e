import Foundation
@_spi(StoreImplementation) import StrataCore

/// Writes saves into rows: inserts, updates with optimistic locking on `Z_OPT`, deletes, and
/// to-many relationships into foreign keys, order columns and join tables. Runs inside the
/// store's transaction, so a save lands whole or not at all.
struct SQLiteRowWriter {
    let connection: SQLiteConnection
    let schema: SQLiteSchema
    let storeIdentifier: String
    let file: String
    private let layouts: SQLiteRowLayouts

    init(connection: SQLiteConnection, schema: SQLiteSchema, storeIdentifier: String, layouts: SQLiteRowLayouts, file: String) {
        self.connection = connection
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.layouts = layouts
        self.file = file
    }

    private func layout(_ id: ManagedObjectID) throws -> SQLiteRowLayout {
        guard let layout = layouts.layout(entityName: id.entityName) else { throw StoreError.noStoreForEntity(id.entityName) }
        return layout
    }

    private func table(_ id: ManagedObjectID) throws -> SQLiteSchema.Table {
        guard let table = schema.table(for: id.entityName), schema.codes[id.entityName] != nil else {
            throw StoreError.noStoreForEntity(id.entityName)
        }
        return table
    }

    private func key(_ id: ManagedObjectID) throws -> Int64 {
        guard let key = id.primaryKey, id.storeIdentifier == storeIdentifier else { throw StoreError.missingObject(id) }
        return key
    }

    /// `ids` grouped by the table that holds their rows, tables in the order first met, each ID
    /// with its primary key and its position in `ids`. Saves list objects in runs of one entity:
    /// the table is looked up when the entity changes.
    private func byTable(_ ids: [ManagedObjectID]) throws
        -> [(table: SQLiteSchema.Table, members: [(key: Int64, id: ManagedObjectID, position: Int)])] {
        var groups: [(table: SQLiteSchema.Table, members: [(key: Int64, id: ManagedObjectID, position: Int)])] = []
        var groupOfTable: [String: Int] = [:]
        var run: (entity: String, group: Int)?
        for (position, id) in ids.enumerated() {
            let key = try key(id)
            if let run, run.entity == id.entityName {
                groups[run.group].members.append((key, id, position))
                continue
            }
            let table = try table(id)
            let group = groupOfTable[table.name] ?? groups.count
            if group == groups.count {
                groups.append((table, []))
                groupOfTable[table.name] = group
            }
            groups[group].members.append((key, id, position))
            run = (id.entityName, group)
        }
        return groups
    }

    /// The stored `Z_OPT` of each of `ids`, in their order: nil where no row of the ID's entity
    /// exists. One query per table and `IN` list, its rows in key order, walked beside the IDs
    /// sorted by key: no ID is hashed.
    private func storedVersions(_ ids: [ManagedObjectID]) throws -> [Int64?] {
        var versions = [Int64?](repeating: nil, count: ids.count)
        for (table, unsorted) in try byTable(ids) {
            let members = unsorted.sorted { $0.key < $1.key }
            var keys: [Int64] = []
            keys.reserveCapacity(members.count)
            for member in members where keys.last != member.key { keys.append(member.key) }
            var next = 0   // the first member whose key no row read has passed
            var lastCode: (code: Int64, name: String?)?
            for list in BatchSQL.inLists(keys) {
                let statement = try connection.statement(
                    "SELECT Z_PK, Z_OPT, Z_ENT FROM \(table.name) WHERE Z_PK IN (\(list.marks)) ORDER BY Z_PK")
                try statement.forEachRow(list.values) { row in
                    let key = row.int64(0), version = row.int64(1), code = row.int64(2)
                    while next < members.count, members[next].key < key { next += 1 }
                    let name: String?
                    if let lastCode, lastCode.code == code {
                        name = lastCode.name
                    } else {
                        name = schema.namesByCode[code]
                        lastCode = (code, name)
                    }
                    var index = next
                    while index < members.count, members[index].key == key {
                        if name == members[index].id.entityName { versions[members[index].position] = version }
                        index += 1
                    }
                }
            }
        }
        return versions
    }

    /// Applies a save: refuses it whole with a merge conflict when any updated or deleted row's
    /// `Z_OPT` moved on since it was read, every such row listed (updated ones first, in their
    /// order).
    ///
    /// Deleted rows' versions are read first. Updated rows' versions are checked by their
    /// `UPDATE … WHERE Z_PK = ? AND Z_OPT = ? AND Z_ENT = ?` itself: a row it leaves alone is a
    /// conflict, looked up after the fact, and the save's transaction goes back whole. They are
    /// read first instead when a deleted row is in conflict already, or when the save clears
    /// constrained columns (which would change a conflicting row before it is found).
    func apply(_ request: StoreSaveRequest) throws {
        let reader = SQLiteRowReader(connection: connection, schema: schema, storeIdentifier: storeIdentifier, layouts: layouts)
        let deletedVersions = try storedVersions(request.deleted.map(\.objectID))
        var deletedConflicts: [MergeConflict] = []
        for (index, deletion) in request.deleted.enumerated() where deletedVersions[index] != deletion.version {
            deletedConflicts.append(MergeConflict(objectID: deletion.objectID, oldVersion: deletion.version, newVersion: deletedVersions[index] ?? 0,
                                                  persistedSnapshot: try reader.snapshot(for: deletion.objectID)))
        }
        let constrained = try constrainedColumns(clearedBy: request)
        if !deletedConflicts.isEmpty || constrained.values.contains(where: { !$0.isEmpty }) {
            let conflicts = try updatedConflicts(request, among: Array(request.updated.indices), reader) + deletedConflicts
            guard conflicts.isEmpty else { throw StoreError.mergeConflict(conflicts) }
        }
        // The updated rows (by index) whose UPDATE changed nothing, and how many were reached.
        var missed: [Int] = []
        var reached = 0
        do {
            try write(request, constrained: constrained, missed: &missed, reached: &reached)
        } catch {
            // The rows not reached yet keep the versions they had: a conflict among them, or
            // among the rows missed, is reported rather than what stopped the write.
            let conflicts = try updatedConflicts(request, among: missed + Array(reached..<request.updated.count), reader)
            guard conflicts.isEmpty else { throw StoreError.mergeConflict(conflicts) }
            guard case StoreError.constraintConflict(let first) = error else { throw error }
            // SQLite stops at the first row it refuses: every conflict of the save is looked up
            // at once, so that a merge policy resolves them all before the save tries again.
            let all = try SQLiteConstraintCheck(connection: connection, schema: schema, storeIdentifier: storeIdentifier)
                .conflicts(of: request)
            throw StoreError.constraintConflict(all.isEmpty ? first : all)
        }
        if !missed.isEmpty {
            let conflicts = try updatedConflicts(request, among: missed, reader)
            // A row missed whose version and entity are as read cannot be: named as missing.
            guard !conflicts.isEmpty else { throw StoreError.missingObject(request.updated[missed[0]].objectID) }
            throw StoreError.mergeConflict(conflicts)
        }
    }

    /// The merge conflicts of the updated rows at `indices` (in their order): each whose stored
    /// `Z_OPT` is not the version read, or which has no row of its entity.
    private func updatedConflicts(_ request: StoreSaveRequest, among indices: [Int], _ reader: SQLiteRowReader) throws -> [MergeConflict] {
        guard !indices.isEmpty else { return [] }
        let sorted = indices.sorted()
        let versions = try storedVersions(sorted.map { request.updated[$0].objectID })
        var conflicts: [MergeConflict] = []
        for (place, index) in sorted.enumerated() where versions[place] != request.updated[index].version {
            let snapshot = request.updated[index]
            conflicts.append(MergeConflict(objectID: snapshot.objectID, oldVersion: snapshot.version, newVersion: versions[place] ?? 0,
                                           persistedSnapshot: try reader.snapshot(for: snapshot.objectID)))
        }
        return conflicts
    }

    /// The constrained columns of the tables of the rows `request` updates or deletes, by table
    /// name (empty for a table without any): the columns the write clears first.
    private func constrainedColumns(clearedBy request: StoreSaveRequest) throws -> [String: [String]] {
        var constrained: [String: [String]] = [:]
        // Saves list objects in runs of one entity: the table is looked up when the entity changes.
        var lastEntity: String?
        try forEachUpdatedOrDeletedID(in: request) { id in
            if let lastEntity, lastEntity == id.entityName { return }
            lastEntity = id.entityName
            let table = try table(id)
            if constrained[table.name] == nil { constrained[table.name] = constrainedColumns(table) }
        }
        return constrained
    }

    /// Calls `body` with the ID of each row `request` updates, then of each row it deletes, read
    /// where they are in the request's lists (joined, they would be copied into a new array).
    private func forEachUpdatedOrDeletedID(in request: StoreSaveRequest, _ body: (ManagedObjectID) throws -> Void) rethrows {
        for index in request.updated.indices { try body(request.updated[index].objectID) }
        for index in request.deleted.indices { try body(request.deleted[index].objectID) }
    }

    /// Writes the rows of a save whose deleted rows' versions were checked; `missed` gets the
    /// updated rows (by index) whose version or entity was not the one read, which are not
    /// written, and `reached` how many updated rows were tried.
    private func write(_ request: StoreSaveRequest, constrained: [String: [String]], missed: inout [Int], reached: inout Int) throws {
        // SQLite checks unique indexes row by row; the save's final state is what must be unique.
        // Clearing the constrained columns of changed rows first lets values move between rows
        // (even swap) within one save. Rows this save deletes give their values up too: a new
        // object may take the unique value of one deleted in the same save.
        if constrained.values.contains(where: { !$0.isEmpty }) {
            try forEachUpdatedOrDeletedID(in: request) { id in
                let tableName = try table(id).name
                guard let columns = constrained[tableName], !columns.isEmpty else { return }
                try connection.run("UPDATE \(tableName) SET \(columns.map { "\($0) = NULL" }.joined(separator: ", ")) WHERE Z_PK = ?",
                                   [.integer(try key(id))])
            }
        }
        // Inserted rows are read in place, through the list's buffer: a row taken out of its
        // list, even by index, was copied whole (its ID, values and maps retained and released).
        try request.inserted.withUnsafeBufferPointer { try insertRows($0) }
        try raisePrimaryKeyCounters(for: request.inserted)
        // Saves list objects in runs of one entity, and the objects of a run mostly change the
        // same properties: the entity's layout and the update statement are looked up again only
        // when the entity or the changed names differ from the row before.
        var run: (entityName: String, layout: SQLiteRowLayout, cleared: Bool)?
        var lastUpdate: (layout: SQLiteRowLayout, changed: [String]?, update: SQLiteRowLayout.RowUpdate)?
        for index in request.updated.indices {
            let snapshot = request.updated[index]
            let id = snapshot.objectID
            let current: (entityName: String, layout: SQLiteRowLayout, cleared: Bool)
            if let run, run.entityName == id.entityName {
                current = run
            } else {
                // A row whose constrained columns were cleared above is written whole, so that
                // they get their values back even when they did not change.
                current = (id.entityName, try layout(id), !(constrained[try table(id).name] ?? []).isEmpty)
                run = current
            }
            let changed = current.cleared ? nil : request.changedProperties(ofUpdated: index)
            let update: SQLiteRowLayout.RowUpdate
            if let lastUpdate, lastUpdate.layout === current.layout, lastUpdate.changed == changed {
                update = lastUpdate.update
            } else {
                update = changed.map { current.layout.update(changing: $0) } ?? current.layout.wholeRowUpdate
                lastUpdate = (current.layout, changed, update)
            }
            reached = index + 1
            if try !self.update(snapshot, with: update, current.layout) { missed.append(index) }
        }
        // The rows this save wrote whole, by primary key: a foreign key one of them already holds
        // is not written again from the inverse to-many.
        let written = WrittenRows(inserted: request.inserted, updated: request.updated)
        // The entity's to-many storages, looked up when the entity changes. A row whose to-manys
        // are all empty writes nothing unless one of them is a join table (whose rows an empty
        // list removes): it is passed over without a name hashed.
        var storageRun: (entityName: String, storages: [String: SQLiteSchema.ToManyStorage], joins: Bool)?
        for list in [request.inserted, request.updated] {
            try list.withUnsafeBufferPointer { rows in
                for index in rows.indices where !rows[index].toMany.isEmpty {
                    let entityName = rows[index].objectID.entityName
                    let current: (entityName: String, storages: [String: SQLiteSchema.ToManyStorage], joins: Bool)
                    if let storageRun, storageRun.entityName == entityName {
                        current = storageRun
                    } else {
                        let storages = schema.toMany[entityName] ?? [:]
                        current = (entityName, storages, storages.values.contains { if case .joinTable = $0 { true } else { false } })
                        storageRun = current
                    }
                    guard current.joins || rows[index].toMany.values.contains(where: { !$0.isEmpty }) else { continue }
                    try writeToMany(rows[index], storages: current.storages, written: written)
                }
            }
        }
        try deleteRows(request.deleted.map(\.objectID))
    }

    /// The columns of `table` that some uniqueness constraint covers.
    private func constrainedColumns(_ table: SQLiteSchema.Table) -> [String] {
        var columns: Set<String> = []
        for entity in schema.model.entities where entity.rootEntityName == table.rootEntity {
            for property in entity.uniquenessConstraints.joined() {
                if let column = table.attributeColumns[property] ?? table.toOneColumns[property] { columns.insert(column) }
            }
        }
        return columns.sorted()
    }

    /// Runs a write of `snapshot`'s row, turning a broken uniqueness constraint into a
    /// ``StoreError/constraintConflict(_:)`` that names the object and the one holding the values.
    private func writingRow(of snapshot: ObjectSnapshot, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SQLiteError where error.code == 1555 {   // SQLITE_CONSTRAINT_PRIMARYKEY: the Z_PK is taken
            throw StoreError.duplicateObject(snapshot.objectID)
        } catch let error as SQLiteError where error.code == 2067 {   // SQLITE_CONSTRAINT_UNIQUE
            throw StoreError.constraintConflict([try conflict(of: snapshot)])
        }
    }

    /// The constraint of `snapshot`'s entity (or an ancestor) that another row already meets.
    private func conflict(of snapshot: ObjectSnapshot) throws -> ConstraintConflict {
        let table = try table(snapshot.objectID)
        var entity = schema.model.entity(named: snapshot.objectID.entityName)
        while let current = entity {
            for constraint in current.uniquenessConstraints {
                var clauses: [String] = []
                var values: [SQLiteValue] = []
                for property in constraint {
                    if let column = table.attributeColumns[property] {
                        clauses.append("\(column) = ?")
                        values.append(SQLiteValueCoding.encode(snapshot.attributes[property]))
                    } else if let column = table.toOneColumns[property], let destination = snapshot.toOne[property] {
                        clauses.append("\(column) = ?")
                        values.append(.integer(try key(destination)))
                    }
                }
                guard clauses.count == constraint.count else { continue }
                let rows = try connection.rows("SELECT Z_PK, Z_ENT FROM \(table.name) WHERE \(clauses.joined(separator: " AND ")) AND Z_PK != ?",
                                               values + [.integer(try key(snapshot.objectID))]) { ($0.int64(0), $0.int64(1)) }
                if let (otherKey, code) = rows.first, let name = schema.namesByCode[code] {
                    return ConstraintConflict(entityName: current.name, properties: constraint, objectID: snapshot.objectID,
                                              databaseObjectID: ManagedObjectID(entityName: name, storeIdentifier: storeIdentifier, primaryKey: otherKey))
                }
            }
            entity = current.superentityName.flatMap { schema.model.entity(named: $0) }
        }
        return ConstraintConflict(entityName: snapshot.objectID.entityName, properties: [], objectID: snapshot.objectID, databaseObjectID: nil)
    }

    /// Inserts the rows of `rows`, an entity's rows by statements of
    /// ``SQLiteRowLayout/rowsPerInsert`` rows and what is left of them one row a statement. The
    /// rows of each entity go in in their order, the entities in the order their first rows come:
    /// a save that inserts each book with its author groups both.
    private func insertRows(_ rows: UnsafeBufferPointer<ObjectSnapshot>) throws {
        var groups: [(layout: SQLiteRowLayout, members: [Int])] = []
        var groupOfEntity: [String: Int] = [:]
        var last: (entityName: String, group: Int)?
        for index in rows.indices {
            let entityName = rows[index].objectID.entityName
            let group: Int
            if let last, last.entityName == entityName {
                group = last.group
            } else if let known = groupOfEntity[entityName] {
                group = known
            } else {
                group = groups.count
                groups.append((try layout(rows[index].objectID), []))
                groupOfEntity[entityName] = group
            }
            last = (entityName, group)
            groups[group].members.append(index)
        }
        for (layout, members) in groups {
            // An entity's rows that come together (the usual case) are taken as a range.
            if let first = members.first, let last = members.last, last - first + 1 == members.count {
                try insert(rows, first..<(last + 1), layout)
            } else {
                try insert(rows, members[...], layout)
            }
        }
    }

    /// Inserts the rows of `rows` at `members`, all of `layout`'s entity: by statements of
    /// ``SQLiteRowLayout/rowsPerInsert`` rows, and what is left one row a statement.
    private func insert<Members: RandomAccessCollection<Int>>(
        _ rows: UnsafeBufferPointer<ObjectSnapshot>, _ members: Members, _ layout: SQLiteRowLayout
    ) throws where Members.Index == Int, Members.SubSequence == Members {
        var start = members.startIndex
        if layout.rowsPerInsert > 1 {
            while members.endIndex - start >= layout.rowsPerInsert {
                try insertInOneStatement(rows, members[start..<(start + layout.rowsPerInsert)], layout)
                start += layout.rowsPerInsert
            }
        }
        for member in start..<members.endIndex { try insertInOneStatement(rows, members[member...member], layout) }
    }

    /// Inserts the rows of `rows` at `members`, all of `layout`'s entity, with one statement: one
    /// row, or ``SQLiteRowLayout/rowsPerInsert`` of them. Each value is bound straight to the
    /// prepared insert (`Z_PK, Z_ENT, Z_OPT` and every column in the order of `layout`, without an
    /// array of them per row).
    private func insertInOneStatement<Members: RandomAccessCollection<Int>>(
        _ rows: UnsafeBufferPointer<ObjectSnapshot>, _ members: Members, _ layout: SQLiteRowLayout
    ) throws where Members.Index == Int, Members.SubSequence == Members {
        let statement: SQLiteStatement
        if members.count == 1 {
            statement = try layout.insertStatement ?? connection.statement(layout.insertSQL)
            layout.insertStatement = statement
        } else {
            statement = try layout.insertRowsStatement ?? connection.statement(layout.insertRowsSQL)
            layout.insertRowsStatement = statement
        }
        let bind = {
            statement.reset()
            for (place, row) in members.enumerated() {
                let first = place * layout.width
                try statement.bind(.integer(try key(rows[row].objectID)), at: first)
                try statement.bind(.integer(layout.code), at: first + 1)
                try statement.bind(.integer(rows[row].version), at: first + 2)
                for position in layout.unfilledPositions { try statement.bind(.null, at: first + position) }
                for toOne in layout.toOnes {
                    let value: SQLiteValue = if let destination = rows[row].toOne[toOne.name] { .integer(try key(destination)) } else { .null }
                    try statement.bind(value, at: first + toOne.position)
                }
            }
            // Cleared whether the rows went in or a bind failed part-way: no parameter is left
            // pointing at bytes that are gone.
            defer { statement.clearBindings() }
            try Self.bindAttributes(of: rows, members, place: 0, from: 0, layout, to: statement)
        }
        guard members.count > 1 else { return try writingRow(of: rows[members[members.startIndex]], bind) }
        do {
            try bind()
        } catch let error as SQLiteError where error.primaryCode == 19 {   // SQLITE_CONSTRAINT
            // `INSERT OR FAIL` stops at the row in conflict and keeps the rows before it (the
            // save's transaction goes back whole when the save fails): that row, and any after
            // it, are inserted alone, which names the row in conflict as an insert of one does.
            let inserted = min(max(connection.changes, 0), members.count)
            for member in (members.startIndex + inserted)..<members.endIndex { try insertInOneStatement(rows, members[member...member], layout) }
        }
    }

    /// Binds the attributes of the rows of `rows` at `members`, from `layout.attributes[first]` of
    /// the row at `place` among them on, then runs `statement`. Non-empty text and bytes are
    /// bound where they are, without SQLite copying them: the rest of the rows are bound, and the
    /// statement run, within the call that keeps them there; the caller clears the bindings once
    /// it returns or throws.
    private static func bindAttributes<Members: RandomAccessCollection<Int>>(
        of rows: UnsafeBufferPointer<ObjectSnapshot>, _ members: Members, place: Int, from first: Int,
        _ layout: SQLiteRowLayout, to statement: SQLiteStatement
    ) throws where Members.Index == Int {
        var place = place
        var index = first
        while place < members.count {
            let row = members[members.startIndex + place]
            let start = place * layout.width
            while index < layout.attributes.count {
                let position = start + layout.attributes[index].position
                let value = rows[row].attributes.value(at: layout.attributes[index].slot, of: layout.attributeLayout)
                index += 1
                let (next, following) = (place, index)
                switch value {
                case .string(let text)?:
                    return try statement.withBytes(of: text, boundAt: position) {
                        try bindAttributes(of: rows, members, place: next, from: following, layout, to: statement)
                    }
                case .binary(let data)?:
                    return try statement.withBytes(of: data, boundAt: position) {
                        try bindAttributes(of: rows, members, place: next, from: following, layout, to: statement)
                    }
                default:
                    try statement.bind(SQLiteValueCoding.encode(value), at: position)
                }
            }
            place += 1
            index = 0
        }
        try statement.runBound()
    }

    /// Writes `snapshot`'s row by `update`, with the next optimistic-locking version, when the
    /// row holds the version and entity the snapshot was read with; false when it does not (a
    /// conflict, or a row gone), and nothing was written. `update` sets the columns of the
    /// properties the save changed (the row holds the version the saver read, so the other
    /// columns hold their values already), or every column. A column left alone leaves the
    /// indexes on it alone too. Each value is bound from the snapshot as it is read: no row of
    /// values is built.
    private func update(_ snapshot: ObjectSnapshot, with update: SQLiteRowLayout.RowUpdate, _ layout: SQLiteRowLayout) throws -> Bool {
        let statement = try update.statement ?? connection.statement(update.sql)
        update.statement = statement
        try writingRow(of: snapshot) {
            // Every parameter is bound below: none keeps the last row's value.
            statement.reset()
            try statement.bind(.integer(snapshot.version &+ 1), at: 0)   // wrapping, as contexts count
            for (place, position) in update.positions.enumerated() {
                try statement.bind(try columnValue(of: snapshot, at: position, layout), at: place + 1)
            }
            let next = update.positions.count + 1
            try statement.bind(.integer(try key(snapshot.objectID)), at: next)
            try statement.bind(.integer(snapshot.version), at: next + 1)
            try statement.bind(.integer(layout.code), at: next + 2)
            try statement.runBound()
        }
        return connection.changes == 1
    }

    /// The value `snapshot`'s row holds in the column at `position` of `layout`: an attribute's
    /// value or a to-one's key; NULL for no value, for columns of other entities of the tree and
    /// for order columns (set by the to-many side).
    private func columnValue(of snapshot: ObjectSnapshot, at position: Int, _ layout: SQLiteRowLayout) throws -> SQLiteValue {
        switch layout.filling(position) {
        case .attribute(let index):
            let attribute = layout.attributes[index]
            guard let value = snapshot.attributes.value(at: attribute.slot, of: layout.attributeLayout) else { return .null }
            return SQLiteValueCoding.encode(value)
        case .toOne(let index):
            guard let destination = snapshot.toOne[layout.toOnes[index].name] else { return .null }
            return .integer(try key(destination))
        case .nothing:
            return .null
        }
    }

    /// Writes the to-manys a snapshot carries (absent ones are unchanged). A destination whose
    /// row this save wrote whole (`written`: their to-ones, by ID) with the owner in the inverse
    /// to-one already holds the foreign key.
    private func writeToMany(_ snapshot: borrowing ObjectSnapshot, storages: [String: SQLiteSchema.ToManyStorage]? = nil,
                             written: WrittenRows = WrittenRows()) throws {
        let owner = try key(snapshot.objectID)
        // The entity's storages, as the caller looked them up or looked up here.
        let storages = storages ?? schema.toMany[snapshot.objectID.entityName] ?? [:]
        for (name, destinations) in snapshot.toMany {
            guard let storage = storages[name] else { continue }
            switch storage {
            case let .inverseForeignKey(table, column, orderColumn, inverse):
                for index in destinations.indices {
                    if orderColumn == nil, written.holds(inverse, of: destinations[index], pointingTo: snapshot.objectID) { continue }
                    let destination = destinations[index]
                    if let orderColumn {
                        try connection.run("UPDATE \(table) SET \(column) = ?, \(orderColumn) = ? WHERE Z_PK = ?",
                                           [.integer(owner), .integer(Int64(index + 1)), .integer(try key(destination))])
                    } else {
                        try connection.run("UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?", [.integer(owner), .integer(try key(destination))])
                    }
                }
            case let .joinTable(index, reversed):
                let join = schema.joinTables[index]
                let (mine, theirs, order) = reversed
                    ? (join.destinationColumn, join.sourceColumn, join.inverseOrderColumn)
                    : (join.sourceColumn, join.destinationColumn, join.orderColumn)
                let wanted = try destinations.map { try key($0) }
                let keep = Set(wanted)
                let existing = try connection.rows("SELECT \(theirs) FROM \(join.name) WHERE \(mine) = ?", [.integer(owner)]) { $0.int64(0) }
                for gone in existing where !keep.contains(gone) {
                    try connection.run("DELETE FROM \(join.name) WHERE \(mine) = ? AND \(theirs) = ?", [.integer(owner), .integer(gone)])
                }
                let present = Set(existing)
                for (position, destination) in wanted.enumerated() {
                    if let order {
                        try connection.run("""
                            INSERT INTO \(join.name) (\(mine), \(theirs), \(order)) VALUES (?, ?, ?) \
                            ON CONFLICT (\(join.sourceColumn), \(join.destinationColumn)) DO UPDATE SET \(order) = excluded.\(order)
                            """, [.integer(owner), .integer(destination), .integer(Int64(position + 1))])
                    } else if !present.contains(destination) {
                        try connection.run("INSERT OR IGNORE INTO \(join.name) (\(mine), \(theirs)) VALUES (?, ?)",
                                           [.integer(owner), .integer(destination)])
                    }
                }
            }
        }
    }

    /// Deletes the rows of `ids` and their rows in join tables, table by table, with one
    /// statement per `IN` list of keys rather than per row.
    private func deleteRows(_ ids: [ManagedObjectID]) throws {
        for (table, members) in try byTable(ids) {
            let keys = members.map(\.key)
            // The join-table columns that hold keys of this table's rows.
            var joinColumns: [(table: String, column: String)] = []
            for join in schema.joinTables {
                let source = schema.model.entity(named: join.entity)
                let destinationRoot = source?.relationship(named: join.relationship)
                    .flatMap { schema.model.entity(named: $0.destinationEntityName)?.rootEntityName }
                if source?.rootEntityName == table.rootEntity { joinColumns.append((join.name, join.sourceColumn)) }
                if destinationRoot == table.rootEntity { joinColumns.append((join.name, join.destinationColumn)) }
            }
            for list in BatchSQL.inLists(keys) {
                try connection.run("DELETE FROM \(table.name) WHERE Z_PK IN (\(list.marks))", list.values)
                for (joinTable, column) in joinColumns {
                    try connection.run("DELETE FROM \(joinTable) WHERE \(column) IN (\(list.marks))", list.values)
                }
            }
        }
    }

    /// Raises each inheritance root's `Z_MAX` to the highest key among `inserted`: one statement
    /// per root, not per row.
    private func raisePrimaryKeyCounters(for inserted: [ObjectSnapshot]) throws {
        var highestByEntity: [String: Int64] = [:]
        // Saves list objects entity by entity: the entity is looked up when it changes.
        var run: (entity: String, highest: Int64)?
        func endRun() {
            guard let run else { return }
            highestByEntity[run.entity] = max(highestByEntity[run.entity] ?? run.highest, run.highest)
        }
        for index in inserted.indices {
            guard let key = inserted[index].objectID.primaryKey else { continue }
            if let current = run, current.entity == inserted[index].objectID.entityName {
                run = (current.entity, max(current.highest, key))
            } else {
                endRun()
                run = (inserted[index].objectID.entityName, key)
            }
        }
        endRun()
        var highest: [String: Int64] = [:]
        for (entity, key) in highestByEntity {
            guard let table = schema.table(for: entity) else { continue }
            highest[table.rootEntity] = max(highest[table.rootEntity] ?? key, key)
        }
        for (root, key) in highest {
            try connection.run("UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, ?) WHERE Z_NAME = ?", [.integer(key), .text(root)])
        }
    }

    /// Replaces every row with the objects of `image`, its primary-key counters included.
    func replaceAll(with image: StoreImage) throws {
        for table in schema.tables.values { try connection.run("DELETE FROM \(table.name)") }
        for join in schema.joinTables { try connection.run("DELETE FROM \(join.name)") }
        try connection.run("UPDATE Z_PRIMARYKEY SET Z_MAX = 0")
        let ordered = image.orderedObjects
        // By slices of StoreProgress.interval rows, so that progress is heard as they go.
        try ordered.withUnsafeBufferPointer { rows in
            for start in stride(from: 0, to: rows.count, by: StoreProgress.interval) {
                let end = min(start + StoreProgress.interval, rows.count)
                try insertRows(UnsafeBufferPointer(rebasing: rows[start..<end]))
                StoreProgress.report(.writing, done: end, total: rows.count, force: true)
            }
        }
        try raisePrimaryKeyCounters(for: ordered)
        for snapshot in ordered { try writeToMany(snapshot) }
        StoreProgress.report(.writing, done: ordered.count, total: ordered.count, force: true)
        for (root, next) in image.nextPrimaryKeys where schema.tables[root] != nil {
            try connection.run("UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, ?) WHERE Z_NAME = ?", [.integer(next - 1), .text(root)])
        }
    }
}

/// The to-ones of the rows a save writes whole, found by primary key (no ID is copied to
/// compare): what lets the inverse to-many skip foreign keys already written. The rows are the
/// save's own snapshots, shared, not copied.
///
/// Where each row is, is kept as runs: rows of one entity that follow each other in the save's
/// lists with keys one apart (how new objects get their keys) are one run, found by the entity's
/// ID scope and a binary search of its runs. A save of 50,000 new rows with to-ones holds one
/// run where a table by key held 2 MB. A row not found (its ID made with a scope of its own) is
/// written again from the to-many side, which is correct, only slower.
struct WrittenRows {
    /// Consecutive rows with to-ones: keys `firstKey…`, at `firstPosition…` in the save's lists.
    private struct Run {
        let firstKey: Int64
        var count: Int
        let firstPosition: Int
    }

    private let inserted: [ObjectSnapshot]
    private let updated: [ObjectSnapshot]
    /// Each entity's runs, by the identity of its IDs' scope, in the order of their keys. A
    /// position is in `inserted`, or past its end in `updated`.
    private var runs: [ObjectIdentifier: [Run]] = [:]

    /// No rows.
    init() {
        inserted = []
        updated = []
    }

    /// The rows of `inserted` and `updated` that have to-ones.
    init(inserted: [ObjectSnapshot], updated: [ObjectSnapshot]) {
        self.inserted = inserted
        self.updated = updated
        // The run being extended, added to its entity's list when the next row does not continue it.
        var current: (scope: ObjectIdentifier, run: Run)?
        func add(_ rows: UnsafeBufferPointer<ObjectSnapshot>, from offset: Int) {
            for index in rows.indices where !rows[index].toOne.isEmpty {
                guard let key = rows[index].objectID.primaryKey else { continue }
                let scope = ObjectIdentifier(rows[index].objectID.scope)
                let position = offset + index
                if let run = current?.run, current?.scope == scope,
                   run.firstKey &+ Int64(run.count) == key, run.firstPosition + run.count == position {
                    current!.run.count += 1
                    continue
                }
                if let current { runs[current.scope, default: []].append(current.run) }
                current = (scope, Run(firstKey: key, count: 1, firstPosition: position))
            }
        }
        inserted.withUnsafeBufferPointer { add($0, from: 0) }
        updated.withUnsafeBufferPointer { add($0, from: inserted.count) }
        if let current { runs[current.scope, default: []].append(current.run) }
        // Keys come in order within a save's new rows; updated rows, and new rows after them, may not.
        for scope in runs.keys {
            let sorted = zip(runs[scope]!, runs[scope]!.dropFirst()).allSatisfy { $0.firstKey < $1.firstKey }
            if !sorted { runs[scope]!.sort { $0.firstKey < $1.firstKey } }
        }
    }

    /// The position of the row with to-ones of `scope` and `key`, if the save wrote one.
    private func position(of key: Int64, in scope: ObjectIdentifier) -> Int? {
        guard let scopeRuns = runs[scope] else { return nil }
        // The last run that starts at or before `key`; a scope's keys are unique, so runs do not overlap.
        var low = 0, high = scopeRuns.count
        while low < high {
            let middle = (low + high) / 2
            if scopeRuns[middle].firstKey <= key { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let run = scopeRuns[low - 1]
        let offset = key - run.firstKey
        return offset < Int64(run.count) ? run.firstPosition + Int(offset) : nil
    }

    /// Whether this save wrote `id`'s row whole with `owner` in its to-one `name`.
    func holds(_ name: String, of id: ManagedObjectID, pointingTo owner: ManagedObjectID) -> Bool {
        guard let key = id.primaryKey, let position = position(of: key, in: ObjectIdentifier(id.scope)) else { return false }
        // Read in place, through the list's buffer: a row or a to-one taken out would be copied.
        func holds(_ rows: UnsafeBufferPointer<ObjectSnapshot>, at index: Int) -> Bool {
            rows[index].objectID == id && rows[index].toOne.holds(owner, for: name)
        }
        return position < inserted.count
            ? inserted.withUnsafeBufferPointer { holds($0, at: position) }
            : updated.withUnsafeBufferPointer { holds($0, at: position - inserted.count) }
    }
}
