import Foundation
@_spi(StoreImplementation) import StrataCore

/// How the SQLite store answers a ``StoreGroupingRequest``: one `SELECT … GROUP BY` that
/// groups and aggregates the matching rows, joined back to each group's first row for the
/// group's values, and, when asked and SQL can say it exactly, the arrangement's `HAVING`,
/// `ORDER BY`, `LIMIT` and `OFFSET` around it.
///
/// Only what SQL computes exactly as grouping the rows in memory does is planned; anything else
/// makes no plan, and the context groups the rows itself:
///
/// - entities of one table (groups come in the order of their first row: the smallest entity
///   name, then the smallest `Z_PK`, the order the store reads rows in);
/// - group keys of integer, Boolean, string (by their bytes: values group by their Unicode
///   scalars in memory too), date and double attributes, and to-ones whose destination has no
///   sub-entities (not floats: two stored doubles can read as one float);
/// - `count:` of anything; `sum:` and `average:` of integers and Booleans (exact: an integer
///   sum that overflows makes SQLite fail, and the context then groups in memory, where the
///   total becomes a double); `min:` and `max:` of integers, dates, doubles and floats.
///
/// Each column read is also checked for values of a storage class its attribute type does
/// not store (a number kept as a BLOB: NaN, −0.0; text in an integer column): when a group
/// meets one, ``run(on:)`` gives nil, so memory, which orders and reports those as it always
/// does, answers. When the arrangement filters or ranges the groups, one row of any unusual
/// group comes with those it keeps (a `UNION ALL` over the grouping, which SQLite computes once),
/// so a group left out still sends the fetch to memory.
///
/// The arrangement is SQL's when the having predicate translates over the groups' values
/// (``SQLPredicateTranslator/resultTerms``) and every sort key is a key or aggregate that
/// sorts as in memory; otherwise the groups come unarranged and the context arranges them.
struct SQLGroupingPlan {
    /// Entity-ranked first rows: the rank is multiplied by this, so a `Z_PK` must stay below it.
    private static let rankScale: Int64 = 1 << 40

    /// The grouping statement.
    let select: SQLFragment
    /// Whether `select` applies the request's arrangement.
    let isArranged: Bool
    private let keys: [SQLColumnRead]
    private let aggregates: [(function: AggregateFunction, read: SQLColumnRead?)]
    private let storeIdentifier: String

    /// The plan for `request` over the rows of `source` (``SQLFetchPlan/source``), or nil when
    /// SQL cannot compute it exactly.
    init?(_ request: StoreGroupingRequest, schema: SQLiteSchema, table: SQLiteSchema.Table, source: SQLFragment,
          storeIdentifier: String) {
        let model = schema.model
        let names = request.entityNames.sorted()
        let entities = names.compactMap { model.entitiesByName[$0] }
        guard !entities.isEmpty, entities.count == names.count else { return nil }
        func read(_ key: String) -> SQLColumnRead? {
            guard let found = SQLColumnRead(key, of: entities, table: table, schema: schema),
                  Self.storageClasses(of: found) != nil else { return nil }
            return found
        }

        var keys: [SQLColumnRead] = []
        var groupTerms: [String] = []
        for key in request.groupBy {
            guard let found = read(key), found.type != .float else { return nil }
            keys.append(found)
            // Strings group by their bytes (SQLite's BINARY), as values do in memory: by their
            // Unicode scalars, so the two spellings of "é" are two groups, as in Core Data.
            groupTerms.append(found.type == .boolean ? "(t0.\(found.column) <> 0)" : "t0.\(found.column)")
        }
        var aggregates: [(function: AggregateFunction, read: SQLColumnRead?)] = []
        var terms: [String] = []
        for (index, aggregate) in request.aggregates.enumerated() {
            let alias = "a\(index)"
            guard let key = aggregate.key else {
                guard aggregate.function == .count else { return nil }
                aggregates.append((.count, nil))
                terms.append("count(*) AS \(alias)")
                continue
            }
            guard let found = read(key) else { return nil }
            let value = found.type == .boolean ? "(t0.\(found.column) <> 0)" : "t0.\(found.column)"
            switch (aggregate.function, found.type) {
            case (.count, _):
                terms.append("count(t0.\(found.column)) AS \(alias)")
            case (.sum, .integer16?), (.sum, .integer32?), (.sum, .integer64?), (.sum, .boolean?):
                terms.append("sum(\(value)) AS \(alias)")
            case (.average, .integer16?), (.average, .integer32?), (.average, .integer64?), (.average, .boolean?):
                terms.append("sum(\(value)) AS \(alias), count(\(value)) AS \(alias)c")
            case (.min, .integer16?), (.min, .integer32?), (.min, .integer64?), (.min, .date?), (.min, .double?), (.min, .float?),
                 (.max, .integer16?), (.max, .integer32?), (.max, .integer64?), (.max, .date?), (.max, .double?), (.max, .float?):
                terms.append("\(aggregate.function == .min ? "min" : "max")(t0.\(found.column)) AS \(alias)")
            default:
                return nil
            }
            aggregates.append((aggregate.function, found))
        }
        var unusualRow: [String] = []
        for found in keys + aggregates.compactMap(\.read) {
            let classes = ((Self.storageClasses(of: found) ?? []) + ["null"]).map { "'\($0)'" }.joined(separator: ", ")
            unusualRow.append("typeof(t0.\(found.column)) NOT IN (\(classes))")
        }

        // A row of an entity the model does not know (which memory never reads) is unusual too.
        let codes = names.compactMap { schema.codes[$0] }
        guard codes.count == names.count else { return nil }
        unusualRow.append("t0.Z_ENT NOT IN (\(codes.map(String.init).joined(separator: ", ")))")

        // The first row of a group: the smallest key, or with several entities the smallest
        // entity name first, as a rank above the key.
        var first = "t0.Z_PK"
        if names.count > 1 {
            let cases = names.enumerated().compactMap { rank, name in schema.codes[name].map { " WHEN \($0) THEN \(rank)" } }
            first = "(CASE t0.Z_ENT\(cases.joined()) END) * \(Self.rankScale) + t0.Z_PK"
            unusualRow.append("t0.Z_PK NOT BETWEEN 0 AND \(Self.rankScale - 1)")
        }
        let firstKey = names.count > 1 ? "g.z_first % \(Self.rankScale)" : "g.z_first"

        // The grouping query `g`: each group's first row, its aggregates and whether any of its
        // rows is unusual (`z_u`). The statement reads each group's values from its first row `f`.
        let unusual = unusualRow.map { "(\($0))" }.joined(separator: " OR ")
        let selected: String = (terms + ["max(\(unusual)) AS z_u"]).joined(separator: ", ")
        let grouping: String = groupTerms.isEmpty ? "" : " GROUP BY " + groupTerms.joined(separator: ", ")
        let inner: SQLFragment = ("SELECT min(\(first)) AS z_first, " + selected + " ") + source + grouping
        let join = keys.isEmpty ? "" : " LEFT JOIN \(table.name) f ON f.Z_PK = \(firstKey)"
        let firstRow: String = (["g.*"] + keys.map { "f.\($0.column)" }).joined(separator: ", ")

        // An arrangement SQL cannot say exactly is left to the context.
        let arranged = request.arrangement.flatMap { arrangement in
            try? Self.arrangement(arrangement, keys: keys, aggregates: aggregates, schema: schema,
                                  storeIdentifier: storeIdentifier, entityNames: request.entityNames)
        }
        if let arranged {
            // The groups the arrangement keeps, ranked in its order; and, ranked first, one row of
            // any unusual group, which the arrangement may have left out (a group it keeps is
            // never read without it). `g` is read twice: SQLite computes it once.
            let nulls = keys.map { _ in "NULL" }
            select = ("WITH g AS (" + inner + ") SELECT * FROM (SELECT \(firstRow), row_number() OVER (ORDER BY ")
                + arranged.order + ") AS z_rank FROM g\(join)" + arranged.filter + " ORDER BY " + arranged.order + arranged.range
                + ") UNION ALL SELECT * FROM (SELECT \((["g.*"] + nulls).joined(separator: ", ")), 0 FROM g WHERE g.z_u LIMIT 1)"
                + " ORDER BY z_rank"
        } else {
            select = ("SELECT \(firstRow) FROM (" + inner + ") g" + join) + (keys.isEmpty ? "" : " ORDER BY g.z_first")
        }
        self.isArranged = arranged != nil
        self.keys = keys
        self.aggregates = aggregates
        self.storeIdentifier = storeIdentifier
    }

    /// The arrangement's parts over the grouped rows `g` and first rows `f`: ` WHERE <having>`
    /// (or nothing), the order's terms (ties by `g.z_first`), ` LIMIT … OFFSET …` (or nothing).
    private struct Arranged {
        var filter: SQLFragment
        var order: SQLFragment
        var range: SQLFragment
    }

    /// The parts of `arrangement` in SQL, or why SQL cannot say it exactly.
    private static func arrangement(
        _ arrangement: StoreGroupingRequest.Arrangement, keys: [SQLColumnRead],
        aggregates: [(function: AggregateFunction, read: SQLColumnRead?)],
        schema: SQLiteSchema, storeIdentifier: String, entityNames: Set<String>
    ) throws(Untranslatable) -> Arranged {
        // What each name reads: a key from the first row, an aggregate from the group.
        var values: [String: SQLScalarValue] = [:]
        for (name, value) in arrangement.names {
            switch value {
            case .key(let index):
                guard index < keys.count, let type = keys[index].type else { continue }
                values[name] = SQLScalarValue(expression: SQLFragment("f.\(keys[index].column)"), type: type, isOptional: true,
                                              column: nil)
            case .aggregate(let index):
                guard index < aggregates.count else { continue }
                let (function, read) = aggregates[index]
                values[name] = switch function {
                case .count: SQLScalarValue(expression: SQLFragment("g.a\(index)"), type: .integer64, isOptional: false, column: nil)
                case .sum: SQLScalarValue(expression: SQLFragment("ifnull(g.a\(index), 0)"), type: .integer64, isOptional: false,
                                          column: nil)
                case .average: SQLScalarValue(
                    expression: SQLFragment("(CASE WHEN g.a\(index)c = 0 THEN NULL ELSE CAST(g.a\(index) AS REAL) / g.a\(index)c END)"),
                    type: .double, isOptional: true, column: nil)
                case .min, .max: read?.type.map {
                    SQLScalarValue(expression: SQLFragment("g.a\(index)"), type: $0, isOptional: true, column: nil)
                }
                }
            }
        }
        var filter = SQLFragment("")
        if let having = arrangement.having {
            guard let translator = SQLPredicateTranslator(schema: schema, storeIdentifier: storeIdentifier, entityNames: entityNames)
            else { throw Untranslatable("the entities are not in one table") }
            translator.resultTerms = values.mapValues { SQLTerm.scalar($0) }
            let condition = try translator.translate(having)
            if !condition.isAlwaysTrue { filter = " WHERE " + condition }
        }
        var order: [SQLFragment] = []
        for descriptor in arrangement.sortDescriptors {
            guard let value = values[descriptor.key] else { throw Untranslatable("the sort key '\(descriptor.key)'") }
            // Numbers stored as BLOBs are found by the storage-class checks.
            order.append(try SQLFetchPlan.orderTerm(descriptor, value: value).0)
        }
        order.append(SQLFragment("g.z_first"))
        return Arranged(filter: filter, order: .joined(order, separator: ", "),
                        range: .range(offset: arrangement.offset, limit: arrangement.limit))
    }

    /// The groups, or nil when a column read holds a value of a storage class its type does
    /// not store, or an integer sum overflows: memory then groups the rows.
    ///
    /// - Throws: an SQLite error.
    func run(on connection: SQLiteConnection) throws -> StoreGroupingResult? {
        var groups: [StoreGroup] = []
        var unusual = false
        do {
            try connection.statement(select.sql).forEachRow(select.parameters) { row in
                // Columns: first key, the aggregates' terms, whether a row is unusual, then the keys
                // (and, arranged, the rank).
                var index = 1
                var values: [AttributeValue?] = []
                for (function, read) in aggregates {
                    switch function {
                    case .count:
                        values.append(.integer(row.int64(index)))
                        index += 1
                    case .sum:
                        values.append(.integer(row.isNull(index) ? 0 : row.int64(index)))
                        index += 1
                    case .average:
                        let count = row.int64(index + 1)
                        values.append(count == 0 ? nil : .double(Double(row.int64(index)) / Double(count)))
                        index += 2
                    case .min, .max:
                        values.append(decode(row.value(index), read, unusual: &unusual))
                        index += 1
                    }
                }
                if row.int64(index) != 0 { unusual = true }
                index += 1
                let key = keys.indices.map { decode(row.value(index + $0), keys[$0], unusual: &unusual) }
                groups.append(StoreGroup(key: key, aggregates: values))
            }
        } catch let error as SQLiteError where error.message.contains("integer overflow") {
            return nil
        }
        return unusual ? nil : StoreGroupingResult(groups: groups, isArranged: isArranged)
    }

    /// The storage classes a column the plan reads may hold, as the store writes its type; nil
    /// for a type the plan does not read (its values do not group or aggregate exactly in SQL).
    private static func storageClasses(of read: SQLColumnRead) -> [String]? {
        switch read.type {
        case nil: ["integer"]   // a to-one's foreign key
        case .integer16?, .integer32?, .integer64?, .boolean?: ["integer"]
        case .double?, .float?, .date?: ["integer", "real"]
        case .string?: ["text"]
        default: nil
        }
    }

    /// A stored value as the row reader reads it; a value that cannot be read so sets `unusual`
    /// (memory then reads the rows and reports it).
    private func decode(_ value: SQLiteValue, _ read: SQLColumnRead?, unusual: inout Bool) -> AttributeValue? {
        do {
            return try read?.read(value, storeIdentifier: storeIdentifier)
        } catch {
            unusual = true
            return nil
        }
    }
}
