internal import CSQLite
import Foundation
@_spi(StoreImplementation) import StrataCore

/// The SQL functions and collations translated fetches call, registered on every connection.
///
/// Each one answers with the in-memory evaluator's own semantics (``PredicateOracle``), so a
/// condition SQLite evaluates through them gives what every other store gives:
///
/// | function | gives |
/// |---|---|
/// | `strata_string(op, options, left, right)` | a string comparison (`==`, `<`, `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `IN`, …) with `[c]`, `[d]` and `[n]` folding exactly as predicates fold |
/// | `strata_like(text, pattern, options)` | `LIKE` with Core Data's `*` and `?` wildcards and `\` escapes |
/// | `strata_regexp(text, pattern, options)` | `MATCHES`: NSRegularExpression, the whole string |
/// | `strata_compare(op, options, ltype, left, rtype, right)` | any comparison of two values of the given attribute types (decimals, UUIDs, URIs, …) |
///
/// All return 1 or 0, never NULL (nil is a value they compare, as predicates do), and are
/// deterministic. `op` is the operator's position in `ObjectPredicate.Operator.allCases`,
/// `options` the raw value of `StringComparisonOptions`, a type its ``SQLValueType`` code.
///
/// The aggregates `strata_sum`, `strata_avg`, `strata_min` and `strata_max` of
/// ``SQLQueryAggregates`` are registered with them.
///
/// The collations `STRATA_STANDARD` and `STRATA_CASEINSENSITIVE` order strings as
/// `ObjectSortDescriptor.Comparison.standard` and `.caseInsensitive` do. `strata_standard_key(x)`
/// is the sort key of `.standard`: a text in normal form C (an all-ASCII text as it is), any
/// other value unchanged; SQLite's BINARY order of the keys is the `.standard` order of the
/// values, with one call per row instead of one per comparison.
enum SQLQueryFunctions {
    static let stringFunction = "strata_string"
    static let likeFunction = "strata_like"
    static let regexpFunction = "strata_regexp"
    static let compareFunction = "strata_compare"
    static let standardKeyFunction = "strata_standard_key"
    static let standardCollation = "STRATA_STANDARD"
    static let caseInsensitiveCollation = "STRATA_CASEINSENSITIVE"

    /// The code of an operator in SQL calls.
    static func code(_ operation: ObjectPredicate.Operator) -> Int64 {
        Int64(ObjectPredicate.Operator.allCases.firstIndex(of: operation) ?? 0)
    }

    /// Registers every function and collation on `connection`.
    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        let functions: [(String, Int32, @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void)] = [
            (stringFunction, 4, stringCallback), (likeFunction, 3, likeCallback),
            (regexpFunction, 3, regexpCallback), (compareFunction, 6, compareCallback),
        ]
        for (name, arity, body) in functions {
            let result = sqlite3_create_function_v2(connection.handle, name, arity, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                                    nil, body, nil, nil, nil)
            guard result == SQLITE_OK else { throw connection.lastError(sql: nil, code: result) }
        }
        let key = sqlite3_create_function_v2(connection.handle, standardKeyFunction, 1,
                                             SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil, standardKeyCallback, nil, nil, nil)
        guard key == SQLITE_OK else { throw connection.lastError(sql: nil, code: key) }
        try SQLQueryAggregates.register(on: connection)
        try SQLRunningDoubleAggregates.register(on: connection)
        let collations: [(String, @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32)] = [
            (standardCollation, standardCollationCallback), (caseInsensitiveCollation, caseInsensitiveCollationCallback),
        ]
        for (name, body) in collations {
            let result = sqlite3_create_collation_v2(connection.handle, name, SQLITE_UTF8, nil, body, nil)
            guard result == SQLITE_OK else { throw connection.lastError(sql: nil, code: result) }
        }
    }

    /// A function's failure, reported to SQLite as the statement's error.
    struct FunctionError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The prefix of the message of a failed function call: a column value that cannot be read
    /// as its attribute's type.
    static let corruptValuePrefix = "strata: unreadable value: "

    fileprivate static func comparison(_ operation: SQLiteValue, _ options: SQLiteValue, _ leftType: AttributeType,
                                   _ left: SQLiteValue, _ rightType: AttributeType, _ right: SQLiteValue) throws -> Bool {
        guard case .integer(let code) = operation, code >= 0, code < ObjectPredicate.Operator.allCases.count,
              case .integer(let rawOptions) = options else {
            throw FunctionError("bad operator or options")
        }
        let operation = ObjectPredicate.Operator.allCases[Int(code)]
        let lhs: PredicateValue, rhs: PredicateValue
        do {
            lhs = try SQLValueType.decode(left, as: leftType)
            rhs = try SQLValueType.decode(right, as: rightType)
        } catch {
            throw FunctionError(corruptValuePrefix + error.description)
        }
        guard let result = PredicateOracle.test(lhs, operation, rhs, options: StringComparisonOptions(rawValue: Int(rawOptions))) else {
            throw FunctionError("the comparison cannot be evaluated")
        }
        return result
    }

    /// Reads the arguments, runs `body` and reports its answer (1 or 0) or its error.
    fileprivate static func run(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?,
                            _ body: ([SQLiteValue]) throws -> Bool) {
        var values: [SQLiteValue] = []
        values.reserveCapacity(Int(count))
        for index in 0..<Int(count) { values.append(value(arguments?[index])) }
        do {
            sqlite3_result_int64(context, try body(values) ? 1 : 0)
        } catch let error as FunctionError {
            sqlite3_result_error(context, error.message, -1)
        } catch {
            sqlite3_result_error(context, "\(error)", -1)
        }
    }

    /// An argument in its own storage class.
    static func value(_ argument: OpaquePointer?) -> SQLiteValue {
        switch sqlite3_value_type(argument) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(argument))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(argument))
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(argument) else { return .text("") }
            let count = Int(sqlite3_value_bytes(argument))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let bytes = sqlite3_value_blob(argument)
            let count = Int(sqlite3_value_bytes(argument))
            guard let bytes, count > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }

    /// The byte order (-1, 0, 1) of two texts that are both ASCII; nil when either is not.
    static func asciiOrder(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int32? {
        var differs: Int32 = 0
        for index in 0..<max(left.count, right.count) {
            let a: UInt8 = index < left.count ? left[index] : 0
            let b: UInt8 = index < right.count ? right[index] : 0
            if a | b >= 0x80 { return nil }
            if differs == 0 {
                if index >= left.count { differs = -1 } else if index >= right.count { differs = 1 } else if a != b { differs = a < b ? -1 : 1 }
            }
        }
        return differs
    }

    /// Whether every byte is ASCII.
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var any: UInt8 = 0
        for byte in bytes { any |= byte }
        return any < 0x80
    }

    /// Sets the result of `strata_standard_key(argument)`: a text in normal form C, through the
    /// normalizer Swift's `String` comparison uses (`_nfcCodeUnits`), so that two texts' keys are
    /// equal exactly when the texts are canonically equivalent, and ordered by their bytes as
    /// Swift orders the texts (NFC scalars, whose order is their UTF-8 bytes' order). An
    /// all-ASCII text is its own key; a value that is not text is its own key too (SQLite orders
    /// NULL, numbers, texts, blobs so, as the collation of a text column does).
    static func standardKey(_ context: OpaquePointer?, _ argument: OpaquePointer?) {
        guard sqlite3_value_type(argument) == SQLITE_TEXT, let text = sqlite3_value_text(argument) else {
            return sqlite3_result_value(context, argument)
        }
        let bytes = UnsafeRawBufferPointer(start: text, count: Int(sqlite3_value_bytes(argument)))
        if isASCII(bytes) { return sqlite3_result_value(context, argument) }
        let key = String(decoding: bytes, as: UTF8.self)._nfcCodeUnits
        key.withUnsafeBufferPointer { key in
            key.withMemoryRebound(to: CChar.self) { key in
                sqlite3_result_text(context, key.baseAddress, Int32(key.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
        }
    }

    /// The order of two UTF-8 strings under a sort descriptor's comparison.
    ///
    /// Under `.standard` two all-ASCII texts are ordered by their bytes: ASCII text is already
    /// in normal form C, and Swift's `String` order is the order of the NFC scalars, which for
    /// UTF-8 is the order of the bytes. Other texts are compared as `String`s.
    fileprivate static func collate(_ comparison: ObjectSortDescriptor.Comparison, _ leftCount: Int32, _ left: UnsafeRawPointer?,
                                _ rightCount: Int32, _ right: UnsafeRawPointer?) -> Int32 {
        let leftBytes = UnsafeRawBufferPointer(start: left, count: left == nil ? 0 : Int(leftCount))
        let rightBytes = UnsafeRawBufferPointer(start: right, count: right == nil ? 0 : Int(rightCount))
        if comparison == .standard, let order = asciiOrder(leftBytes, rightBytes) { return order }
        func string(_ pointer: UnsafeRawPointer?, _ count: Int32) -> String {
            guard let pointer, count > 0 else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: pointer, count: Int(count)), as: UTF8.self)
        }
        let descriptor = ObjectSortDescriptor(key: "value", ascending: true, comparison: comparison)
        switch descriptor.compare(string(left, leftCount), string(right, rightCount)) {
        case .orderedAscending: return -1
        case .orderedSame: return 0
        case .orderedDescending: return 1
        }
    }
}

// The C entry points SQLite calls. They capture nothing, as C function pointers must.

private func stringCallback(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    SQLQueryFunctions.run(context, count, arguments) { values in
        try SQLQueryFunctions.comparison(values[0], values[1], .string, values[2], .string, values[3])
    }
}

private func likeCallback(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    SQLQueryFunctions.run(context, count, arguments) { values in
        try SQLQueryFunctions.comparison(.integer(SQLQueryFunctions.code(.like)), values[2], .string, values[0], .string, values[1])
    }
}

private func regexpCallback(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    SQLQueryFunctions.run(context, count, arguments) { values in
        try SQLQueryFunctions.comparison(.integer(SQLQueryFunctions.code(.matches)), values[2], .string, values[0], .string, values[1])
    }
}

private func compareCallback(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    SQLQueryFunctions.run(context, count, arguments) { values in
        guard case .integer(let leftCode) = values[2], let leftType = SQLValueType.type(leftCode),
              case .integer(let rightCode) = values[4], let rightType = SQLValueType.type(rightCode) else {
            throw SQLQueryFunctions.FunctionError("bad type codes")
        }
        return try SQLQueryFunctions.comparison(values[0], values[1], leftType, values[3], rightType, values[5])
    }
}

private func standardKeyCallback(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    SQLQueryFunctions.standardKey(context, arguments?[0])
}

private func standardCollationCallback(_ context: UnsafeMutableRawPointer?, _ leftCount: Int32, _ left: UnsafeRawPointer?,
                                       _ rightCount: Int32, _ right: UnsafeRawPointer?) -> Int32 {
    SQLQueryFunctions.collate(.standard, leftCount, left, rightCount, right)
}

private func caseInsensitiveCollationCallback(_ context: UnsafeMutableRawPointer?, _ leftCount: Int32, _ left: UnsafeRawPointer?,
                                              _ rightCount: Int32, _ right: UnsafeRawPointer?) -> Int32 {
    SQLQueryFunctions.collate(.caseInsensitive, leftCount, left, rightCount, right)
}
