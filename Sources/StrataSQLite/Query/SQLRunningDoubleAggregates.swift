internal import CSQLite
import Foundation
@_spi(StoreImplementation) import StrataCore

/// `@sum` and `@avg` of a to-many's Double or Float attribute as SQL aggregates that keep only a
/// count and a running total in SQLite's own aggregate memory: no allocation per group.
///
/// | function | gives |
/// |---|---|
/// | `strata_double_sum(type, v)` | `@sum`: the values added in the order SQLite hands them, from 0.0; the integer 0 for none |
/// | `strata_double_avg(type, v)` | `@avg`: that sum divided by the number of values; nil for none |
///
/// This is the evaluator's reduction (``SQLQueryAggregates`` documents why SQL's own `sum()`
/// is not used for doubles): nil values are left out, a NaN or −0.0 stored as a BLOB is decoded
/// as the row reader decodes it, and the result is encoded as a column value the translator's
/// comparisons expect (a NaN or −0.0 as its BLOB).
enum SQLRunningDoubleAggregates {
    static let sumFunction = "strata_double_sum"
    static let averageFunction = "strata_double_avg"

    /// The function of a collection operator, for values of `type`; nil when these aggregates
    /// do not apply.
    static func function(_ operation: String, of type: AttributeType) -> String? {
        guard type == .double || type == .float else { return nil }
        switch operation {
        case "@sum": return sumFunction
        case "@avg": return averageFunction
        default: return nil
        }
    }

    /// Registers the aggregates on `connection`.
    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        let functions: [(String, @convention(c) (OpaquePointer?) -> Void)] = [
            (sumFunction, runningSumFinal), (averageFunction, runningAverageFinal),
        ]
        for (name, final) in functions {
            let result = sqlite3_create_function_v2(connection.handle, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, nil,
                                                    runningStep, final, nil)
            guard result == SQLITE_OK else { throw connection.lastError(sql: nil, code: result) }
        }
    }

    /// One group's state, in memory SQLite zeroes before the first row: plain values only.
    struct Running {
        var count: Int = 0
        var total: Double = 0
        /// Set when a value could not be decoded; the group then fails.
        var failed: Bool = false
    }

    fileprivate static func running(_ context: OpaquePointer?, create: Bool) -> UnsafeMutablePointer<Running>? {
        let size = Int32(create ? MemoryLayout<Running>.size : 0)
        return sqlite3_aggregate_context(context, size)?.assumingMemoryBound(to: Running.self)
    }

    fileprivate static func step(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        guard let state = running(context, create: true), !state.pointee.failed else { return }
        let isFloat = sqlite3_value_int64(arguments?[0]) == SQLValueType.code(.float)
        let value: Double
        switch sqlite3_value_type(arguments?[1]) {
        case SQLITE_NULL:
            return
        case SQLITE_FLOAT:
            let stored = sqlite3_value_double(arguments?[1])
            value = isFloat ? Double(Float(stored)) : stored
        default:
            // A NaN or −0.0 in its BLOB, or a number another program wrote in another class.
            switch try? SQLiteValueCoding.decode(SQLQueryFunctions.value(arguments?[1]), as: isFloat ? .float : .double) {
            case .double(let decoded)?: value = decoded
            case .float(let decoded)?: value = Double(decoded)
            default:
                state.pointee.failed = true
                return
            }
        }
        state.pointee.count += 1
        state.pointee.total += value
    }

    fileprivate static func final(_ context: OpaquePointer?, average: Bool) {
        let state = running(context, create: false)?.pointee ?? Running()
        if state.failed {
            sqlite3_result_error(context, SQLQueryFunctions.corruptValuePrefix + "a value that is not a number", -1)
            return
        }
        guard state.count > 0 else {
            // The evaluator's sum of none is the integer 0; the average of none is nil.
            average ? sqlite3_result_null(context) : sqlite3_result_int64(context, 0)
            return
        }
        let result = average ? state.total / Double(state.count) : state.total
        if result.isNaN || (result == 0 && result.sign == .minus), case .blob(let data) = SQLiteValueCoding.encode(.double(result)) {
            let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
            data.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), transient) }
            return
        }
        sqlite3_result_double(context, result)
    }
}

// The C entry points SQLite calls. They capture nothing, as C function pointers must.

private func runningStep(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    SQLRunningDoubleAggregates.step(context, arguments)
}

private func runningSumFinal(_ context: OpaquePointer?) { SQLRunningDoubleAggregates.final(context, average: false) }
private func runningAverageFinal(_ context: OpaquePointer?) { SQLRunningDoubleAggregates.final(context, average: true) }
