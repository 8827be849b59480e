import Foundation
import StrataCore
import Testing
@testable @_spi(StoreImplementation) import StrataJSON

@Suite("Attribute values in JSON")
struct AttributeJSONTests {
    private func roundTrip(_ value: AttributeValue, _ type: AttributeType) throws -> AttributeValue? {
        let text = JSONWriter.compact(.array([AttributeJSON.encode(value)]))
        guard case .array(let items) = try JSONParser.parse(text), let json = items.first else { return nil }
        return try AttributeJSON.decode(json, as: AttributeDescription(name: "value", type: type))
    }

    @Test("doubles read back to the same bits: zeros, subnormals, extremes, NaN payloads, infinities")
    func doubles() throws {
        var values: [Double] = [0, -0.0, 0.1, 1.0 / 3, 1e-300, .leastNonzeroMagnitude, -2.2250738585072014e-308, .greatestFiniteMagnitude,
                                -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, -.nan,
                                Double(bitPattern: 0x7FF0_0000_0000_0001), Double(bitPattern: 0xFFF8_0000_DEAD_BEEF), 9007199254740992]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 { values.append(Double(bitPattern: generator.next())) }
        for value in values {
            let back = try roundTrip(.double(value), .double)
            guard case .double(let double)? = back else { Issue.record("\(value): \(String(describing: back))"); continue }
            #expect(double.bitPattern == value.bitPattern, "\(value) came back as \(double)")
        }
    }

    @Test("floats read back to the same bits, parsed as Float (not through Double)")
    func floats() throws {
        var values: [Float] = [0, -0.0, 0.1, 16777216, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, .nan,
                               Float(bitPattern: 0x7F80_0001), 3.4028235e38]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 { values.append(Float(bitPattern: UInt32.random(in: .min ... .max, using: &generator))) }
        for value in values {
            let back = try roundTrip(.float(value), .float)
            guard case .float(let float)? = back else { Issue.record("\(value): \(String(describing: back))"); continue }
            #expect(float.bitPattern == value.bitPattern, "\(value) came back as \(float)")
        }
        #expect(AttributeJSON.encode(.float(0.1)) == .number("0.1"))
    }

    @Test("dates are exact seconds since 1970 and read back to the same bits")
    func dates() throws {
        var seconds: [Double] = [0, 0.1, -0.1, 1.5, -978307200, -978307200.000001, 1e-300, 123456789.123456789,
                                 -1e15, 1e15, 0.000001, 700000000.0000001]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { seconds.append(value) }
            seconds.append(Double.random(in: -4e9...4e9, using: &generator))
        }
        for value in seconds {
            let back = try roundTrip(.date(Date(timeIntervalSinceReferenceDate: value)), .date)
            guard case .date(let date)? = back else { Issue.record("\(value): \(String(describing: back))"); continue }
            #expect(date.timeIntervalSinceReferenceDate.bitPattern == value.bitPattern, "\(value) came back as \(date.timeIntervalSinceReferenceDate)")
        }
        #expect(AttributeJSON.encode(.date(Date(timeIntervalSince1970: 1_700_000_000))) == .number("1700000000"))
        #expect(AttributeJSON.encode(.date(Date(timeIntervalSinceReferenceDate: 0.1))) == .number("978307200.1"))
        #expect(AttributeJSON.encode(.date(Date(timeIntervalSinceReferenceDate: -978307200.5))) == .number("-0.5"))
    }

    @Test("integers keep every digit and are checked against their width")
    func integers() throws {
        for value in [Int64.min, -1, 0, 9007199254740993, Int64.max] {
            #expect(try roundTrip(.integer(value), .integer64) == .integer(value))
        }
        let int16 = AttributeDescription(name: "n", type: .integer16)
        #expect(try AttributeJSON.decode(.number("32767"), as: int16) == .integer(32767))
        #expect(throws: JSONValueProblem.self) { try AttributeJSON.decode(.number("32768"), as: int16) }
        #expect(throws: JSONValueProblem.self) { try AttributeJSON.decode(.number("1.5"), as: int16) }
        #expect(throws: JSONValueProblem.self) { try AttributeJSON.decode(.string("7"), as: int16) }
        #expect(throws: JSONValueProblem.self) {
            try AttributeJSON.decode(.number("2147483648"), as: AttributeDescription(name: "n", type: .integer32))
        }
        #expect(throws: JSONValueProblem.self) {
            try AttributeJSON.decode(.number("9223372036854775808"), as: AttributeDescription(name: "n", type: .integer64))
        }
    }

    @Test("decimals, strings, Booleans, bytes, UUIDs, URIs and object IDs round-trip; wrong kinds are problems")
    func otherTypes() throws {
        let cases: [(AttributeValue, AttributeType)] = [
            (.decimal(Decimal(string: "12345678901234567890.123456789")!), .decimal),
            (.decimal(Decimal(string: "-0.001")!), .decimal),
            (.string("a\u{0}\"é\u{301}"), .string),
            (.boolean(true), .boolean),
            (.binary(Data([0, 255, 10, 13, 0xC3])), .binaryData),
            (.binary(Data()), .transformable),
            (.uuid(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!), .uuid),
            (.uri(URL(string: "https://example.org/a%20b?c=d#e")!), .uri),
            (.objectID(ManagedObjectID(entityName: "Tag", storeIdentifier: "6B1C6F0E-3D2A-4C8B-9E7F-0123456789AB", primaryKey: 42)), .objectID),
        ]
        for (value, type) in cases {
            #expect(try roundTrip(value, type) == value, "\(value)")
        }
        #expect(try AttributeJSON.decode(.null, as: AttributeDescription(name: "s", type: .string)) == nil)
        let mismatches: [(JSONValue, AttributeType)] = [
            (.number("1"), .string), (.string("true"), .boolean), (.string("not base64!"), .binaryData),
            (.string("not-a-uuid"), .uuid), (.string("12abc"), .decimal), (.string("x-coredata:nonsense"), .objectID),
            (.bool(true), .double), (.string("1.5"), .float), (.array([]), .date), (.string("soon"), .date),
        ]
        for (json, type) in mismatches {
            #expect(throws: JSONValueProblem.self, "\(json) as \(type)") {
                try AttributeJSON.decode(json, as: AttributeDescription(name: "v", type: type))
            }
        }
    }

    @Test("exact decimal sums and differences", arguments: [
        ("0.1", "978307200.1"), ("-0.5", "978307199.5"), ("1e-05", "978307200.00001"),
        ("-978307200.25", "-0.25"), ("1.5e+20", "150000000000978307200"), ("0", "978307200"),
    ])
    func decimalText(seconds: String, sum: String) throws {
        let offset = DecimalText(978_307_200)
        let value = try #require(DecimalText(seconds))
        #expect((value + offset).plainText == sum)
        #expect((try #require(DecimalText(sum)) - offset) == value)
    }
}
