internal import CSQLite
import Foundation
@_spi(StoreImplementation) import StrataCore

/// The aggregate functions translated fetches call for `@sum`, `@avg`, `@min` and `@max` of a
/// to-many's attribute where SQL's own aggregates would not give the evaluator's value.
///
/// | function | gives |
/// |---|---|
/// | `strata_sum(type, v)` | `@sum` of the values (0 for none) |
/// | `strata_avg(type, v)` | `@avg`: nil for none |
/// | `strata_min(type, v)`, `strata_max(type, v)` | `@min`, `@max`: nil for none |
///
/// Each decodes every value as the row reader does (`type` is the attribute's ``SQLValueType``
/// code), leaves nil out, and reduces the values with the evaluator itself (a key path ending in
/// the operator, over the list), so NaN is a NaN and decimals add as decimals. `@sum` and `@avg`
/// of doubles and floats go through ``SQLRunningDoubleAggregates`` instead, which add in the
/// same order without keeping the values. The result is encoded as a column value
/// (``SQLiteValueCoding``): a NaN or −0.0 as the BLOB the translator's comparisons expect.
enum SQLQueryAggregates {
    static let sumFunction = "strata_sum"
    static let averageFunction = "strata_avg"
    static let minimumFunction = "strata_min"
    static let maximumFunction = "strata_max"

    /// The function of a collection operator.
    static func function(_ operation: String) -> String? {
        switch operation {
        case "@sum": sumFunction
        case "@avg": averageFunction
        case "@min": minimumFunction
        case "@max": maximumFunction
        default: nil
        }
    }

    /// Registers the aggregates on `connection`.
    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        let functions: [(String, @convention(c) (OpaquePointer?) -> Void)] = [
            (sumFunction, sumFinal), (averageFunction, averageFinal), (minimumFunction, minimumFinal), (maximumFunction, maximumFinal),
        ]
        for (name, final) in functions {
            let result = sqlite3_create_function_v2(connection.handle, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, nil,
                                                    aggregateStep, final, nil)
            guard result == SQLITE_OK else { throw connection.lastError(sql: nil, code: result) }
        }
    }

    /// The values of one group so far, kept behind a pointer in SQLite's aggregate context.
    final class Values {
        var items: [Any] = []
        var failure: String?
    }

    /// The group's values, made at the first row (`create`), or nil when there is none.
    fileprivate static func values(_ context: OpaquePointer?, create: Bool) -> Values? {
        let size = Int32(create ? MemoryLayout<UnsafeMutableRawPointer?>.size : 0)
        guard let slot = sqlite3_aggregate_context(context, size)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) else {
            return nil
        }
        if let pointer = slot.pointee { return Unmanaged<Values>.fromOpaque(pointer).takeUnretainedValue() }
        guard create else { return nil }
        let made = Values()
        slot.pointee = Unmanaged.passRetained(made).toOpaque()
        return made
    }

    /// Takes the group's values back from SQLite's context (releasing them there).
    fileprivate static func takeValues(_ context: OpaquePointer?) -> Values? {
        guard let slot = sqlite3_aggregate_context(context, 0)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self),
              let pointer = slot.pointee else { return nil }
        slot.pointee = nil
        return Unmanaged<Values>.fromOpaque(pointer).takeRetainedValue()
    }

    fileprivate static func step(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        guard let values = values(context, create: true), values.failure == nil else { return }
        guard let typeCode = arguments?[0], let type = SQLValueType.type(sqlite3_value_int64(typeCode)) else {
            values.failure = "bad type code"
            return
        }
        do {
            let value = try SQLValueType.decode(SQLQueryFunctions.value(arguments?[1]), as: type)
            if let swift = value.swiftValue { values.items.append(swift) }
        } catch {
            values.failure = SQLQueryFunctions.corruptValuePrefix + error.description
        }
    }

    fileprivate static func final(_ context: OpaquePointer?, _ operation: String) {
        let values = takeValues(context)
        if let failure = values?.failure {
            sqlite3_result_error(context, failure, -1)
            return
        }
        let reduced: Any?
        do {
            reduced = try ["values": values?.items ?? []].value(forKeyPath: "values." + operation)
        } catch {
            sqlite3_result_error(context, "\(operation): \(error)", -1)
            return
        }
        guard let reduced, let attribute = PredicateOracle.attributeValue(of: PredicateValue(reduced))?.1 else {
            sqlite3_result_null(context)
            return
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        switch SQLiteValueCoding.encode(attribute) {
        case .null: sqlite3_result_null(context)
        case .integer(let i): sqlite3_result_int64(context, i)
        case .real(let d): sqlite3_result_double(context, d)
        case .text(var text):
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { sqlite3_result_text(context, $0.baseAddress, Int32($0.count), transient) }
            }
        case .blob(let data) where data.isEmpty:
            sqlite3_result_zeroblob(context, 0)
        case .blob(let data):
            data.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), transient) }
        }
    }
}

// The C entry points SQLite calls. They capture nothing, as C function pointers must.

private func aggregateStep(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    SQLQueryAggregates.step(context, arguments)
}

private func sumFinal(_ context: OpaquePointer?) { SQLQueryAggregates.final(context, "@sum") }
private func averageFinal(_ context: OpaquePointer?) { SQLQueryAggregates.final(context, "@avg") }
private func minimumFinal(_ context: OpaquePointer?) { SQLQueryAggregates.final(context, "@min") }
private func maximumFinal(_ context: OpaquePointer?) { SQLQueryAggregates.final(context, "@max") }
