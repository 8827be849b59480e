import Foundation
import StrataCore

/// How the SQLite store answers one fetch: the `SELECT` that reads the candidate rows, and what
/// is left to do in memory with ``SnapshotQuery`` (the evaluator every store uses).
///
/// The predicate's leading conjuncts that translate go into `WHERE` (so the conjuncts left in
/// memory are evaluated on exactly the rows the evaluator would have reached them on, and throw
/// where it would throw). When the whole predicate and every sort key translate, the order
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
    /// What is left of the predicate for memory; nil when all of it is in SQL.
    var residual: ObjectPredicate?
    /// Whether the rows come in the request's order.
    var sortedInSQL: Bool
    /// Whether offset and limit are applied in SQL.
    var rangedInSQL: Bool
    /// Whether the rows carry their values (they always do when memory has work left).
    var includesValues: Bool
    /// Why parts stayed in memory, for tests and diagnostics.
    var notes: [String]

    /// Whether the rows are the answer as they are.
    var isComplete: Bool { residual == nil && rangedInSQL }

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
        let tableCodes = schema.codes.filter {
            schema.table(for: $0.key)?.name == table.name && schema.model.entity(named: $0.key)?.isAbstract == false
        }.values.sorted()
        if codes != tableCodes {
            conditions.append("t0.Z_ENT IN (" + .joined(codes.map { .value(.integer($0)) }, separator: ", ") + ")")
        }

        // The predicate: its leading conjuncts that translate.
        var residual: [ObjectPredicate] = []
        if let predicate = request.predicate {
            for conjunct in Self.conjuncts(of: predicate) {
                guard residual.isEmpty else { residual.append(conjunct); continue }
                let mark = translator.top.mark
                do {
                    conditions.append(try translator.translate(conjunct))
                } catch {
                    translator.top.restore(mark)
                    notes.append("in memory: \(conjunct): \(error.reason)")
                    residual.append(conjunct)
                }
            }
        }
        self.notes = notes
        self.residual = residual.isEmpty ? nil : (residual.count == 1 ? residual[0] : .and(residual))
        let condition = SQLFragment.and(conditions)
        let whereClause = condition.isAlwaysTrue ? SQLFragment("") : " WHERE " + condition
        count = residual.isEmpty
            ? "SELECT count(*) FROM \(table.name) t0\(translator.top.joinClauses)" + whereClause : nil

        // The order: every sort key in SQL, or none.
        var order: [SQLFragment] = []
        var sorted = residual.isEmpty
        if sorted {
            let mark = translator.top.mark
            for descriptor in request.sortDescriptors {
                do {
                    order.append(try Self.orderTerm(descriptor, translator: translator, connection: connection))
                } catch let reason as Untranslatable {
                    translator.top.restore(mark)
                    self.notes.append("sorted in memory: \(descriptor): \(reason.reason)")
                    sorted = false
                    order = []
                    break
                }
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

        var select = "SELECT \(SQLiteRowReader.selectList(table, alias: "t0", includesValues: includesValues)) FROM \(table.name) t0"
            + translator.top.joinClauses + whereClause
        if !order.isEmpty { select = select + " ORDER BY " + .joined(order, separator: ", ") }
        if rangedInSQL, request.fetchLimit > 0 || request.fetchOffset > 0 {
            select = select + " LIMIT " + .value(.integer(request.fetchLimit > 0 ? Int64(request.fetchLimit) : -1))
                + " OFFSET " + .value(.integer(Int64(request.fetchOffset)))
        }
        self.select = select
    }

    /// The conjuncts of a predicate, nested `AND`s flattened, in order.
    static func conjuncts(of predicate: ObjectPredicate) -> [ObjectPredicate] {
        guard case .and(let items) = predicate else { return [predicate] }
        return items.flatMap(conjuncts(of:))
    }

    /// One `ORDER BY` term that orders as the sort descriptor does.
    private static func orderTerm(_ descriptor: ObjectSortDescriptor, translator: SQLPredicateTranslator,
                                  connection: SQLiteConnection) throws -> SQLFragment {
        guard case .scalar(let value) = try translator.resolve(descriptor.key, from: translator.root) else {
            throw Untranslatable("the key is not an attribute")
        }
        var term: SQLFragment
        switch value.type {
        case .integer16, .integer32, .integer64:
            term = value.expression
        case .boolean:
            term = "(" + value.expression + " <> 0)"
        case .double, .float, .date, .decimal:
            // Stored as BLOBs (NaN, −0.0, decimals of more than 15 digits), numbers would sort
            // after every other: only when the column holds none does SQL order them.
            guard let column = value.column else { throw Untranslatable("a number that is not a column") }
            let blob = try connection.scalar("SELECT 1 FROM \(column.table) WHERE \(column.name) >= X'' LIMIT 1")
            guard blob == nil else { throw Untranslatable("\(column.table).\(column.name) holds values stored as BLOBs") }
            term = value.expression
        case .string:
            switch descriptor.comparison {
            case .standard: term = value.expression + " COLLATE \(SQLQueryFunctions.standardCollation)"
            case .caseInsensitive: term = value.expression + " COLLATE \(SQLQueryFunctions.caseInsensitiveCollation)"
            default: throw Untranslatable("a localized string comparison")
            }
        case .binaryData, .transformable:
            term = "CAST(" + value.expression + " AS BLOB)"
        default:
            throw Untranslatable("values of type \(value.type.rawValue)")
        }
        return term + (descriptor.ascending ? " ASC" : " DESC")
    }
}
