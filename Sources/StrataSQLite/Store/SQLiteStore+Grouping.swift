import Foundation
import StrataCore

extension SQLiteStore {
    /// Groups and aggregates in SQL (`GROUP BY`, `count`, `sum`, `min`, `max`) when SQL computes
    /// exactly what grouping the rows in memory gives (see ``SQLGroupingPlan``); otherwise nil,
    /// and the context groups the fetched rows.
    public func groups(_ request: StoreGroupingRequest) throws -> [StoreGroup]? {
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
        guard state.translatesQueries, request.entityNames.count == 1, let name = request.entityNames.first,
              let entity = model.entitiesByName[name] else { return nil }
        let rows = StoreFetchRequest(entityNames: request.entityNames, predicate: request.predicate, includesPropertyValues: false)
        guard let fetch = try SQLFetchPlan(rows, schema: schema, storeIdentifier: state.identifier, connection: state.connection),
              let source = fetch.source else { return nil }
        return SQLGroupingPlan(request, entity: entity, model: model, table: fetch.table, source: source,
                               storeIdentifier: state.identifier)
    }
}
