import Foundation
@testable import StrataCore
import Testing

/// The typed columns a fetched results controller keeps its sort keys in: every value reads back
/// equal to what was written, whatever mix of types and nils, and replaced strings are compacted.
@Suite("Result key columns")
struct ResultKeyColumnTests {
    @Test("Values of one type, nils among them, read back as written")
    func typedValues() {
        let date = Date(timeIntervalSinceReferenceDate: 123.456)
        let columns: [[PredicateValue]] = [
            [.null, .integer(-5), .integer(Int64.max), .null],
            [.bool(true), .null, .bool(false)],
            [.double(-0.5), .double(.infinity), .null],
            [.null, .date(date), .date(Date(timeIntervalSinceReferenceDate: -1e9))],
            [.string("é"), .null, .string(""), .string(String(repeating: "long text ", count: 10))],
        ]
        for values in columns {
            var column = ResultKeyColumn()
            column.reserveCapacity(values.count)
            for value in values { column.append(value) }
            #expect((0..<values.count).map(column.value(at:)) == values)
        }
    }

    @Test("A value of another type turns the column into values, keeping what it held")
    func mixedTypes() {
        var column = ResultKeyColumn()
        column.append(.integer(1))
        column.append(.null)
        column.append(.string("two"))
        column.append(.decimal(Decimal(string: "3.5")!))
        column.set(.integer(4), at: 1)
        #expect((0..<4).map(column.value(at:)) == [.integer(1), .integer(4), .string("two"), .decimal(Decimal(string: "3.5")!)])
    }

    @Test("Strings replaced many times are compacted and still read back")
    func replacedStrings() {
        var column = ResultKeyColumn()
        for slot in 0..<10 { column.append(.string("s\(slot)")) }
        for round in 0..<2_000 {
            column.set(.string("round \(round) slot \(round % 10) " + String(repeating: "x", count: 20)), at: round % 10)
        }
        column.set(.null, at: 3)
        let expected: [PredicateValue] = (0..<10).map { slot in
            slot == 3 ? .null : .string("round \(1_990 + slot) slot \(slot) " + String(repeating: "x", count: 20))
        }
        #expect((0..<10).map(column.value(at:)) == expected)
    }
}
