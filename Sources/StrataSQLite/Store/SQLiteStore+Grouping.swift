import Foundation
@_spi(StoreImplementation) import StrataCore

extension SQLiteStore {
    /// Groups and aggregates in SQL (`GROUP BY`, `count`, `sum`, `min`, `max`), and filters, sorts
    /// and ranges the groups as the request's arrangement asks (`HAVING`, `ORDER BY`, `LIMIT`),
    /// when SQL computes exactly what grouping the rows in memory gives (see
    /// ``SQLGroupingPlan``); otherwise nil, and the context groups the fetched rows.
    @_spi(StoreImplementation) public func groups(_ request: StoreGroupingRequest) throws -> StoreGroupingResult? {
        try withConnection { state in
            guard let plan = try groupingPlan(request, state: state) else { return nil }
            return try plan.run(on: state.connection)
        }
    }

    /// The plan a grouping request runs, or nil when the context groups in memory.
    func groupingPlan(for request: StoreGroupingRequest) throws -> SQLGroupingPlan? {
        try withConnection { state in try groupingPlan(request, state: state) }
    }

    private func groupingPlan(_ request: StoreGroupingRequest, state: State) throws -> SQLGroupingPlan? {
        guard state.translatesQueries, !request.entityNames.isEmpty else { return nil }
        let rows = StoreFetchRequest(entityNames: request.entityNames, predicate: request.predicate, includesPropertyValues: false)
        guard let fetch = try SQLFetchPlan(rows, schema: schema, storeIdentifier: state.identifier, connection: state.connection),
              let source = fetch.source else { return nil }
        return SQLGroupingPlan(request, schema: schema, table: fetch.table, source: source, storeIdentifier: state.identifier)
    }
}
