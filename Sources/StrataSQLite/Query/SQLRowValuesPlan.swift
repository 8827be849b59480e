import Foundation
@_spi(StoreImplementation) import StrataCore

/// How the SQLite store answers a ``StoreValuesRequest``: `SELECT t0.Z_ENT, <the columns>` over
/// the body of the fetch's plan (``SQLFetchPlan/body``: its joins, condition, order and range),
/// with `t0.Z_PK` after `Z_ENT` when the rows start with their object's ID.
///
/// Each key must be a column every fetched entity reads the same way (``SQLColumnRead``); values
/// decode exactly as the row reader decodes them.
struct SQLRowValuesPlan {
    /// The statement.
    let select: SQLFragment
    private let reads: [SQLColumnRead]
    /// The ID scope of each fetched entity by code (`Z_ENT`), one per entity for all its IDs.
    private let scopes: [Int64: ObjectIDScope]
    private let includesObjectIDs: Bool
    private let storeIdentifier: String

    /// The plan for `request` over `body`, or nil when a key is not a column of every entity.
    init?(_ request: StoreValuesRequest, schema: SQLiteSchema, table: SQLiteSchema.Table, body: SQLFragment,
          storeIdentifier: String) {
        let entities = request.fetch.entityNames.sorted().compactMap { schema.model.entitiesByName[$0] }
        let codes = request.fetch.entityNames.compactMap { name in schema.codes[name].map { ($0, name) } }
        guard !entities.isEmpty, entities.count == request.fetch.entityNames.count, codes.count == entities.count else { return nil }
        var reads: [SQLColumnRead] = []
        for key in request.keys {
            guard let read = SQLColumnRead(key, of: entities, table: table, schema: schema) else { return nil }
            reads.append(read)
        }
        let leading = request.includesObjectIDs ? ["t0.Z_ENT", "t0.Z_PK"] : ["t0.Z_ENT"]
        select = ("SELECT " + (leading + reads.map { "t0.\($0.column)" }).joined(separator: ", ") + " ") + body
        self.reads = reads
        self.scopes = Dictionary(codes.map { ($0.0, ObjectIDScope.named($0.1, in: storeIdentifier)) }) { first, _ in first }
        self.includesObjectIDs = request.includesObjectIDs
        self.storeIdentifier = storeIdentifier
    }

    /// The values of each row, or nil when a row is of an entity not fetched or a value does not
    /// decode (reading the rows whole then reports it).
    ///
    /// - Throws: an SQLite error.
    func run(on connection: SQLiteConnection) throws -> [[AttributeValue?]]? {
        var rows: [[AttributeValue?]] = []
        let complete = try forEachRow(on: connection) { rows.append($0) }
        return complete ? rows : nil
    }

    /// Hands each row's values to `body` as SQLite steps to it, in one list reused from row to
    /// row; false when a row is of an entity not fetched or a value does not decode (the run
    /// stops there, and the rows handed are to be dropped).
    ///
    /// - Throws: an SQLite error, or what `body` throws.
    func forEachRow(on connection: SQLiteConnection, _ body: ([AttributeValue?]) throws -> Void) throws -> Bool {
        var unusual = false
        let statement = try connection.statement(select.sql)
        defer { statement.reset() }
        let first = includesObjectIDs ? 2 : 1
        var values: [AttributeValue?] = []
        values.reserveCapacity(reads.count + 1)
        try statement.forEachRow(select.parameters) { row in
            guard !unusual else { return }
            guard let scope = scopes[row.int64(0)] else { unusual = true; return }
            values.removeAll(keepingCapacity: true)
            if includesObjectIDs { values.append(.objectID(ManagedObjectID(scope, primaryKey: row.int64(1)))) }
            for (index, read) in reads.enumerated() {
                do {
                    values.append(try read.read(row.value(index + first), storeIdentifier: storeIdentifier))
                } catch {
                    unusual = true
                    return
                }
            }
            try body(values)
        }
        return !unusual
    }
}
