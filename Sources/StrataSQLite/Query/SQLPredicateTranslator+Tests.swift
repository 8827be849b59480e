import Foundation
@_spi(StoreImplementation) import StrataCore

/// Comparisons of one value with a constant or with another value.
///
/// Each test is exact for every state of the value, nil included, and two-valued. Where a
/// plain SQL comparison says the same as the in-memory evaluator (numbers, dates, Booleans,
/// bytes, strings compared by scalars, ASCII strings) it is used, so that indexes work; the
/// answer for nil, NaN and −0.0 comes from the evaluator itself, and the fast form is checked
/// against the evaluator on probe values before it is used. Everything else goes through the
/// functions of ``SQLQueryFunctions``.
extension SQLPredicateTranslator {
    typealias Operator = ObjectPredicate.Operator

    static let orderOperators: Set<Operator> = [.equalTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo]

    /// `term OPERATOR value` for a scalar or object term.
    func test(_ term: SQLTerm, _ operation: Operator, _ options: StringComparisonOptions,
              _ value: PredicateValue) throws(Untranslatable) -> SQLFragment {
        switch operation {
        case .notEqualTo:
            return .not(try test(term, .equalTo, options, value))
        case .between:
            guard case .array(let bounds) = value, bounds.count == 2 else { return .alwaysFalse }
            return .and([try test(term, .greaterThanOrEqualTo, options, bounds[0]),
                         try test(term, .lessThanOrEqualTo, options, bounds[1])])
        case .in:
            if case .array(let items) = value { return try membership(term, options, items) }
        case .matches:
            // An invalid pattern throws in memory: leave it there.
            if case .string = value { _ = try oracle(.string(""), .matches, value, options) }
        default:
            break
        }
        let nullResult = try oracle(.null, operation, value, options)
        switch term {
        case .object(let object):
            return try objectTest(object, operation, value, nullResult: nullResult)
        case .scalar(let scalar) where scalar.isOptional && scalar.column == nil:
            return try computedValueTest(scalar, operation, options, value, nullResult: nullResult)
        case .scalar(let scalar):
            let (fragment, coversNil) = try scalarTest(scalar, operation, options, value)
            guard scalar.isOptional, !coversNil else { return fragment }
            return nullResult
                ? .or([scalar.expression + " IS NULL", fragment])
                : .and([scalar.expression + " IS NOT NULL", fragment])
        default:
            throw Untranslatable("a comparison of a collection")
        }
    }

    /// The name a computed value is given in ``computedValueTest(_:_:_:_:nullResult:)``.
    static let computedValueName = "strata_value"

    /// A test of a value SQL computes per row and may be nil (a to-many's aggregate, a
    /// subquery's value): the value is computed once, in a one-row subquery SQLite does not
    /// flatten (its `OFFSET`), and the nil check and the comparison read it by name. Written
    /// out twice, as for a column, the subquery would run twice for every row.
    private func computedValueTest(_ scalar: SQLScalarValue, _ operation: Operator, _ options: StringComparisonOptions,
                                   _ value: PredicateValue, nullResult: Bool) throws(Untranslatable) -> SQLFragment {
        let name = Self.computedValueName
        var named = scalar
        named.expression = SQLFragment(name)
        let (fragment, coversNil) = try scalarTest(named, operation, options, value)
        let condition: SQLFragment = coversNil ? fragment
            : nullResult ? .or([SQLFragment("\(name) IS NULL"), fragment])
            : .and([SQLFragment("\(name) IS NOT NULL"), fragment])
        if condition.isAlwaysTrue || condition.isAlwaysFalse { return condition }
        return "EXISTS (SELECT 1 FROM (SELECT " + scalar.expression + " AS \(name) LIMIT -1 OFFSET 0) WHERE " + condition + ")"
    }

    /// `term IN {items}`: equal to one of them.
    private func membership(_ term: SQLTerm, _ options: StringComparisonOptions,
                            _ items: [PredicateValue]) throws(Untranslatable) -> SQLFragment {
        if case .scalar(let scalar) = term, !items.isEmpty {
            var values: [SQLiteValue]?
            switch scalar.type {
            case .integer16, .integer32, .integer64:
                values = items.allSatisfy({ if case .integer = $0 { true } else { false } })
                    ? items.compactMap { if case .integer(let i) = $0 { .integer(i) } else { nil } } : nil
            case .string where options == [.normalized]:
                values = items.allSatisfy({ if case .string = $0 { true } else { false } })
                    ? items.compactMap { if case .string(let s) = $0 { .text(s) } else { nil } } : nil
            case .string where options.isEmpty:
                var all: [SQLiteValue] = []
                for item in items {
                    guard case .string(let s) = item, let variants = Self.asciiVariants(s) else { all = []; break }
                    all += variants.map { .text($0) }
                }
                values = all.isEmpty ? nil : all
            default:
                break
            }
            if let values {
                let list = SQLFragment.joined(values.map(SQLFragment.value), separator: ", ")
                let inList = scalar.expression + " IN (" + list + ")"
                return scalar.isOptional ? .and([scalar.expression + " IS NOT NULL", inList]) : inList
            }
        }
        var parts: [SQLFragment] = []
        for item in items { parts.append(try test(term, .equalTo, options, item)) }
        return .or(parts)
    }

    // MARK: Objects

    private static let sampleObjectID = ManagedObjectID(entityName: "_", storeIdentifier: "_", primaryKey: 1)

    private func objectTest(_ object: SQLObjectValue, _ operation: Operator, _ value: PredicateValue,
                            nullResult: Bool) throws(Untranslatable) -> SQLFragment {
        let present: SQLFragment
        if operation == .equalTo {
            present = if case .objectID(let id) = value { match(object, id) } else { .alwaysFalse }
        } else {
            // No other operator looks at which object it is (objects have no order).
            present = .constant(try oracle(.objectID(Self.sampleObjectID), operation, value, []))
        }
        guard object.isOptional else { return present }
        return nullResult ? .or([object.key + " IS NULL", present]) : .and([object.key + " IS NOT NULL", present])
    }

    /// The object is the one `id` names.
    private func match(_ object: SQLObjectValue, _ id: ManagedObjectID) -> SQLFragment {
        guard id.storeIdentifier == storeIdentifier, let key = id.primaryKey, let code = schema.codes[id.entityName],
              schema.table(for: id.entityName)?.name == object.table else { return .alwaysFalse }
        return .and([object.key + " = " + .value(.integer(key)), object.entityCode + " = " + .value(.integer(code))])
    }

    // MARK: Elements of a to-many

    /// The order operator that holds exactly where `operation` does not, between two numbers.
    private static func complement(_ operation: Operator) -> Operator? {
        switch operation {
        case .lessThan: .greaterThanOrEqualTo
        case .greaterThanOrEqualTo: .lessThan
        case .lessThanOrEqualTo: .greaterThan
        case .greaterThan: .lessThanOrEqualTo
        default: nil
        }
    }

    /// The condition, inside a to-many's `EXISTS`, that an element is not nil and passes
    /// `term OPERATOR value` (or, when `negated`, fails it), as one bare comparison of the
    /// element's integer column (`c.ZCREDITS < ?`) where that is exact: SQLite's comparison of
    /// a NULL column is NULL, which the subquery's `WHERE` drops as the nil check would, and the
    /// complement of an order comparison of integers is the opposite comparison. The subquery
    /// then tests each element once, as hand-written SQL does, and not three times (nil check,
    /// comparison, nil check again). Nil when the element is not such a column.
    func bareElementTest(_ term: SQLTerm, _ operation: Operator, _ options: StringComparisonOptions,
                         _ value: PredicateValue, negated: Bool) throws(Untranslatable) -> SQLFragment? {
        guard case .scalar(let scalar) = term, scalar.column != nil,
              [.integer16, .integer32, .integer64].contains(scalar.type),
              Self.category(scalar.type) == Self.category(value),
              let tested = negated ? Self.complement(operation) : operation,
              Self.orderOperators.contains(tested) else { return nil }
        if negated {
            // The evaluator's answers are each other's opposites on the values that matter.
            var probes: [Int64] = [0, 1, -1, .max, .min]
            if case .integer(let bound) = value { probes += [bound, bound &+ 1, bound &- 1] }
            for probe in probes where try oracle(.integer(probe), operation, value, options)
                == (try oracle(.integer(probe), tested, value, options)) {
                return nil
            }
        }
        return try integerTest(scalar, tested, options, value)
    }

    // MARK: Scalars

    /// The kinds of values that can be compared with each other at all.
    private enum Category { case number, string, date, data, uuid, url, object, other }

    private static func category(_ type: AttributeType) -> Category {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean: .number
        case .string: .string
        case .date: .date
        case .binaryData, .transformable: .data
        case .uuid: .uuid
        case .uri: .url
        case .objectID: .object
        }
    }

    private static func category(_ value: PredicateValue) -> Category {
        switch value {
        case .bool, .integer, .double, .decimal: .number
        case .string: .string
        case .date: .date
        case .data: .data
        case .uuid: .uuid
        case .url: .url
        case .objectID: .object
        case .null, .array: .other
        }
    }

    /// A value of each type, for comparisons whose answer does not depend on the value.
    private static func sample(_ type: AttributeType) -> PredicateValue {
        switch type {
        case .integer16, .integer32, .integer64: .integer(0)
        case .double, .float: .double(0)
        case .decimal: .decimal(0)
        case .boolean: .bool(false)
        case .string: .string("")
        case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
        case .binaryData, .transformable: .data(Data())
        case .uuid: .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .uri: .url(URL(fileURLWithPath: "/"))
        case .objectID: .objectID(sampleObjectID)
        }
    }

    /// The test for a value that is not nil, and whether it also answers for nil.
    private func scalarTest(_ scalar: SQLScalarValue, _ operation: Operator, _ options: StringComparisonOptions,
                            _ value: PredicateValue) throws(Untranslatable) -> (SQLFragment, Bool) {
        guard Self.category(scalar.type) == Self.category(value) else {
            // Values that cannot be compared: the answer is the same for every value.
            return (.constant(try oracle(Self.sample(scalar.type), operation, value, options)), false)
        }
        switch scalar.type {
        case .boolean:
            return (try booleanTest(scalar, operation, options, value), false)
        case .integer16, .integer32, .integer64:
            if let fragment = try integerTest(scalar, operation, options, value) { return (fragment, false) }
        case .double, .float, .date:
            if let fragment = try floatingTest(scalar, operation, options, value) { return (fragment, false) }
        case .string:
            if case .string(let string) = value, let fragment = try stringTest(scalar, operation, options, string) {
                return (fragment, false)
            }
        case .binaryData, .transformable:
            guard Self.orderOperators.contains(operation), case .data(let data) = value else { break }
            return ("CAST(" + scalar.expression + " AS BLOB) \(operation.sqlOperator) " + .value(.blob(data)), false)
        default:
            break
        }
        guard Self.orderOperators.contains(operation) || scalar.type == .string else {
            return (.constant(try oracle(Self.sample(scalar.type), operation, value, options)), false)
        }
        return (try functionTest(scalar, operation, options, value), true)
    }

    /// A Boolean has two values: ask about both.
    private func booleanTest(_ scalar: SQLScalarValue, _ operation: Operator, _ options: StringComparisonOptions,
                             _ value: PredicateValue) throws(Untranslatable) -> SQLFragment {
        switch (try oracle(.bool(false), operation, value, options), try oracle(.bool(true), operation, value, options)) {
        case (true, true): .alwaysTrue
        case (false, false): .alwaysFalse
        case (false, true): scalar.expression + " <> 0"
        case (true, false): scalar.expression + " = 0"
        }
    }

    /// Integers against a number: SQLite compares integers and reals exactly, which is what the
    /// evaluator does for reals below 2^53.
    private func integerTest(_ scalar: SQLScalarValue, _ operation: Operator, _ options: StringComparisonOptions,
                             _ value: PredicateValue) throws(Untranslatable) -> SQLFragment? {
        guard Self.orderOperators.contains(operation) else { return nil }
        let bound: SQLiteValue
        switch value {
        case .integer(let i): bound = .integer(i)
        case .bool(let b): bound = .integer(b ? 1 : 0)
        case .double(let d) where d.isFinite && abs(d) < 0x1p53: bound = .real(d)
        case .decimal(let d):
            guard let i = Int64(d.description) else { return nil }
            bound = .integer(i)
        default: return nil
        }
        var probes: [Int64] = [0, 1, -1, .max, .min, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1]
        switch bound {
        case .integer(let i): probes += [i, i &+ 1, i &- 1]
        case .real(let d): let f = Int64(d.rounded(.down)); probes += [f, f &+ 1, f &- 1, f &+ 2]
        default: break
        }
        for probe in probes {
            guard try oracle(.integer(probe), operation, value, options) == Self.holds(operation, Self.compare(probe, bound)) else {
                return nil
            }
        }
        return scalar.expression + " \(operation.sqlOperator) " + .value(bound)
    }

    /// The exact order of an integer and a bound number, as SQLite compares them.
    private static func compare(_ x: Int64, _ bound: SQLiteValue) -> ComparisonResult {
        switch bound {
        case .integer(let i): return x < i ? .orderedAscending : (x == i ? .orderedSame : .orderedDescending)
        case .real(let d):
            if d >= 0x1p63 { return .orderedAscending }
            if d < -0x1p63 { return .orderedDescending }
            let floor = d.rounded(.down)
            let whole = Int64(floor)
            if x < whole { return .orderedAscending }
            if x > whole { return .orderedDescending }
            return floor == d ? .orderedSame : .orderedAscending
        default: return .orderedSame
        }
    }

    private static func holds(_ operation: Operator, _ order: ComparisonResult) -> Bool {
        switch operation {
        case .equalTo: order == .orderedSame
        case .lessThan: order == .orderedAscending
        case .lessThanOrEqualTo: order != .orderedDescending
        case .greaterThan: order == .orderedDescending
        case .greaterThanOrEqualTo: order != .orderedAscending
        default: false
        }
    }

    /// Doubles, floats and dates against a number (a date for dates): IEEE comparison of REALs.
    /// A NaN is stored as a BLOB, which SQLite orders after every number — what the evaluator
    /// does with a NaN on the left; −0.0 is a BLOB too, and is put right separately.
    private func floatingTest(_ scalar: SQLScalarValue, _ operation: Operator, _ options: StringComparisonOptions,
                              _ value: PredicateValue) throws(Untranslatable) -> SQLFragment? {
        guard Self.orderOperators.contains(operation) else { return nil }
        let isDate = scalar.type == .date
        let bound: Double
        if isDate {
            guard case .date(let date) = value else { return nil }
            bound = date.timeIntervalSinceReferenceDate
        } else {
            guard let number = value.doubleValue else { return nil }
            bound = number
        }
        guard !bound.isNaN else { return nil }
        func stored(_ x: Double) -> PredicateValue { isDate ? .date(Date(timeIntervalSinceReferenceDate: x)) : .double(x) }
        let probes: [Double] = [bound, bound.nextUp, bound.nextDown, 0, 1, -1, .infinity, -.infinity, .greatestFiniteMagnitude,
                                -.greatestFiniteMagnitude, -bound, bound * 2, bound / 2, bound + 1, bound - 1]
        for probe in probes where !probe.isNaN && !(probe == 0 && probe.sign == .minus) {
            let order: ComparisonResult = probe < bound ? .orderedAscending : (probe == bound ? .orderedSame : .orderedDescending)
            guard try oracle(stored(probe), operation, value, options) == Self.holds(operation, order) else { return nil }
        }
        // SQLite: a BLOB is greater than any number.
        let blobAnswer = operation == .greaterThan || operation == .greaterThanOrEqualTo
        guard try oracle(stored(.nan), operation, value, options) == blobAnswer else { return nil }
        let plain = scalar.expression + " \(operation.sqlOperator) " + .value(.real(bound))
        let negativeZero = try oracle(stored(-0.0), operation, value, options)
        guard negativeZero != blobAnswer else { return plain }
        let blob = SQLiteValueCoding.encode(.double(-0.0))
        return negativeZero
            ? .or([plain, scalar.expression + " = " + .value(blob)])
            : .and([plain, scalar.expression + " <> " + .value(blob)])
    }

    /// Strings: by bytes where that is what the evaluator does (`[n]`, which compares scalars),
    /// an `IN` list of the spellings of an ASCII string for `==`, a range of bytes in front of the
    /// exact function for `BEGINSWITH`.
    private func stringTest(_ scalar: SQLScalarValue, _ operation: Operator, _ options: StringComparisonOptions,
                            _ string: String) throws(Untranslatable) -> SQLFragment? {
        let expression = scalar.expression
        let normalized = options.contains(.normalized)
        if normalized, Self.orderOperators.contains(operation) {
            return expression + " \(operation.sqlOperator) " + .value(.text(string))
        }
        switch operation {
        case .equalTo where options.isEmpty:
            guard let variants = Self.asciiVariants(string), variants.count <= 16 else { return nil }
            if variants.count == 1 { return expression + " = " + .value(.text(string)) }
            return expression + " IN (" + .joined(variants.map { .value(.text($0)) }, separator: ", ") + ")"
        case .beginsWith where normalized:
            if string.isEmpty { return .alwaysTrue }
            guard let upper = Self.successor(string) else { return nil }
            return .and([expression + " >= " + .value(.text(string)), expression + " < " + .value(.text(upper))])
        case .beginsWith where options.isEmpty:
            guard !string.isEmpty, Self.asciiVariants(string)?.count == 1, let upper = Self.successor(string) else { return nil }
            return .and([expression + " >= " + .value(.text(string)), expression + " < " + .value(.text(upper)),
                         try functionTest(scalar, operation, options, .string(string))])
        default:
            return nil
        }
    }

    /// Every string canonically equivalent to an ASCII string, or nil when it is not ASCII (or
    /// has more than 64 spellings). Only
    /// three characters outside ASCII decompose to an ASCII one: KELVIN SIGN (K), GREEK QUESTION
    /// MARK (;) and GREEK VARIA (`); a test checks this against every scalar.
    static func asciiVariants(_ string: String) -> [String]? {
        guard string.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        var variants = [""]
        for scalar in string.unicodeScalars {
            let alternatives: [Unicode.Scalar] = switch scalar {
            case "K": ["K", "\u{212A}"]
            case ";": [";", "\u{37E}"]
            case "`": ["`", "\u{1FEF}"]
            default: [scalar]
            }
            if alternatives.count > 1, variants.count >= 64 { return nil }
            variants = variants.flatMap { prefix in alternatives.map { prefix + String($0) } }
        }
        return variants
    }

    /// The least string greater than every string that begins with `string` (by scalars): its
    /// last scalar raised by one; nil when that is U+10FFFF.
    static func successor(_ string: String) -> String? {
        var scalars = Array(string.unicodeScalars)
        guard let last = scalars.popLast() else { return nil }
        var next = last.value + 1
        if next == 0xD800 { next = 0xE000 }
        guard let raised = Unicode.Scalar(next) else { return nil }
        scalars.append(raised)
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    /// The comparison through a registered function, which asks the evaluator for each row.
    private func functionTest(_ scalar: SQLScalarValue, _ operation: Operator, _ options: StringComparisonOptions,
                              _ value: PredicateValue) throws(Untranslatable) -> SQLFragment {
        guard let (code, encoded) = SQLValueType.encode(value) else { throw Untranslatable("the constant \(value)") }
        let constant = SQLFragment.value(encoded)
        if scalar.type == .string, case .string = value {
            switch operation {
            case .like: return "\(SQLQueryFunctions.likeFunction)(" + scalar.expression + ", " + constant + ", \(options.rawValue))"
            case .matches: return "\(SQLQueryFunctions.regexpFunction)(" + scalar.expression + ", " + constant + ", \(options.rawValue))"
            default:
                return "\(SQLQueryFunctions.stringFunction)(\(SQLQueryFunctions.code(operation)), \(options.rawValue), "
                    + scalar.expression + ", " + constant + ")"
            }
        }
        return "\(SQLQueryFunctions.compareFunction)(\(SQLQueryFunctions.code(operation)), \(options.rawValue), "
            + "\(SQLValueType.code(scalar.type)), " + scalar.expression + ", \(code), " + constant + ")"
    }

    // MARK: Constant on the left, two values

    /// `value OPERATOR term`, the constant on the left.
    func reversedTest(_ value: PredicateValue, _ operation: Operator, _ options: StringComparisonOptions,
                      _ term: SQLTerm) throws(Untranslatable) -> SQLFragment {
        switch term {
        case .object(let object):
            if operation == .equalTo || operation == .notEqualTo {
                // Equality is symmetric.
                return try test(term, operation, options, value)
            }
            let present = try oracle(value, operation, .objectID(Self.sampleObjectID), options)
            let absent = try oracle(value, operation, .null, options)
            if present == absent { return .constant(present) }
            return present ? object.key + " IS NOT NULL" : object.key + " IS NULL"
        case .scalar(let scalar):
            guard operation != .like, operation != .matches else {
                throw Untranslatable("a pattern read from the row")
            }
            guard let (code, encoded) = SQLValueType.encode(value) else { throw Untranslatable("the constant \(value)") }
            if scalar.type == .string, case .string = value {
                return "\(SQLQueryFunctions.stringFunction)(\(SQLQueryFunctions.code(operation)), \(options.rawValue), "
                    + .value(encoded) + ", " + scalar.expression + ")"
            }
            return "\(SQLQueryFunctions.compareFunction)(\(SQLQueryFunctions.code(operation)), \(options.rawValue), \(code), "
                + .value(encoded) + ", \(SQLValueType.code(scalar.type)), " + scalar.expression + ")"
        default:
            throw Untranslatable("a constant compared with a collection")
        }
    }

    /// `left OPERATOR right` for two values read from rows.
    func pairTest(_ left: SQLTerm, _ operation: Operator, _ options: StringComparisonOptions,
                  _ right: SQLTerm) throws(Untranslatable) -> SQLFragment {
        switch (left, right) {
        case let (.object(a), .object(b)):
            switch operation {
            case .equalTo:
                if a.table == b.table { return a.key + " IS " + b.key }
                return .and([a.key + " IS NULL", b.key + " IS NULL"])
            case .notEqualTo:
                return .not(try pairTest(left, .equalTo, options, right))
            default:
                let sample = PredicateValue.objectID(Self.sampleObjectID)
                let answers = [try oracle(sample, operation, sample, options), try oracle(.null, operation, sample, options),
                               try oracle(sample, operation, .null, options), try oracle(.null, operation, .null, options)]
                guard let first = answers.first, answers.allSatisfy({ $0 == first }) else {
                    throw Untranslatable("\(operation.rawValue) between objects")
                }
                return .constant(first)
            }
        case let (.scalar(a), .scalar(b)):
            if operation == .notEqualTo { return .not(try pairTest(left, .equalTo, options, right)) }
            let counts: Set<AttributeType> = [.integer16, .integer32, .integer64]
            if !a.isOptional, !b.isOptional, counts.contains(a.type), counts.contains(b.type), Self.orderOperators.contains(operation) {
                return a.expression + " \(operation.sqlOperator) " + b.expression
            }
            guard operation != .like, operation != .matches else { throw Untranslatable("a pattern read from the row") }
            return "\(SQLQueryFunctions.compareFunction)(\(SQLQueryFunctions.code(operation)), \(options.rawValue), "
                + "\(SQLValueType.code(a.type)), " + a.expression + ", \(SQLValueType.code(b.type)), " + b.expression + ")"
        default:
            throw Untranslatable("a comparison of an object with a value")
        }
    }
}

extension ObjectPredicate.Operator {
    /// The SQL operator of an order or equality operator.
    var sqlOperator: String {
        switch self {
        case .equalTo: "="
        case .notEqualTo: "<>"
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        default: rawValue
        }
    }
}
