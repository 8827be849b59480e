import Foundation
@testable import StrataModelFiles
import Testing

/// The binary property list writer: what it writes, the reader reads back unchanged, and
/// Foundation reads too.
@Suite struct BinaryPropertyListWriterTests {
    static let value = PlistValue.dictionary([
        "ascii": .string("hello"),
        "long": .string(String(repeating: "x", count: 300)),
        "unicode": .string("é ✓ 𝄞 and more than fourteen"),
        "empty": .string(""),
        "integers": .array([.integer(0), .integer(255), .integer(256), .integer(65_536), .integer(1 << 40), .integer(-1), .integer(.min), .integer(.max)]),
        "reals": .array([.real(0.5), .real(-0.0), .real(1e300)]),
        "flags": .array([.bool(true), .bool(false)]),
        "date": .date(12.25),
        "data": .data(Data((0..<40).map { UInt8($0) })),
        "uids": .array([.uid(0), .uid(255), .uid(256), .uid(70_000)]),
        "many": .array((0..<20).map { .integer(Int64($0)) }),
        "nested": .dictionary(["a": .array([.dictionary(["b": .string("c")])])]),
    ])

    @Test("every kind of value reads back as written")
    func roundTrip() throws {
        let data = BinaryPropertyListWriter.data(Self.value)
        #expect(data.starts(with: Array("bplist00".utf8)))
        #expect(try BinaryPropertyList.parse(data) == Self.value)
        // Writing is deterministic.
        #expect(BinaryPropertyListWriter.data(Self.value) == data)
    }

    @Test("Foundation reads what is written (without UIDs)")
    func foundationReads() throws {
        guard case .dictionary(var members) = Self.value else { return }
        members["uids"] = nil
        let data = BinaryPropertyListWriter.data(.dictionary(members))
        let read = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(read["ascii"] as? String == "hello")
        #expect(read["unicode"] as? String == "é ✓ 𝄞 and more than fourteen")
        #expect((read["integers"] as? [Any])?.count == 8)
        #expect((read["many"] as? [Any])?.count == 20)
        #expect(read["data"] as? Data == Data((0..<40).map { UInt8($0) }))
    }
}
