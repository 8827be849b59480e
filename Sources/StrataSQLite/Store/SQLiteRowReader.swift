import Foundation
@_spi(StoreImplementation) import StrataCore

/// Reads rows into snapshots: one object, the objects of some entities, a to-many's destinations,
/// or everything. Lives for one call under the store's lock; caches what it read.
final class SQLiteRowReader: SnapshotSource {
    private let connection: SQLiteConnection
    private let schema: SQLiteSchema
    private let storeIdentifier: String
    private var cache: [ManagedObjectID: ObjectSnapshot] = [:]
    private let layouts: SQLiteRowLayouts
    /// Whether a row read held a number stored as a BLOB (NaN, −0.0, a decimal of more than 15
    /// digits), which SQL orders after every other number.
    private(set) var readNumberStoredAsBlob = false
    /// The coordinator's cached rows, when a fetch may return them for the rows it reads at the
    /// version cached, instead of decoding the values again.
    var cachedRows: CachedRows? {
        didSet { lastCachedEntity = nil }
    }
    /// The to-one map of the last row read whose entity has one to-one, with its destination's
    /// key: rows that follow with the same destination share it.
    private var lastToOne: (layout: SQLiteRowLayout, destinationKey: Int64, resolved: Bool, map: NameMap<ManagedObjectID>)?

    init(connection: SQLiteConnection, schema: SQLiteSchema, storeIdentifier: String, layouts: SQLiteRowLayouts) {
        self.connection = connection
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.ids = ObjectIDMaker(storeIdentifier: storeIdentifier)
        self.layouts = layouts
    }

    private var file: String { connection.path }

    /// `Z_PK, Z_ENT, Z_OPT, <every column>` of `table`.
    private func selectList(_ table: SQLiteSchema.Table) -> String {
        layouts.selectList(table)
    }

    // Unchecked exclusivity: used for every row read, on the fetch's thread only; the run-time check costs more than the lookup.
    /// Makes the IDs of the rows read and of their to-ones' destinations, run after run.
    @exclusivity(unchecked) private var ids: ObjectIDMaker

    private func id(_ entity: String, _ key: Int64) -> ManagedObjectID {
        ids.objectID(entityName: entity, primaryKey: key)
    }

    /// The entity of the row `key` in the tree of `entity`: `entity` itself when it has no
    /// sub-entities, else the row's `Z_ENT`.
    private func entityOfRow(_ key: Int64, kindOf entity: String) throws -> String? {
        guard let description = schema.model.entity(named: entity) else { return nil }
        if description.subentityNames.isEmpty { return entity }
        guard let table = schema.tables[description.rootEntityName],
              case .integer(let code)? = try connection.scalar("SELECT Z_ENT FROM \(table.name) WHERE Z_PK = ?", [.integer(key)]) else {
            return nil
        }
        return schema.namesByCode[code]
    }

    /// The entity of the current row of `row`, whose `Z_PK` and `Z_ENT` are its first two columns:
    /// as for a whole row, one of the entities stored in `table`.
    private func entityName(_ row: SQLiteStatement, _ table: SQLiteSchema.Table) throws -> String {
        try withLayout(of: row, in: table) { $0.entityName }
    }

    /// The code, the table and the layout of the rows read last: rows of one entity come in runs,
    /// and a row of the same code in the same table is checked by comparing a number and the
    /// words of a name. The layout is held by ``layouts`` for as long as this reader lives.
    // Unmanaged: `layouts` keeps the layout alive; no retain and release for each row read.
    private var lastRow: (code: Int64, table: NameIdentity, layout: Unmanaged<SQLiteRowLayout>)?
    /// The entity whose rows ``cachedRows`` was asked for last, and whether it may hold any: a
    /// fetch of rows the cache holds none of asks once per entity, not once per row.
    // Unmanaged: compared by address only, and `layouts` keeps the layout alive.
    private var lastCachedEntity: (layout: Unmanaged<SQLiteRowLayout>, mayHoldRows: Bool)?

    /// Runs `body` with the layout of the entity of the current row of `row`, whose `Z_ENT` is its
    /// second column, not retained; throws when the code is of no entity stored in `table`.
    @inline(__always)
    private func withLayout<Result>(of row: SQLiteStatement, in table: SQLiteSchema.Table,
                                    _ body: (SQLiteRowLayout) throws -> Result) throws -> Result {
        let code = row.int64(1)
        if let lastRow, lastRow.code == code, lastRow.table == NameIdentity(table.name) {
            return try lastRow.layout._withUnsafeGuaranteedRef(body)
        }
        guard let layout = layouts.layout(code: code), layout.table.name == table.name else { throw unknownEntity(row, table) }
        lastRow = (code, NameIdentity(table.name), Unmanaged.passUnretained(layout))
        return try body(layout)
    }

    /// The error for a row of `table` whose `Z_ENT` names no entity of the table.
    private func unknownEntity(_ row: SQLiteStatement, _ table: SQLiteSchema.Table) -> StoreError {
        StoreError.corruptStore(file: file, offset: nil, reason: "\(table.name) row \(row.int64(0)) has unknown Z_ENT \(row.int64(1))")
    }

    /// The snapshot in the current row of `statement` (selected with ``selectList(_:)``), read
    /// by position with the layout of the row's entity.
    private func snapshot(_ row: SQLiteStatement, _ table: SQLiteSchema.Table, resolvingToOnes: Bool = true) throws -> ObjectSnapshot {
        try withLayout(of: row, in: table) { layout in try snapshot(row, layout, resolvingToOnes: resolvingToOnes) }
    }

    /// Whether ``cachedRows`` may hold rows of the entity of `layout`, asked once per run of its
    /// rows; a repeat is answered without touching (retaining) the cached rows.
    @inline(__always)
    private func mayHoldCachedRows(of layout: SQLiteRowLayout) -> Bool {
        if let lastCachedEntity, lastCachedEntity.layout.toOpaque() == Unmanaged.passUnretained(layout).toOpaque() {
            return lastCachedEntity.mayHoldRows
        }
        guard let cachedRows else { return false }
        let answer = cachedRows.mayHoldRows(of: layout.entityName)
        lastCachedEntity = (Unmanaged.passUnretained(layout), answer)
        return answer
    }

    /// The snapshot in the current row of `row`, of the entity of `layout`.
    @inline(__always)
    private func snapshot(_ row: SQLiteStatement, _ layout: SQLiteRowLayout, resolvingToOnes: Bool) throws -> ObjectSnapshot {
        let key = row.int64(0)
        if mayHoldCachedRows(of: layout), let cachedRows,
           let cached = cachedRows.row(entityName: layout.entityName, primaryKey: key, version: row.int64(2)) {
            // The values are not decoded: only whether a number among them sits in a BLOB is read.
            for position in layout.inexactNumberPositions where row.column(position).storageClass == .blob {
                readNumberStoredAsBlob = true
            }
            return cached
        }
        let attributes = try attributeValues(row, layout, key: key)
        let toOnes = try toOneIDs(row, layout, resolvingToOnes: resolvingToOnes)
        // Made whole at the end: a snapshot made first and filled in is copied on the way out.
        return ObjectSnapshot(objectID: id(layout.entityName, key), version: row.int64(2), attributes: attributes, toOne: toOnes)
    }

    /// The to-one destinations in the current row of `row`, laid out as `layout`'s entity's.
    ///
    /// A row with one to-one whose destination is the previous such row's (the books of one
    /// author, read in key order) shares that row's map: one allocation per run of rows rather
    /// than one per row.
    private func toOneIDs(_ row: SQLiteStatement, _ layout: SQLiteRowLayout, resolvingToOnes: Bool) throws -> NameMap<ManagedObjectID> {
        let foreignKeys = layout.toOnes
        if foreignKeys.count == 1 {
            let column = row.column(foreignKeys[0].position)
            guard !column.isNull else { return NameMap() }
            let destinationKey = column.int64
            if let last = lastToOne, last.layout === layout, last.destinationKey == destinationKey, last.resolved == resolvingToOnes {
                return last.map
            }
            let map = try toOneIDs(row, layout, foreignKeys, resolvingToOnes: resolvingToOnes)
            lastToOne = (layout, destinationKey, resolvingToOnes, map)
            return map
        }
        return try toOneIDs(row, layout, foreignKeys, resolvingToOnes: resolvingToOnes)
    }

    /// The destinations of `foreignKeys` in the current row of `row`, each read anew.
    private func toOneIDs(_ row: SQLiteStatement, _ layout: SQLiteRowLayout, _ foreignKeys: [SQLiteRowLayout.ToOne],
                          resolvingToOnes: Bool) throws -> NameMap<ManagedObjectID> {
        var toOnes = NameMap<ManagedObjectID>()
        for index in foreignKeys.indices {
            let column = row.column(foreignKeys[index].position)
            guard !column.isNull else { continue }
            let destinationKey = column.int64
            if resolvingToOnes, foreignKeys[index].destinationHasSubentities {
                if let destination = try entityOfRow(destinationKey, kindOf: foreignKeys[index].destinationEntityName) {
                    toOnes[foreignKeys[index].name] = id(destination, destinationKey)
                }
            } else {
                toOnes[foreignKeys[index].name] = id(foreignKeys[index].destinationEntityName, destinationKey)
            }
        }
        return toOnes
    }

    /// The attribute values in the current row of `row`, laid out as `layout`'s entity's: each
    /// decoded into its slot as the values are made.
    private func attributeValues(_ row: SQLiteStatement, _ layout: SQLiteRowLayout, key: Int64) throws -> AttributeValues {
        let attributeAtSlot = layout.attributeAtSlot
        return try AttributeValues(layout: layout.attributeLayout) { slot in
            guard slot < attributeAtSlot.count, attributeAtSlot[slot] >= 0 else { return nil }
            return try attributeValue(row, layout, column: attributeAtSlot[slot], key: key)
        }
    }

    /// The value of the attribute `layout.attributes[column]` in the current row of `row`.
    @inline(__always)
    private func attributeValue(_ row: SQLiteStatement, _ layout: SQLiteRowLayout, column attribute: Int, key: Int64) throws -> AttributeValue? {
        let (type, position) = (layout.columnReads[attribute].type, layout.columnReads[attribute].position)
        // What the store writes for each type is read straight from the row, with what
        // `SQLiteValueCoding.decode` makes of it; anything else (a number stored as text or as a
        // BLOB, a value written by another program) is decoded from its SQLite value.
        let column = row.column(position)
        switch (column.storageClass, type) {
        case (.null, _): return nil
        case (.integer, .integer64): return .integer(column.int64)
        case (.integer, .integer32), (.integer, .integer16):
            // A number outside the type's range, written by another program, goes the slow way
            // and is refused there.
            let integer = column.int64
            if SQLiteValueCoding.fits(integer, type) { return .integer(integer) }
        case (.integer, .boolean):
            let integer = column.int64
            if integer & ~1 == 0 { return .boolean(integer != 0) }
        case (.real, .double): return .double(column.double)
        case (.real, .date): return .date(Date(timeIntervalSinceReferenceDate: column.double))
        case (.text, .string): return .string(column.text)
        case (.blob, .binaryData): return .binary(column.blobBytes)
        default: break
        }
        do {
            let value = row.value(position)
            if case .blob = value, type.storesInexactNumbersAsBlobs { readNumberStoredAsBlob = true }
            return try SQLiteValueCoding.decode(value, as: type)
        } catch {
            throw StoreError.invalidStoredValue(StoredValueProblem(
                file: file, entityName: layout.entityName, object: id(layout.entityName, key).uriRepresentation.absoluteString,
                attribute: layout.attributes[attribute].name, type: type, found: error.foundDescription))
        }
    }

    /// The entity codes of `entityNames`, by the table that holds them.
    private func codesByTable(_ entityNames: Set<String>) -> [(SQLiteSchema.Table, [Int64])] {
        var grouped: [String: [Int64]] = [:]
        for name in entityNames {
            guard let entity = schema.model.entity(named: name), let code = schema.codes[name] else { continue }
            grouped[entity.rootEntityName, default: []].append(code)
        }
        return grouped.keys.sorted().compactMap { root in schema.tables[root].map { ($0, grouped[root, default: []].sorted()) } }
    }

    /// Every object of the entities `entityNames` (each named entity exactly, not its
    /// sub-entities unless they are named too), to-manys not loaded.
    func snapshots(ofEntities entityNames: Set<String>) throws -> [ObjectSnapshot] {
        var result: [ObjectSnapshot] = []
        for (table, codes) in codesByTable(entityNames) {
            let condition = schema.entityCondition(codes, in: table)
            let sql = "SELECT \(selectList(table)) FROM \(table.name)\(condition.sql) ORDER BY Z_PK"
            let statement = try connection.statement(sql)
            try statement.forEachRow(condition.values) { row in
                let snapshot = try snapshot(row, table)
                cache[snapshot.objectID] = snapshot
                result.append(snapshot)
            }
            statement.reset()
        }
        return result
    }

    /// `Z_PK, Z_ENT, Z_OPT` and, with `includesValues`, every column of `table`, each after
    /// `alias.`: the select list ``snapshots(_:table:includesValues:)`` reads.
    static func selectList(_ table: SQLiteSchema.Table, alias: String, includesValues: Bool) -> String {
        let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + (includesValues ? table.columns.map(\.name) : [])
        return columns.map { "\(alias).\($0)" }.joined(separator: ", ")
    }

    /// Appends the object of each row a query selects to `list`, in its order, as the row is read,
    /// and hands `hand` the list each time it holds `runLength` snapshots. The query selects
    /// ``selectList(_:alias:includesValues:)`` of `table`; without values the snapshots carry
    /// only IDs and versions. With `caching`, the snapshots are kept for key paths that lead
    /// back to them (when memory has work left); without, they are not kept at all.
    func snapshots(_ query: SQLFragment, table: SQLiteSchema.Table, includesValues: Bool, caching: Bool,
                   into list: inout [ObjectSnapshot], runLength: Int,
                   handing hand: (inout [ObjectSnapshot]) throws -> Void) throws {
        let statement = try connection.statement(query.sql)
        defer { statement.reset() }
        try statement.forEachRow(query.parameters) { row in
            if includesValues {
                let snapshot = try snapshot(row, table)
                if caching { cache[snapshot.objectID] = snapshot }
                list.append(consume snapshot)
            } else {
                list.append(ObjectSnapshot(objectID: id(try entityName(row, table), row.int64(0)), version: row.int64(2)))
            }
            if list.count >= runLength { try hand(&list) }
        }
    }

    /// Appends the object of each row `keysQuery` selects to `list`, in its order, and hands
    /// `hand` the list each time it holds `runLength` snapshots, as
    /// ``snapshots(_:table:includesValues:caching:into:runLength:handing:)`` does; but the query
    /// selects only each row's `Z_PK`, `Z_ENT` and `Z_OPT` (and, with `checksBlobs`, a fourth
    /// column that is 1 where a sort key holds a number stored as a BLOB). A row that
    /// ``cachedRows`` holds at that version is taken from it; the others are read whole by key
    /// (``fillMissing(_:in:table:)``) before their run is handed on. SQLite then sorts and hands
    /// over three numbers a row instead of every column.
    ///
    /// The caller runs it in one read transaction, so that the rows read by key are the ones
    /// the query selected.
    func snapshotsCachedFirst(_ keysQuery: SQLFragment, table: SQLiteSchema.Table, checksBlobs: Bool,
                              into list: inout [ObjectSnapshot], runLength: Int,
                              handing hand: (inout [ObjectSnapshot]) throws -> Void) throws {
        var missing: [Int64: Int] = [:]
        let statement = try connection.statement(keysQuery.sql)
        defer { statement.reset() }
        try statement.forEachRow(keysQuery.parameters) { row in
            if checksBlobs, row.int64(3) != 0 { readNumberStoredAsBlob = true }
            let key = row.int64(0)
            let version = row.int64(2)
            try withLayout(of: row, in: table) { layout in
                if mayHoldCachedRows(of: layout), let cachedRows,
                   let cached = cachedRows.row(entityName: layout.entityName, primaryKey: key, version: version) {
                    list.append(cached)
                } else {
                    missing[key] = list.count
                    list.append(ObjectSnapshot(objectID: id(layout.entityName, key), version: version))
                }
            }
            if list.count >= runLength {
                try fillMissing(&missing, in: &list, table: table)
                try hand(&list)
            }
        }
        try fillMissing(&missing, in: &list, table: table)
    }

    /// Reads whole the rows of `table` whose keys `missing` holds and puts each snapshot at its
    /// place in `list`, `IN` lists of at most 512 keys; empties `missing`. A row not found (which
    /// a read transaction rules out) is taken out of the list.
    private func fillMissing(_ missing: inout [Int64: Int], in list: inout [ObjectSnapshot], table: SQLiteSchema.Table) throws {
        guard !missing.isEmpty else { return }
        try forEachRow(of: table, keys: missing.keys.sorted()) { row in
            guard let place = missing.removeValue(forKey: row.int64(0)) else { return }
            list[place] = try snapshot(row, table)
        }
        if !missing.isEmpty {
            for place in missing.values.sorted(by: >) { list.remove(at: place) }
            missing.removeAll()
        }
    }

    /// The IDs of the objects a query selects, in its order; the query selects `Z_PK, Z_ENT`
    /// first, as ``selectList(_:alias:includesValues:)`` does.
    func objectIDs(_ query: SQLFragment, table: SQLiteSchema.Table) throws -> ObjectIDList {
        var result = ObjectIDList()
        let statement = try connection.statement(query.sql)
        defer { statement.reset() }
        try statement.forEachRow(query.parameters) { row in
            result.append(entityName: try entityName(row, table), storeIdentifier: storeIdentifier, primaryKey: row.int64(0))
        }
        return result
    }

    /// How many objects the entities `entityNames` have; nil when the entities fill a table that
    /// `strayRows` says may hold a row of a code none of them has, which
    /// ``snapshots(ofEntities:)`` would report: only reading the rows gives the answer then.
    func count(ofEntities entityNames: Set<String>, strayRows: SQLiteStrayRowCheck) throws -> Int? {
        var total = 0
        for (table, codes) in codesByTable(entityNames) {
            let condition = schema.entityCondition(codes, in: table)
            if condition.sql.isEmpty, try strayRows.mayHoldStrayRows(table, connection: connection) { return nil }
            if case .integer(let count)? = try connection.scalar("SELECT count(*) FROM \(table.name)\(condition.sql)", condition.values) {
                total += Int(count)
            }
        }
        return total
    }

    /// One object's snapshot, to-manys not loaded; nil when the row does not exist or is of
    /// another entity.
    func snapshot(for objectID: ManagedObjectID) throws -> ObjectSnapshot? {
        if let cached = cache[objectID] { return cached }
        guard objectID.storeIdentifier == storeIdentifier, let key = objectID.primaryKey,
              let table = schema.table(for: objectID.entityName) else { return nil }
        let statement = try connection.statement("SELECT \(selectList(table)) FROM \(table.name) WHERE Z_PK = ?")
        try statement.bind([.integer(key)])
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let found = try snapshot(statement, table)
        guard found.objectID == objectID else { return nil }
        cache[objectID] = found
        return found
    }

    /// The snapshots of many objects in one query per table and `IN` list (at most 512 keys);
    /// objects the store does not have, or that are of another entity, are left out. In the
    /// order asked.
    func snapshots(for objectIDs: [ManagedObjectID]) throws -> [ObjectSnapshot] {
        // The keys to read, by table; runs of IDs of one entity (the usual case) look the
        // entity's table up once.
        var groups: [(table: SQLiteSchema.Table, keys: [Int64])] = []
        var groupOfTable: [String: Int] = [:]
        var run: (entityName: String, group: Int?)?
        for id in objectIDs where id.storeIdentifier == storeIdentifier {
            guard let key = id.primaryKey else { continue }
            if run?.entityName != id.entityName {
                run = (id.entityName, schema.table(for: id.entityName).map { table in
                    if let known = groupOfTable[table.name] { return known }
                    groups.append((table, []))
                    groupOfTable[table.name] = groups.count - 1
                    return groups.count - 1
                })
            }
            guard let group = run?.group else { continue }
            groups[group].keys.append(key)
        }
        cache.reserveCapacity(cache.count + objectIDs.count)
        for (table, keys) in groups {
            try forEachRow(of: table, keys: keys) { row in
                let found = try snapshot(row, table)
                cache[found.objectID] = found
            }
        }
        return objectIDs.compactMap { cache[$0] }
    }

    /// Runs `body` on each whole row of `table` whose `Z_PK` is among `keys` (selected with
    /// ``selectList(_:)``), `IN` lists of at most 512 keys, each row once, in no promised order.
    private func forEachRow(of table: SQLiteSchema.Table, keys: [Int64], _ body: (SQLiteStatement) throws -> Void) throws {
        for list in BatchSQL.inLists(keys) {
            let statement = try connection.statement("SELECT \(selectList(table)) FROM \(table.name) WHERE Z_PK IN (\(list.marks))")
            defer { statement.reset() }
            try statement.forEachRow(list.values, body)
        }
    }

    func toMany(of snapshot: ObjectSnapshot, relationship: String) throws -> [ManagedObjectID] {
        if let loaded = snapshot.toMany[relationship] { return loaded }
        return try relatedObjectIDs(of: snapshot.objectID, relationship: relationship)
    }

    /// The destinations of one object's to-many, in order (ordered relationships by their order
    /// column; others in the order they were written).
    func relatedObjectIDs(of objectID: ManagedObjectID, relationship name: String) throws -> [ManagedObjectID] {
        guard let key = objectID.primaryKey, let storage = schema.toMany[objectID.entityName]?[name],
              let relationship = schema.model.entity(named: objectID.entityName)?.relationship(named: name),
              let destinationRoot = schema.table(for: relationship.destinationEntityName) else { return [] }
        let sql: String
        switch storage {
        case let .inverseForeignKey(table, column, orderColumn, _):
            sql = "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) = ? ORDER BY \(orderColumn.map { "\($0), " } ?? "")Z_PK"
        case let .joinTable(index, reversed):
            let join = schema.joinTables[index]
            let (mine, theirs, order) = reversed
                ? (join.destinationColumn, join.sourceColumn, join.inverseOrderColumn)
                : (join.sourceColumn, join.destinationColumn, join.orderColumn)
            sql = "SELECT d.Z_PK, d.Z_ENT FROM \(join.name) j JOIN \(destinationRoot.name) d ON d.Z_PK = j.\(theirs) WHERE j.\(mine) = ? ORDER BY \(order.map { "j.\($0), " } ?? "")j.rowid"
        }
        return try connection.rows(sql, [.integer(key)]) { row in
            (row.int64(0), row.int64(1))
        }.compactMap { key, code in schema.namesByCode[code].map { id($0, key) } }
    }

    /// The destinations of the to-many `name` of the rows `keys` (objects of `entity`), each with
    /// its `Z_OPT`: one query per `IN` list of keys over the destinations' foreign key. Nil when
    /// the relationship is kept in a join table.
    func destinationsWithVersions(ofKeys keys: [Int64], entity: String, relationship name: String) throws
        -> [StoreSaveRequest.DeletedObject]? {
        guard case let .inverseForeignKey(table, column, _, _)? = schema.toMany[entity]?[name] else { return nil }
        var found: [StoreSaveRequest.DeletedObject] = []
        for list in BatchSQL.inLists(keys) {
            let rows = try connection.rows("SELECT Z_PK, Z_ENT, Z_OPT FROM \(table) WHERE \(column) IN (\(list.marks))", list.values) {
                ($0.int64(0), $0.int64(1), $0.int64(2))
            }
            for (key, code, version) in rows {
                guard let destination = schema.namesByCode[code] else {
                    throw StoreError.corruptStore(file: file, offset: nil, reason: "row \(key) of \(table) has the unknown entity code \(code)")
                }
                found.append(.init(objectID: id(destination, key), version: version))
            }
        }
        return found
    }

    /// Everything the store holds, every to-many loaded.
    func image(metadata: [String: PropertyListValue]) throws -> StoreImage {
        var objects: [ManagedObjectID: ObjectSnapshot] = [:]
        var byKey: [String: [Int64: ManagedObjectID]] = [:]   // root → key → ID
        for table in schema.tables.values {
            let statement = try connection.statement("SELECT \(selectList(table)) FROM \(table.name) ORDER BY Z_PK")
            try statement.forEachRow { row in
                let found = try snapshot(row, table, resolvingToOnes: false)
                objects[found.objectID] = found
                byKey[table.rootEntity, default: [:]][row.int64(0)] = found.objectID
                StoreProgress.report(.reading, done: objects.count, total: nil)
            }
            statement.reset()
        }
        // To-ones were read with their declared destination entity; give them the real one.
        for (id, var snapshot) in objects where !snapshot.toOne.isEmpty {
            for (name, destination) in snapshot.toOne {
                let root = schema.model.entity(named: destination.entityName)?.rootEntityName ?? destination.entityName
                snapshot.toOne[name] = destination.primaryKey.flatMap { byKey[root]?[$0] }
            }
            objects[id] = snapshot
        }
        for (id, var snapshot) in objects {
            for relationship in schema.model.entity(named: id.entityName)?.relationships ?? [] where relationship.isToMany && !relationship.isTransient {
                snapshot.toMany[relationship.name] = try relatedObjectIDs(of: id, relationship: relationship.name)
            }
            objects[id] = snapshot
        }
        var nextKeys: [String: Int64] = [:]
        for (name, max) in try connection.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY", [], { ($0.text(0) ?? "", $0.int64(1)) }) {
            guard schema.tables[name] != nil else { continue }
            nextKeys[name] = max + 1
        }
        return StoreImage(identifier: storeIdentifier, metadata: metadata, objects: objects, nextPrimaryKeys: nextKeys)
    }
}
