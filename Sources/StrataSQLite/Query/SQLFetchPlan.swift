import Foundation
@_spi(StoreImplementation) import StrataCore

/// How the SQLite store answers one fetch: the `SELECT` that reads the candidate rows, and what
/// is left to do in memory with ``SnapshotQuery`` (the evaluator every store uses).
///
/// The predicate's conjuncts that translate go into `WHERE`, up to the first conjunct left in
/// memory that may throw: after it, all stay in memory, so that it is evaluated on exactly the
/// rows the evaluator would reach it on, and throws where the evaluator would throw. When the whole predicate and every sort key translate, the order
/// (ties broken by entity name, then primary key, as ``SnapshotQuery`` does), the offset and
/// the limit are SQL's too, and a count is a `count(*)`.
struct SQLFetchPlan {
    /// The table the rows come from.
    var table: SQLiteSchema.Table
    /// The statement reading the candidates: ``SQLiteRowReader/selectList(_:alias:includesValues:)``
    /// of `t0`, then whatever the plan puts in SQL.
    var select: SQLFragment
    /// `SELECT count(*)` of the matching rows, when the whole predicate is in SQL.
    var count: SQLFragment?
    /// `FROM <table> t0 <joins> WHERE <condition>`: the matching rows, when the whole predicate is
    /// in SQL (what a count or a grouping reads).
    var source: SQLFragment?
    /// Everything of `select` after its select list: `FROM`, joins, `WHERE`, `ORDER BY`, `LIMIT`.
    var body: SQLFragment
    /// What is left of the predicate for memory; nil when all of it is in SQL.
    var residual: ObjectPredicate?
    /// Whether the rows come in the request's order.
    var sortedInSQL: Bool
    /// Whether that order holds only if no row read holds a number stored as a BLOB in a sort
    /// column: the rows are then sorted again in memory (whole rows of one table, no range).
    var checksOrderAfterReading: Bool { storedAsBlobCheck != nil }
    /// Whether offset and limit are applied in SQL.
    var rangedInSQL: Bool
    /// Whether the rows carry their values (they always do when memory has work left).
    var includesValues: Bool
    /// When the order is checked after reading: true for a row whose sort keys hold a number
    /// stored as a BLOB; nil when SQL's order stands as it is.
    var storedAsBlobCheck: SQLFragment?
    /// Why parts stayed in memory, for tests and diagnostics.
    var notes: [String]
    /// Whether the request's entities are every entity with rows in the table, so that no
    /// `Z_ENT` condition picks the rows: a row of a code none of them has is read (and reported)
    /// by a fetch, and counted by ``count``.
    var coversTable: Bool

    /// Whether the rows are the answer as they are.
    var isComplete: Bool { residual == nil && rangedInSQL }

    /// The statement of a fetch that first reads only each row's `Z_PK`, `Z_ENT` and `Z_OPT`, in
    /// `select`'s order and range, then takes the rows the coordinator's cache holds at that
    /// version from it and reads the others whole (see
    /// ``SQLiteRowReader/snapshotsCachedFirst(_:table:checksBlobs:into:runLength:handing:)``).
    /// Where `checksOrderAfterReading`, a fourth column is 1 for a row whose sort keys hold a
    /// number stored as a BLOB. Nil when the rows carry no values. Made when asked for: most
    /// fetches never read cached-first.
    var cachedFirstSelect: SQLFragment? {
        guard includesValues else { return nil }
        var keys = SQLFragment("SELECT " + SQLiteRowReader.selectList(table, alias: "t0", includesValues: false))
        if let storedAsBlobCheck { keys = keys + ", (" + storedAsBlobCheck + ")" }
        return keys + " " + body
    }

    /// The plan for `request`, or nil when its entities are not all in one table.
    ///
    /// - Throws: an SQLite error from checking a sort column for values stored as BLOBs.
    init?(_ request: StoreFetchRequest, schema: SQLiteSchema, storeIdentifier: String, connection: SQLiteConnection) throws {
        guard let translator = SQLPredicateTranslator(schema: schema, storeIdentifier: storeIdentifier,
                                                      entityNames: request.entityNames) else { return nil }
        let root = translator.root
        let table = root.table
        self.table = table
        var notes: [String] = []

        // Which entities: no condition when the request covers the whole table.
        var conditions: [SQLFragment] = []
        let codes = request.entityNames.compactMap { schema.codes[$0] }.sorted()
        coversTable = schema.codes(codes, coverTable: table)
        if !coversTable {
            conditions.append("t0.Z_ENT IN (" + .joined(codes.map { .value(.integer($0)) }, separator: ", ") + ")")
        }

        // The predicate: every conjunct that translates, up to the first one left in memory
        // that may throw. A conjunct whose values would take the statement past the
        // connection's limit of placeholders stays in memory too.
        var residual: [ObjectPredicate] = []
        if let predicate = request.predicate {
            var blocked = false
            var placeholders = conditions.reduce(0) { $0 + $1.parameters.count }
            let budget = connection.variableLimit - Self.reservedPlaceholders
            for conjunct in Self.conjuncts(of: predicate) {
                guard !blocked else { residual.append(conjunct); continue }
                let mark = translator.top.mark
                do throws(Untranslatable) {
                    let condition = try translator.translate(conjunct)
                    guard placeholders + condition.parameters.count <= budget else {
                        throw Untranslatable("\(condition.parameters.count) values, past the \(budget) placeholders left in one statement")
                    }
                    guard conditions.count < SQLPredicateTranslator.termLimit else {
                        throw SQLPredicateTranslator.tooManyTerms(conditions.count + 1)
                    }
                    placeholders += condition.parameters.count
                    conditions.append(condition)
                } catch {
                    translator.top.restore(mark)
                    notes.append("in memory: \(conjunct): \(error.reason)")
                    residual.append(conjunct)
                    blocked = !translator.cannotThrow(conjunct)
                }
            }
        }
        self.notes = notes
        self.residual = residual.isEmpty ? nil : (residual.count == 1 ? residual[0] : .and(residual))
        let condition = SQLFragment.and(conditions)
        let whereClause = condition.isAlwaysTrue ? SQLFragment("") : " WHERE " + condition
        source = residual.isEmpty ? "FROM \(table.name) t0\(translator.top.joinClauses)" + whereClause : nil
        count = source.map { "SELECT count(*) " + $0 }

        // The order: every sort key in SQL, or none.
        var order: [SQLFragment] = []
        var sorted = residual.isEmpty
        if sorted {
            let mark = translator.top.mark
            var blobChecks: [SQLFragment] = []
            for descriptor in request.sortDescriptors {
                do {
                    let (term, blobCheck) = try Self.orderTerm(descriptor, translator: translator)
                    order.append(term)
                    if let blobCheck { blobChecks.append(blobCheck) }
                } catch {
                    self.notes.append("sorted in memory: \(descriptor): \(error.reason)")
                    sorted = false
                    break
                }
            }
            if sorted, !blobChecks.isEmpty, request.fetchLimit == 0, request.fetchOffset == 0,
               request.includesPropertyValues, translator.top.joinClauses.isEmpty {
                // Numbers stored as BLOBs (NaN, −0.0, decimals of more than 15 digits) would
                // sort after every other in SQL. Every row is read whole and every sort column is
                // the table's own: the reader sees any such number, and the store sorts again.
                storedAsBlobCheck = .or(blobChecks)
                self.notes.append("sorted in SQL unless a row read holds a number stored as a BLOB")
            } else if sorted, !blobChecks.isEmpty {
                // Only when no candidate holds a number stored as a BLOB does SQL order.
                let check = "SELECT 1 FROM \(table.name) t0\(translator.top.joinClauses) WHERE "
                    + SQLFragment.and([condition, .or(blobChecks)]) + " LIMIT 1"
                if try connection.scalar(check.sql, check.parameters) != nil {
                    self.notes.append("sorted in memory: a sort key holds numbers stored as BLOBs")
                    sorted = false
                }
            }
            if !sorted {
                translator.top.restore(mark)
                order = []
            }
        }
        if sorted {
            let names = request.entityNames.sorted()
            if names.count > 1 {
                // Ties: entity name, then primary key.
                let cases = names.enumerated().compactMap { rank, name in
                    schema.codes[name].map { " WHEN " + SQLFragment.value(.integer($0)) + " THEN " + .value(.integer(Int64(rank))) }
                }
                order.append("CASE t0.Z_ENT" + .joined(cases, separator: "") + " END")
            }
            order.append(SQLFragment("t0.Z_PK"))
        }
        sortedInSQL = sorted
        rangedInSQL = sorted
        includesValues = request.includesPropertyValues || !(residual.isEmpty && sorted)

        var body = "FROM \(table.name) t0" + translator.top.joinClauses + whereClause
        if !order.isEmpty { body = body + " ORDER BY " + .joined(order, separator: ", ") }
        if rangedInSQL { body = body + .range(offset: request.fetchOffset, limit: request.fetchLimit) }
        self.body = body
        self.select = "SELECT \(SQLiteRowReader.selectList(table, alias: "t0", includesValues: includesValues)) " + body
    }

    /// Placeholders kept free of the predicate's for the rest of a statement (offset, limit).
    static let reservedPlaceholders = 8

    /// The conjuncts of a predicate, nested `AND`s flattened, in order.
    static func conjuncts(of predicate: ObjectPredicate) -> [ObjectPredicate] {
        guard case .and(let items) = predicate else { return [predicate] }
        return items.flatMap(conjuncts(of:))
    }

    /// One `ORDER BY` term that orders as the sort descriptor does, and for numbers the
    /// condition that a value is stored as a BLOB, which SQL would not order as memory does.
    private static func orderTerm(_ descriptor: ObjectSortDescriptor,
                                  translator: SQLPredicateTranslator) throws(Untranslatable) -> (SQLFragment, SQLFragment?) {
        guard case .scalar(let value) = try translator.resolve(descriptor.key, from: translator.root) else {
            throw Untranslatable("the key is not an attribute")
        }
        return try orderTerm(descriptor, value: value)
    }

    /// One `ORDER BY` term that orders `value` as the sort descriptor orders it, and for numbers
    /// the condition that a value is stored as a BLOB.
    static func orderTerm(_ descriptor: ObjectSortDescriptor,
                          value: SQLScalarValue) throws(Untranslatable) -> (SQLFragment, SQLFragment?) {
        var term: SQLFragment
        var blobCheck: SQLFragment?
        switch value.type {
        case .integer16, .integer32, .integer64:
            term = value.expression
        case .boolean:
            term = "(" + value.expression + " <> 0)"
        case let type where type.storesInexactNumbersAsBlobs:
            term = value.expression
            blobCheck = value.expression + " >= X''"
        case .string:
            switch descriptor.comparison {
            // The standard order by sort keys computed once a row and compared as bytes, not by
            // a collation called back for every comparison the sort makes.
            case .standard: term = "\(SQLQueryFunctions.standardKeyFunction)(" + value.expression + ")"
            case .caseInsensitive: term = value.expression + " COLLATE \(SQLQueryFunctions.caseInsensitiveCollation)"
            default: throw Untranslatable("a localized string comparison")
            }
        case .binaryData, .transformable:
            term = "CAST(" + value.expression + " AS BLOB)"
        default:
            throw Untranslatable("values of type \(value.type.rawValue)")
        }
        return (term + (descriptor.ascending ? " ASC" : " DESC"), blobCheck)
    }
}
