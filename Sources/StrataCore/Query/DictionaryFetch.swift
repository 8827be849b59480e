import Foundation

/// A dictionary fetch, checked against the model: the columns of each result dictionary, how
/// rows are grouped, and how groups are filtered, sorted, made distinct and ranged.
///
/// The steps follow SQL's `SELECT … WHERE … GROUP BY … HAVING … ORDER BY … LIMIT … OFFSET`, which is
/// what Core Data runs: rows are matched (predicate, pending changes), grouped, aggregated, the
/// groups filtered by the having predicate, sorted, made distinct, and only then ranged.
struct DictionaryFetch {
    /// One key of the result dictionaries.
    struct Column {
        enum Kind {
            /// A value read from each row (or each group's shared value).
            case value(ResolvedKeyPath)
            /// An aggregate over a group's rows.
            case aggregate(AggregateFunction, ResolvedKeyPath)
        }

        let name: String
        let kind: Kind
        /// How the value is typed in the dictionary.
        let attribute: AttributeDescription
        /// The type the value is converted to (an expression's result type), or nil to keep it.
        let conversion: AttributeType?

        var path: ResolvedKeyPath {
            switch kind {
            case .value(let path), .aggregate(_, let path): path
            }
        }
    }

    let entityName: String
    let columns: [Column]
    /// The aggregate columns of `columns`, in order: what each group computes.
    let aggregateColumns: [Column]
    /// The grouping columns, in order; nil when the request does not group.
    let groupBy: [Column]?
    let having: ObjectPredicate?
    let sortDescriptors: [ObjectSortDescriptor]
    let distinct: Bool
    let offset: Int
    let limit: Int

    /// Whether rows are folded into groups (grouping or aggregates) rather than one dictionary each.
    var aggregates: Bool {
        groupBy != nil || !aggregateColumns.isEmpty
    }

    /// Checks `request` against `model`.
    ///
    /// - Throws: ``FetchRequestError`` naming the property or expression at fault.
    init(_ request: FetchRequest<ManagedObject>, model: ManagedObjectModel) throws {
        guard let entity = model.entitiesByName[request.entityName] else {
            throw ObjectError.unknownEntity(request.entityName)
        }
        entityName = entity.name
        // As Core Data: with no properties asked for, every stored attribute and no relationship.
        let properties = request.propertiesToFetch ?? entity.properties.compactMap { property -> FetchProperty? in
            if case .attribute(let attribute) = property, !attribute.isTransient { return .keyPath(attribute.name) }
            return nil
        }
        var names = Set<String>()
        var columns: [Column] = []
        for property in properties {
            guard names.insert(property.name).inserted else { throw FetchRequestError.duplicatePropertyName(property.name) }
            columns.append(try Self.column(property, entity: entity, model: model))
        }
        self.columns = columns
        aggregateColumns = columns.filter { if case .aggregate = $0.kind { true } else { false } }
        if let grouping = request.propertiesToGroupBy {
            let groupColumns = try grouping.map { property -> Column in
                let column = try Self.column(property, entity: entity, model: model)
                if case .aggregate = column.kind {
                    throw FetchRequestError.invalidProperty(entity: entity.name, property: property.name,
                                                            reason: "an aggregate cannot be grouped by")
                }
                return column
            }
            groupBy = groupColumns
        } else {
            groupBy = nil
        }
        having = request.havingPredicate
        sortDescriptors = request.sortDescriptors
        distinct = request.returnsDistinctResults
        offset = request.fetchOffset
        limit = request.fetchLimit
        if having != nil, groupBy == nil { throw FetchRequestError.havingWithoutGroupBy(entity: entity.name) }
        if aggregates {
            let grouped = groupBy ?? []
            for column in columns {
                guard case .value(let path) = column.kind else { continue }
                let isGrouped = grouped.contains { $0.name == column.name || $0.path == path }
                if !isGrouped { throw FetchRequestError.ungroupedProperty(entity: entity.name, property: column.name) }
            }
            // Without grouping there is one result, and nothing to sort.
            let keys = Set(columns.map(\.name)).union(grouped.map(\.name))
            for descriptor in sortDescriptors where groupBy != nil && !keys.contains(descriptor.key) {
                throw FetchRequestError.sortKeyNotInResult(entity: entity.name, key: descriptor.key)
            }
        }
    }

    private static func column(_ property: FetchProperty, entity: EntityDescription, model: ManagedObjectModel) throws -> Column {
        switch property {
        case .keyPath(let path):
            let resolved = try ResolvedKeyPath.resolve(path, from: entity, in: model)
            return Column(name: path, kind: .value(resolved), attribute: resolved.resultAttribute(named: path), conversion: nil)
        case .expression(let description):
            let name = description.name
            guard !name.isEmpty else {
                throw FetchRequestError.invalidExpression(name: name, reason: "an expression description needs a name")
            }
            let typed = AttributeDescription(name: name, type: description.resultType)
            switch description.expression {
            case .keyPath(let path):
                let resolved = try ResolvedKeyPath.resolve(path, from: entity, in: model)
                return Column(name: name, kind: .value(resolved), attribute: typed, conversion: description.resultType)
            case .evaluatedObject:
                return Column(name: name, kind: .value(.evaluatedObject), attribute: typed, conversion: description.resultType)
            case let .function(function, argument):
                let path: ResolvedKeyPath
                switch argument {
                case .keyPath(let keyPath): path = try ResolvedKeyPath.resolve(keyPath, from: entity, in: model)
                case .evaluatedObject:
                    guard function == .count else {
                        throw FetchRequestError.invalidExpression(
                            name: name, reason: "\(function.functionName) needs a key path; only count: takes the object itself")
                    }
                    path = .evaluatedObject
                case .function:
                    throw FetchRequestError.invalidExpression(name: name, reason: "a function of a function is not supported")
                }
                if function == .sum || function == .average, !path.valueType.isNumeric {
                    throw FetchRequestError.invalidExpression(
                        name: name, reason: "\(function.functionName) needs numbers, but '\(path.path)' is \(path.valueType.rawValue)")
                }
                return Column(name: name, kind: .aggregate(function, path), attribute: typed, conversion: description.resultType)
            }
        }
    }

    /// The result dictionaries of `rows`: matched and, when not aggregating, sorted; ranged too
    /// unless grouping or distinct results range them here. `read` gives a row's stored value
    /// at a key path.
    func dictionaries(
        of rows: [FetchRow], read: (FetchRow, ResolvedKeyPath) throws -> AttributeValue?
    ) throws -> [FetchedDictionary] {
        if aggregates { return try dictionaries(ofGroups: try groups(of: rows, read: read)) }
        let results = try plainDictionaries(rows) { row, _, column in
            guard case .value(let path) = column.kind else { return nil }
            return try read(row, path)
        }
        // Rows of a plain fetch come ranged already; distinct results are ranged here.
        return distinct ? ranged(madeDistinct(results)) : results
    }

    /// The attributes and to-ones of the entity the columns read, each once, in order; nil when a
    /// column reads through a relationship or reads the object itself (the rows are then read
    /// whole): what a store is asked to read of each row for a fetch without grouping.
    var storeKeys: [String]? {
        var keys: [String] = []
        for column in columns {
            guard case .value(let path) = column.kind, let key = path.ownKey else { return nil }
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The result dictionaries of rows a store read as the values of `keys` (``storeKeys``), in
    /// the request's order and range.
    func dictionaries(ofRowValues rows: [[AttributeValue?]], keys: [String]) throws -> [FetchedDictionary] {
        let positions = columns.map { column -> Int? in
            guard case .value(let path) = column.kind, let key = path.ownKey else { return nil }
            return keys.firstIndex(of: key)
        }
        return try plainDictionaries(rows) { row, index, _ in
            guard let position = positions[index], position < row.count else { return nil }
            return row[position]
        }
    }

    /// One dictionary per row of a fetch without grouping: each column's value, as `value`
    /// gives it for the row and the column (with its index), converted as the column asks.
    private func plainDictionaries<Row>(
        _ rows: [Row], value: (Row, Int, Column) throws -> AttributeValue?
    ) throws -> [FetchedDictionary] {
        let requested = columns.map(\.name)
        let attributes = Dictionary(columns.map { ($0.name, $0.attribute) }, uniquingKeysWith: { first, _ in first })
        return try rows.map { row in
            var values: [String: AttributeValue] = [:]
            for (index, column) in columns.enumerated() {
                guard let found = try value(row, index, column) else { continue }
                values[column.name] = try convert(found, column)
            }
            return FetchedDictionary(requestedKeys: requested, storedValues: values, attributes: attributes, entityName: entityName)
        }
    }

    /// The result dictionaries of groups (computed by ``groups(of:read:)`` or by a store):
    /// filtered by the having predicate, sorted, made distinct and ranged.
    func dictionaries(ofGroups groups: [StoreGroup]) throws -> [FetchedDictionary] {
        let results = try groupedDictionaries(groups, arranged: false)
        return ranged(distinct ? madeDistinct(results) : results)
    }

    /// The result dictionaries of a store's groups: what the store left undone of filtering,
    /// sorting, making distinct and ranging is done here.
    func dictionaries(of result: StoreGroupingResult) throws -> [FetchedDictionary] {
        guard result.isArranged else { return try dictionaries(ofGroups: result.groups) }
        let results = try groupedDictionaries(result.groups, arranged: true)
        // A store that arranged the groups ranged them too, unless distinct results must be
        // made here first.
        return storeRanges ? results : ranged(madeDistinct(results))
    }

    /// Whether a store that arranges the groups ranges them too: unless distinct results must be
    /// made of them first, which only groups that may make equal dictionaries need.
    private var storeRanges: Bool { !distinct || groupsAreDistinctResults }

    /// The columns a store groups by: the grouping columns, none when aggregates fold every row
    /// into one group, and every column for distinct results without aggregates (distinct
    /// dictionaries are the groups of what they read).
    private var grouping: [Column] { groupBy ?? (aggregates ? [] : columns) }

    /// Every column of a group's dictionary before the result keys are kept: the result
    /// columns, then the grouping columns not among them.
    private var groupColumns: [Column] {
        var all = columns
        for column in grouping where !all.contains(where: { $0.name == column.name }) { all.append(column) }
        return all
    }

    /// What a group's column reads: a grouping key (found by name, or by the key path read) or an
    /// aggregate.
    private func groupValue(of column: Column) -> StoreGroupingRequest.Arrangement.Value? {
        switch column.kind {
        case .value(let path):
            let index = grouping.firstIndex { $0.name == column.name } ?? grouping.firstIndex { $0.path == path }
            return index.map { .key($0) }
        case .aggregate:
            return aggregateColumns.firstIndex { $0.name == column.name }.map { .aggregate($0) }
        }
    }

    /// Whether no two groups can make equal result dictionaries: every grouping key is a result
    /// column, as it is (groups differ by their keys, compared as values compare). Distinct
    /// results then need no filtering after the store's range.
    private var groupsAreDistinctResults: Bool {
        grouping.indices.allSatisfy { key in
            columns.contains { column in
                if case .key(key)? = groupValue(of: column) { column.conversion == nil } else { false }
            }
        }
    }

    /// Whether every column's value is kept as it is read: no expression converts it to another
    /// type (a conversion may throw, and filtering or sorting in a store would compare the values
    /// before it).
    private var valuesAreUnconverted: Bool {
        // Narrow integers throw for stored values out of their range; integers and Booleans sum
        // and average to integers and doubles.
        let narrow: Set<AttributeType> = [.integer16, .integer32]
        let counted: Set<AttributeType> = [.integer16, .integer32, .integer64, .boolean]
        return groupColumns.allSatisfy { column in
            guard let type = column.conversion else { return true }
            switch column.kind {
            case .value(let path): return type == path.valueType && !narrow.contains(type)
            case .aggregate(let function, let path):
                switch function {
                case .count: return type == .integer64
                case .average: return type == .double && counted.contains(path.valueType)
                case .sum: return type == .integer64 && counted.contains(path.valueType)
                case .min, .max: return type == path.valueType && !narrow.contains(type)
                }
            }
        }
    }

    /// What a store is asked to group, or nil when a column reads through a relationship or reads
    /// the object itself other than to count it (the rows are then grouped here). Distinct
    /// results without aggregates are asked as a grouping by every column, when their order reads
    /// only those columns.
    ///
    /// The store is also asked to filter, sort and range the groups when the values need no
    /// conversion; to range them only when it leaves nothing to make distinct.
    func groupingRequest(entityNames: Set<String>, predicate: ObjectPredicate?) -> StoreGroupingRequest? {
        if !aggregates {
            // A distinct fetch sorts its rows before it makes them distinct: the groups sort the
            // same only by what they read.
            guard distinct, !columns.isEmpty, valuesAreUnconverted,
                  sortDescriptors.allSatisfy({ descriptor in
                      columns.contains { $0.name == descriptor.key && $0.path.path == descriptor.key }
                  }) else { return nil }
        }
        var groupKeys: [String] = []
        for column in grouping {
            guard let name = column.path.ownKey else { return nil }
            groupKeys.append(name)
        }
        var storeAggregates: [StoreGroupingRequest.Aggregate] = []
        for column in aggregateColumns {
            guard case let .aggregate(function, path) = column.kind else { continue }
            if path == .evaluatedObject, function == .count {
                storeAggregates.append(.init(.count, key: nil))
            } else if let name = path.ownKey {
                storeAggregates.append(.init(function, key: name))
            } else {
                return nil
            }
        }
        var arrangement: StoreGroupingRequest.Arrangement?
        if !grouping.isEmpty, valuesAreUnconverted {
            var names: [String: StoreGroupingRequest.Arrangement.Value] = [:]
            for column in groupColumns {
                if let value = groupValue(of: column) { names[column.name] = value }
            }
            arrangement = .init(names: names, having: having, sortDescriptors: sortDescriptors,
                                offset: storeRanges ? offset : 0, limit: storeRanges ? limit : 0)
        }
        return StoreGroupingRequest(entityNames: entityNames, predicate: predicate, groupBy: groupKeys,
                                    aggregates: storeAggregates, arrangement: arrangement)
    }

    /// Groups rows by the grouping columns, in the order of each group's first row, and
    /// aggregates each group: what ``groupingRequest(entityNames:predicate:)`` asks a store for.
    private func groups(
        of rows: [FetchRow], read: (FetchRow, ResolvedKeyPath) throws -> AttributeValue?
    ) throws -> [StoreGroup] {
        var order: [[AttributeValue?]] = []
        var members: [[AttributeValue?]: [FetchRow]] = [:]
        for row in rows {
            let key = try grouping.map { try read(row, $0.path) }
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(row)
        }
        // Without grouping, aggregates fold every row into one result, even when there are none.
        if grouping.isEmpty, order.isEmpty { order = [[]] }
        return try order.map { key in
            let rows = members[key] ?? []
            let values = try aggregateColumns.map { column -> AttributeValue? in
                guard case let .aggregate(function, path) = column.kind else { return nil }
                return try aggregate(function, path: path, rows: rows, column: column, read: read)
            }
            return StoreGroup(key: key, aggregates: values)
        }
    }

    /// One dictionary per group, filtered by the having predicate and sorted unless a store
    /// `arranged` them so already.
    private func groupedDictionaries(_ groups: [StoreGroup], arranged: Bool) throws -> [FetchedDictionary] {
        let outputKeys = columns.map(\.name)
        let allColumns = groupColumns
        let attributes = Dictionary(allColumns.map { ($0.name, $0.attribute) }, uniquingKeysWith: { first, _ in first })
        let values = allColumns.map(groupValue(of:))
        let allNames = allColumns.map(\.name)

        var results: [FetchedDictionary] = []
        for group in groups {
            var stored: [String: AttributeValue] = [:]
            for (column, source) in zip(allColumns, values) {
                let value: AttributeValue? = switch source {
                case .key(let index)?: index < group.key.count ? group.key[index] : nil
                case .aggregate(let index)?: index < group.aggregates.count ? group.aggregates[index] : nil
                case nil: nil
                }
                if let value { stored[column.name] = try convert(value, column) }
            }
            let full = FetchedDictionary(requestedKeys: allNames, storedValues: stored, attributes: attributes,
                                         entityName: entityName)
            if !arranged, let having, !(try having.evaluate(with: full)) { continue }
            results.append(full)
        }
        if !arranged, !sortDescriptors.isEmpty, !grouping.isEmpty {
            results = try sortDescriptors.sorted(results) { dictionary, descriptor in
                try dictionary.value(forKey: descriptor.key)
            }
        }
        guard allColumns.count != columns.count else { return results }
        let output = Set(outputKeys)
        let outputAttributes = attributes.filter { output.contains($0.key) }
        return results.map { full in
            FetchedDictionary(requestedKeys: outputKeys, storedValues: full.storedValues.filter { output.contains($0.key) },
                              attributes: outputAttributes, entityName: entityName)
        }
    }

    /// The first of each run of equal dictionaries, in order.
    private func madeDistinct(_ results: [FetchedDictionary]) -> [FetchedDictionary] {
        var seen = Set<FetchedDictionary>()
        return results.filter { seen.insert($0).inserted }
    }

    /// The results within the request's offset and limit.
    private func ranged(_ results: [FetchedDictionary]) -> [FetchedDictionary] {
        let start = min(offset, results.count)
        let end = limit > 0 ? min(start + limit, results.count) : results.count
        return Array(results[start..<end])
    }

    // MARK: Aggregates

    private func aggregate(
        _ function: AggregateFunction, path: ResolvedKeyPath, rows: [FetchRow], column: Column,
        read: (FetchRow, ResolvedKeyPath) throws -> AttributeValue?
    ) throws -> AttributeValue? {
        let values = try rows.compactMap { try read($0, path) }
        switch function {
        case .count:
            return .integer(Int64(values.count))
        case .sum:
            return try Self.sum(values, name: column.name, empty: path.valueType)
        case .average:
            guard !values.isEmpty else { return nil }
            switch try Self.sum(values, name: column.name, empty: path.valueType) {
            case .decimal(let total): return .decimal(total / Decimal(values.count))
            case .integer(let total): return .double(Double(total) / Double(values.count))
            case .double(let total): return .double(total / Double(values.count))
            case .float(let total): return .double(Double(total) / Double(values.count))
            default: return nil
            }
        case .min, .max:
            var best: AttributeValue?
            for value in values {
                guard let current = best else { best = value; continue }
                let order = ValueComparison.order(PredicateValue(value), PredicateValue(current), options: [])
                if (function == .min && order == .orderedAscending) || (function == .max && order == .orderedDescending) {
                    best = value
                }
            }
            return best
        }
    }

    /// The total of numeric values: exact for integers (widening to a double on overflow) and
    /// decimals; 0 of the attribute's kind when there are none.
    private static func sum(_ values: [AttributeValue], name: String, empty type: AttributeType) throws -> AttributeValue {
        var integer: Int64 = 0
        var double = 0.0
        var decimal = Decimal(0)
        var kind: AttributeType = switch type {
        case .decimal: .decimal
        case .double, .float: .double
        default: .integer64
        }
        var overflowed = false
        for value in values {
            switch value {
            case .integer(let v):
                let (total, overflow) = integer.addingReportingOverflow(v)
                if overflow { overflowed = true } else { integer = total }
                double += Double(v); decimal += Decimal(v)
            case .double(let v): kind = kind == .decimal ? .decimal : .double; double += v; decimal += Decimal(v)
            case .float(let v): kind = kind == .decimal ? .decimal : .double; double += Double(v); decimal += Decimal(Double(v))
            case .decimal(let v): kind = .decimal; decimal += v; double += NSDecimalNumber(decimal: v).doubleValue
            case .boolean(let v): integer += v ? 1 : 0; double += v ? 1 : 0; decimal += v ? 1 : 0
            default:
                throw FetchRequestError.invalidExpression(name: name, reason: "sum: of a non-number value \(value)")
            }
        }
        switch kind {
        case .decimal: return .decimal(decimal)
        case .double: return .double(double)
        default: return overflowed ? .double(double) : .integer(integer)
        }
    }

    // MARK: Result types

    /// A value converted to its column's declared result type.
    private func convert(_ value: AttributeValue, _ column: Column) throws -> AttributeValue {
        guard let type = column.conversion else { return value }
        guard let converted = Self.convert(value, to: type) else {
            throw FetchRequestError.expressionResultType(name: column.name, expected: type, found: "\(value)")
        }
        return converted
    }

    /// `value` as a value of `type`, or nil when it does not fit (an integer type takes numbers
    /// rounded toward zero and within its range).
    static func convert(_ value: AttributeValue, to type: AttributeType) -> AttributeValue? {
        switch type {
        case .integer16, .integer32, .integer64:
            let integer: Int64?
            switch value {
            case .integer(let v): integer = v
            case .double(let v): integer = Int64(exactly: v.rounded(.towardZero))
            case .float(let v): integer = Int64(exactly: Double(v).rounded(.towardZero))
            case .decimal(let v):
                var source = v
                var rounded = Decimal()
                NSDecimalRound(&rounded, &source, 0, .down)
                integer = Int64(rounded.description)
            case .boolean(let v): integer = v ? 1 : 0
            default: integer = nil
            }
            guard let integer else { return nil }
            let fits = switch type {
            case .integer16: Int16(exactly: integer) != nil
            case .integer32: Int32(exactly: integer) != nil
            default: true
            }
            return fits ? .integer(integer) : nil
        case .double:
            switch value {
            case .integer(let v): return .double(Double(v))
            case .double: return value
            case .float(let v): return .double(Double(v))
            case .decimal(let v): return .double(NSDecimalNumber(decimal: v).doubleValue)
            case .boolean(let v): return .double(v ? 1 : 0)
            default: return nil
            }
        case .float:
            switch value {
            case .integer(let v): return .float(Float(v))
            case .double(let v): return .float(Float(v))
            case .float: return value
            case .decimal(let v): return .float(NSDecimalNumber(decimal: v).floatValue)
            case .boolean(let v): return .float(v ? 1 : 0)
            default: return nil
            }
        case .decimal:
            switch value {
            case .integer(let v): return .decimal(Decimal(v))
            case .double(let v): return v.isFinite ? .decimal(Decimal(v)) : nil
            case .float(let v): return v.isFinite ? .decimal(Decimal(Double(v))) : nil
            case .decimal: return value
            case .boolean(let v): return .decimal(v ? 1 : 0)
            default: return nil
            }
        case .boolean:
            switch value {
            case .boolean: return value
            case .integer(let v): return .boolean(v != 0)
            default: return nil
            }
        case .binaryData, .transformable:
            if case .binary = value { return value }
            return nil
        default:
            return value.matches(type) ? value : nil
        }
    }
}
