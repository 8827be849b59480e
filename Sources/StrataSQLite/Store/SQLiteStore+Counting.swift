import StrataCore

extension SQLiteStore {
    /// How a count is answered.
    private enum CountRoute {
        /// SQL counted the matching objects; the request's offset and limit are still to apply.
        case counted(Int)
        /// Part of the predicate is for memory: the candidates are fetched without order or
        /// range (the same rows a fetch reads) and counted.
        case fetchingCandidates
        /// The entities fill a table that may hold a stray row (a `Z_ENT` none of its entities
        /// has), which `count(*)` would count and a fetch reports when it reads it: the request is
        /// fetched as it is, order and range too, and the objects counted.
        case fetchingAsRequested
    }

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
    public func count(_ request: StoreFetchRequest) throws -> Int {
        switch try withConnection({ state in try countRoute(request, in: state) }) {
        case .counted(let total):
            return Self.ranged(total, request)
        case .fetchingCandidates:
            var unranged = request
            unranged.fetchLimit = 0
            unranged.fetchOffset = 0
            unranged.sortDescriptors = []
            unranged.includesPropertyValues = false
            return Self.ranged(try fetch(unranged).count, request)
        case .fetchingAsRequested:
            var idsOnly = request
            idsOnly.includesPropertyValues = false
            return try fetch(idsOnly).count
        }
    }

    /// How to count `request`, with the connection of `state`, whose lock the caller holds.
    private func countRoute(_ request: StoreFetchRequest, in state: State) throws -> CountRoute {
        let plan = state.translatesQueries
            ? try SQLFetchPlan(request, schema: schema, storeIdentifier: state.identifier, connection: state.connection)
            : nil
        guard let plan, let count = plan.count else {
            guard request.predicate == nil else { return .fetchingCandidates }
            let total = try reader(for: state).count(ofEntities: request.entityNames, strayRows: state.strayRows)
            return total.map(CountRoute.counted) ?? .fetchingAsRequested
        }
        if plan.coversTable, try state.strayRows.mayHoldStrayRows(plan.table, connection: state.connection) {
            return .fetchingAsRequested
        }
        guard case .integer(let total)? = try state.connection.scalar(count.sql, count.parameters) else { return .counted(0) }
        return .counted(Int(total))
    }
}
