@_spi(StoreImplementation) import StrataCore

extension SQLiteStore {
    /// How many of `total` matching objects the offset and limit of `request` leave.
    private static func ranged(_ total: Int, _ request: StoreFetchRequest) -> Int {
        let remaining = max(0, total - request.fetchOffset)
        return request.fetchLimit > 0 ? min(remaining, request.fetchLimit) : remaining
    }

    /// Counts in SQL (`count(*)`) when SQL answers the whole predicate, and gives what
    /// ``fetch(_:)`` gives otherwise: the number of objects it returns, or the error it throws.
    /// A count whose entities fill their table has no `Z_ENT` condition; when the table may hold
    /// a row of a code none of its entities has (see ``SQLiteStrayRowCheck``), it fetches
    /// instead, so that such a row fails the count wherever it fails the fetch.
    @_spi(StoreImplementation) public func count(_ request: StoreFetchRequest) throws -> Int {
        try withConnection { state in
            let plan = state.translatesQueries
                ? try SQLFetchPlan(request, schema: schema, storeIdentifier: state.identifier, connection: state.connection)
                : nil
            guard let plan, let count = plan.count else {
                guard request.predicate == nil else { return try countCandidates(request, in: state) }
                let total = try reader(for: state).count(ofEntities: request.entityNames, strayRows: state.strayRows)
                return try total.map { Self.ranged($0, request) } ?? countFetching(request, in: state)
            }
            if plan.coversTable, try state.strayRows.mayHoldStrayRows(plan.table, connection: state.connection) {
                return try countFetching(request, in: state)
            }
            guard case .integer(let total)? = try state.connection.scalar(count.sql, count.parameters) else { return 0 }
            return Self.ranged(Int(total), request)
        }
    }

    /// Counts `request` when part of its predicate is for memory: the candidates are fetched
    /// without order or range (the same rows a fetch reads) and counted, then ranged.
    private func countCandidates(_ request: StoreFetchRequest, in state: State) throws -> Int {
        var unranged = request
        unranged.fetchLimit = 0
        unranged.fetchOffset = 0
        unranged.sortDescriptors = []
        return Self.ranged(try countFetching(unranged, in: state), request)
    }

    /// Counts `request` by fetching it as it is, order and range too: for entities that fill a
    /// table that may hold a stray row (a `Z_ENT` none of its entities has), which `count(*)`
    /// would count and a fetch reports when it reads it.
    private func countFetching(_ request: StoreFetchRequest, in state: State) throws -> Int {
        var idsOnly = request
        idsOnly.includesPropertyValues = false
        return try fetch(idsOnly, in: state, reader: reader(for: state)).count
    }
}
