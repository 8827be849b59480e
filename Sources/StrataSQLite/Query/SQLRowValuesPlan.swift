import Foundation
@_spi(StoreImplementation) import StrataCore

/// How the SQLite store answers a ``StoreValuesRequest``: `SELECT t0.Z_ENT, <the columns>` over
/// the body of the fetch's plan (``SQLFetchPlan/body``: its joins, condition, order and range).
///
/// Each key must be a column every fetched entity reads the same way (``SQLColumnRead``); values
/// decode exactly as the row reader decodes them.
struct SQLRowValuesPlan {
    /// The statement.
    let select: SQLFragment
    private let reads: [SQLColumnRead]
    private let codes: Set<Int64>
    private let storeIdentifier: String

    /// The plan for `request` over `body`, or nil when a key is not a column of every entity.
    init?(_ request: StoreValuesRequest, schema: SQLiteSchema, table: SQLiteSchema.Table, body: SQLFragment,
          storeIdentifier: String) {
        let entities = request.fetch.entityNames.sorted().compactMap { schema.model.entitiesByName[$0] }
        let codes = request.fetch.entityNames.compactMap { schema.codes[$0] }
        guard !entities.isEmpty, entities.count == request.fetch.entityNames.count, codes.count == entities.count else { return nil }
        var reads: [SQLColumnRead] = []
        for key in request.keys {
            guard let read = SQLColumnRead(key, of: entities, table: table, schema: schema) else { return nil }
            reads.append(read)
        }
        select = ("SELECT " + (["t0.Z_ENT"] + reads.map { "t0.\($0.column)" }).joined(separator: ", ") + " ") + body
        self.reads = reads
        self.codes = Set(codes)
        self.storeIdentifier = storeIdentifier
    }

    /// The values of each row, or nil when a row is of an entity not fetched or a value does not
    /// decode (reading the rows whole then reports it).
    ///
    /// - Throws: an SQLite error.
    func run(on connection: SQLiteConnection) throws -> [[AttributeValue?]]? {
        var rows: [[AttributeValue?]] = []
        var unusual = false
        let statement = try connection.statement(select.sql)
        defer { statement.reset() }
        try statement.forEachRow(select.parameters) { row in
            guard !unusual else { return }
            guard codes.contains(row.int64(0)) else { unusual = true; return }
            var values: [AttributeValue?] = []
            values.reserveCapacity(reads.count)
            for (index, read) in reads.enumerated() {
                do {
                    values.append(try read.read(row.value(index + 1), storeIdentifier: storeIdentifier))
                } catch {
                    unusual = true
                    return
                }
            }
            rows.append(values)
        }
        return unusual ? nil : rows
    }
}
