import Foundation
@_spi(StoreImplementation) import StrataCore

extension SQLiteStore {
    /// Fetches in SQL as far as SQL can answer exactly (see ``SQLFetchPlan`` and
    /// `docs/formats/sqlite.md`), and finishes in memory with ``SnapshotQuery``, the evaluator
    /// every store uses.
    @_spi(StoreImplementation) public func fetch(_ request: StoreFetchRequest) throws -> [ObjectSnapshot] {
        try withConnection { state in try fetch(request, in: state, reader: reader(for: state)) }
    }

    /// Fetches as ``fetch(_:)`` does; a row read at the version `cachedRows` holds is taken from
    /// them, its values not decoded.
    @_spi(StoreImplementation) public func fetch(_ request: StoreFetchRequest, reusing cachedRows: CachedRows) throws -> [ObjectSnapshot] {
        try withConnection { state in
            let reader = reader(for: state)
            reader.cachedRows = cachedRows
            return try fetch(request, in: state, reader: reader)
        }
    }

    /// Fetches as ``fetch(_:reusing:)`` does, handing the snapshots to `receiver` as their rows
    /// are read, ``handedRowCount`` at a time, when SQL answers the request whole in its order;
    /// otherwise all at once when the list is made.
    @_spi(StoreImplementation) public func fetch(_ request: StoreFetchRequest, reusing cachedRows: CachedRows?, into receiver: any SnapshotReceiver) throws {
        try withConnection { state in
            let reader = reader(for: state)
            reader.cachedRows = cachedRows
            let plan = try fetchPlan(request, in: state)
            guard let plan, plan.isComplete, !plan.checksOrderAfterReading else {
                var snapshots = try fetch(request, plan: plan, in: state, reader: reader)
                receiver.expect(snapshots.count)
                return try receiver.receive(&snapshots)
            }
            let expected = try expectedRowCount(request, plan, state.connection)
            receiver.expect(expected)
            // The run's list keeps its room from one run to the next; a fetch of unknown size
            // makes it grow as rows come, not as large as a run at once.
            var run: [ObjectSnapshot] = []
            run.reserveCapacity(min(expected, Self.handedRowCount))
            var handed = 0
            try readRows(plan, wholeTable: Self.readsWholeTable(request, plan), in: state, reader: reader, caching: false,
                         into: &run, runLength: Self.handedRowCount) {
                handed += $0.count
                try receiver.receive(&$0)
            }
            handed += run.count
            if !run.isEmpty { try receiver.receive(&run) }
            recordCacheShare(plan, rows: handed, reader: reader, in: state)
        }
    }

    /// Reads the rows `plan` selects into `list` as
    /// ``SQLiteRowReader/snapshots(_:table:includesValues:caching:into:runLength:handing:)``
    /// does, or cached-first (``SQLiteRowReader/snapshotsCachedFirst(_:table:checksBlobs:into:runLength:handing:)``,
    /// in one read transaction) when the last fetch of the table found nearly every row in the
    /// coordinator's cache (``SQLiteCachedRowShare``) and the reader's own cache is not wanted.
    ///
    /// With `wholeTable` (every row of the table, no condition or range), a plain read that
    /// succeeds records that the table holds no stray row (``SQLiteStrayRowCheck``), so that a
    /// count that follows need not look again.
    private func readRows(_ plan: SQLFetchPlan, wholeTable: Bool, in state: State, reader: SQLiteRowReader, caching: Bool,
                          into list: inout [ObjectSnapshot], runLength: Int,
                          handing hand: (inout [ObjectSnapshot]) throws -> Void) throws {
        if !caching, reader.cachedRows != nil, state.cachedRowShare.readsCachedFirst(plan.table.name),
           let keysFirst = plan.cachedFirstSelect {
            try state.connection.readTransaction {
                try reader.snapshotsCachedFirst(keysFirst, table: plan.table, checksBlobs: plan.checksOrderAfterReading,
                                                into: &list, runLength: runLength, handing: hand)
            }
        } else {
            let version = wholeTable ? try state.strayRows.dataVersion(state.connection) : nil
            try reader.snapshots(plan.select, table: plan.table, includesValues: plan.includesValues, caching: caching,
                                 into: &list, runLength: runLength, handing: hand)
            if wholeTable { try state.strayRows.recordNoStrayRows(plan.table, readAt: version, connection: state.connection) }
        }
    }

    /// Whether `plan` reads every row of its table for `request`: its entities fill the table,
    /// and no condition, offset or limit leaves a row out.
    private static func readsWholeTable(_ request: StoreFetchRequest, _ plan: SQLFetchPlan) -> Bool {
        request.predicate == nil && request.fetchLimit == 0 && request.fetchOffset == 0 && plan.coversTable
    }

    /// Records what share of the `rows` a fetch with `plan` read came from the coordinator's cache.
    private func recordCacheShare(_ plan: SQLFetchPlan, rows: Int, reader: SQLiteRowReader, in state: State) {
        guard plan.includesValues, let cachedRows = reader.cachedRows else { return }
        state.cachedRowShare.record(plan.table.name, rows: rows, cached: cachedRows.takenCount)
    }

    /// How many snapshots a fetch hands on at a time. Enough that the memory of each run's rows and
    /// of its objects lies together, and reading rows and making objects each run long in the
    /// processor's instruction cache; few enough that the rows read are still in its data cache
    /// when their objects are made, and no list of every row is held. (Handed on one by one, the
    /// objects made a fetch slower: the two loops shared the instruction cache, and freeing the
    /// objects, their memory mixed with the rows', took twice as long.)
    public static let handedRowCount = 1024

    /// Fetches `request` as ``fetch(_:)`` does, with the connection of `state`, whose lock the
    /// caller holds (inside a batch request's transaction, say), reading rows through `reader`.
    func fetch(_ request: StoreFetchRequest, in state: State, reader: SQLiteRowReader) throws -> [ObjectSnapshot] {
        try fetch(request, plan: try fetchPlan(request, in: state), in: state, reader: reader)
    }

    /// The SQL that answers `request` as far as SQL can; nil when the store evaluates every row in
    /// memory instead.
    private func fetchPlan(_ request: StoreFetchRequest, in state: State) throws -> SQLFetchPlan? {
        guard state.translatesQueries else { return nil }
        return try SQLFetchPlan(request, schema: schema, storeIdentifier: state.identifier, connection: state.connection)
    }

    /// Fetches `request` with `plan` (nil: every row of its entities, evaluated in memory).
    private func fetch(_ request: StoreFetchRequest, plan: SQLFetchPlan?, in state: State, reader: SQLiteRowReader) throws -> [ObjectSnapshot] {
        guard let plan else {
            let candidates = try reader.snapshots(ofEntities: request.entityNames)
            return try SnapshotQuery.apply(request, to: candidates, source: reader, model: model)
        }
        var rows: [ObjectSnapshot] = []
        rows.reserveCapacity(try expectedRowCount(request, plan, state.connection))
        try readRows(plan, wholeTable: Self.readsWholeTable(request, plan), in: state, reader: reader,
                     caching: !plan.isComplete, into: &rows, runLength: .max) { _ in }
        recordCacheShare(plan, rows: rows.count, reader: reader, in: state)
        let ordered = !plan.checksOrderAfterReading || !reader.readNumberStoredAsBlob
        if plan.isComplete, ordered { return rows }
        var rest = request
        rest.predicate = plan.residual
        return try SnapshotQuery.apply(rest, to: rows, source: reader, model: model)
    }

    /// The most rows a fetch reserves room for before reading them.
    static let largestRowReservation = 1 << 20

    /// How many rows `plan` can expect to read for `request`: for a fetch of a whole table, its
    /// highest `Z_PK` (one seek), at most ``largestRowReservation``; otherwise 0, not known. The
    /// list of a large fetch is then made once instead of growing by doubling, which copied it
    /// and touched fresh memory at each step; where keys have gaps the room left over is address
    /// space that nothing touches.
    private func expectedRowCount(_ request: StoreFetchRequest, _ plan: SQLFetchPlan, _ connection: SQLiteConnection) throws -> Int {
        guard request.predicate == nil, request.fetchLimit == 0, request.fetchOffset == 0, plan.coversTable,
              case .integer(let highest) = try connection.scalar("SELECT max(Z_PK) FROM \(plan.table.name)") else { return 0 }
        return Int(clamping: min(max(highest, 0), Int64(Self.largestRowReservation)))
    }

    /// A reader of the connection of `state`, for one call under the lock.
    func reader(for state: State) -> SQLiteRowReader {
        SQLiteRowReader(connection: state.connection, schema: schema, storeIdentifier: state.identifier, layouts: state.layouts)
    }

    /// Lists the IDs in SQL when SQL answers the whole request (reading `Z_PK` and `Z_ENT`
    /// only, no snapshot made); otherwise takes them from ``fetch(_:)``.
    @_spi(StoreImplementation) public func fetchObjectIDs(_ request: StoreFetchRequest) throws -> ObjectIDList {
        try withConnection { state in try fetchObjectIDs(request, in: state, reader: reader(for: state)) }
    }

    /// Lists the IDs `request` matches as ``fetchObjectIDs(_:)`` does, with the connection of
    /// `state`, whose lock the caller holds, reading rows through `reader`.
    func fetchObjectIDs(_ request: StoreFetchRequest, in state: State, reader: SQLiteRowReader) throws -> ObjectIDList {
        var idsOnly = request
        idsOnly.includesPropertyValues = false
        if state.translatesQueries,
           let plan = try SQLFetchPlan(idsOnly, schema: schema, storeIdentifier: state.identifier, connection: state.connection),
           plan.isComplete, !plan.includesValues {
            return try reader.objectIDs(plan.select, table: plan.table)
        }
        return ObjectIDList(try fetch(idsOnly, in: state, reader: reader).lazy.map(\.objectID))
    }

    /// Whether fetches and counts translate predicates and sorts into SQL (the default), or read
    /// every row of the requested entities and evaluate in memory as the atomic stores do. The two
    /// give the same answers; tests compare them.
    var translatesQueries: Bool {
        get { (try? withConnection { $0.translatesQueries }) ?? true }
        set { _ = try? withConnection { $0.translatesQueries = newValue } }
    }

    /// The plan a fetch of `request` runs, for tests and diagnostics; nil when it would read every
    /// row and evaluate in memory.
    func fetchPlan(for request: StoreFetchRequest) throws -> SQLFetchPlan? {
        try withConnection { state in
            try SQLFetchPlan(request, schema: schema, storeIdentifier: state.identifier, connection: state.connection)
        }
    }

    /// SQLite's `EXPLAIN QUERY PLAN` for the statement a fetch of `request` runs.
    func queryPlan(for request: StoreFetchRequest) throws -> [String] {
        try withConnection { state in
            guard let plan = try SQLFetchPlan(request, schema: schema, storeIdentifier: state.identifier, connection: state.connection) else {
                return []
            }
            return try state.connection.rows("EXPLAIN QUERY PLAN " + plan.select.sql, plan.select.parameters) { $0.text(3) ?? "" }
        }
    }
}
