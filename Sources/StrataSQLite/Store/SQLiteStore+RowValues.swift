import Foundation
@_spi(StoreImplementation) import StrataCore

extension SQLiteStore {
    /// Reads just the asked columns of the matching rows, in order and range, when SQL answers the
    /// whole fetch (``SQLFetchPlan/isComplete``): one `SELECT` of those columns, no snapshot made.
    /// Otherwise nil, and the context reads the rows' snapshots. A row of an unknown entity, or a
    /// value that does not decode, also gives nil: reading the rows whole reports it.
    @_spi(StoreImplementation) public func rowValues(_ request: StoreValuesRequest) throws -> [[AttributeValue?]]? {
        try withConnection { state in
            guard let plan = try rowValuesPlan(request, state: state) else { return nil }
            return try plan.run(on: state.connection)
        }
    }

    /// Hands each row of ``rowValues(_:)`` to `body` as SQLite steps to it; false when the
    /// context reads the rows whole (a row of an unknown entity or a value that does not decode
    /// stops the run: the rows handed before it are to be dropped).
    @_spi(StoreImplementation) public func forEachRowValues(_ request: StoreValuesRequest,
                                                            _ body: ([AttributeValue?]) throws -> Void) throws -> Bool {
        try withConnection { state in
            guard let plan = try rowValuesPlan(request, state: state) else { return false }
            return try plan.forEachRow(on: state.connection, body)
        }
    }

    /// The plan a values request runs, or nil when the context reads the rows whole.
    func rowValuesPlan(for request: StoreValuesRequest) throws -> SQLRowValuesPlan? {
        try withConnection { state in try rowValuesPlan(request, state: state) }
    }

    private func rowValuesPlan(_ request: StoreValuesRequest, state: State) throws -> SQLRowValuesPlan? {
        guard state.translatesQueries, !request.fetch.entityNames.isEmpty else { return nil }
        var rows = request.fetch
        // Without values, a sort by numbers is checked for BLOBs before the rows are read.
        rows.includesPropertyValues = false
        guard let fetch = try SQLFetchPlan(rows, schema: schema, storeIdentifier: state.identifier, connection: state.connection),
              fetch.isComplete, !fetch.checksOrderAfterReading else { return nil }
        return SQLRowValuesPlan(request, schema: schema, table: fetch.table, body: fetch.body, storeIdentifier: state.identifier)
    }
}
