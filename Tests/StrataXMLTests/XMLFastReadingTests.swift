import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
@testable @_spi(StoreImplementation) import StrataXML
import Testing

/// The XML store's fast reading: the file read in chunks, and values read from bytes, must
/// behave exactly as the plain reading of a whole document and the general value rules.
@Suite("XML store: chunked file reading and values read from bytes")
struct XMLFastReadingTests {
    let model: ManagedObjectModel

    init() throws {
        model = try PetsModel.make()
    }

    private func readFile(_ data: Data) throws -> (URL, ReadOutcome) {
        let folder = try TemporaryFolder.make()
        let url = folder.appendingPathComponent("store.xml")
        try data.write(to: url)
        return (url, ReadOutcome { try XMLStoreFormat().read(from: url, model: model) })
    }

    @Test("hostile files read from disk are refused with an error naming the file and a line or offset",
          arguments: HostileDocument.all)
    func hostileFile(_ document: HostileDocument) throws {
        let (url, outcome) = try readFile(document.data)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let problem = outcome.refusalProblem(file: url.path, fileSize: document.data.count, allowsModelMismatch: true)
        #expect(problem == nil, "\(document.name): \(problem ?? "")")
    }

    @Test("an entity declaration across the boundary of two chunks is found, at its offset")
    func declarationAcrossChunks() throws {
        for shift in 1..<8 {
            let prefix = #"<?xml version="1.0"?><database><!-- "#
            let padding = String(repeating: "x", count: XMLStreamReader.chunkSize - shift - prefix.utf8.count)
            let text = prefix + padding + #"<!ENTITY a "b"> --></database>"#
            let (url, outcome) = try readFile(Data(text.utf8))
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            guard case let .corrupt(_, offset, _, reason) = outcome else {
                Issue.record("shift \(shift): \(outcome)")
                continue
            }
            #expect(offset == XMLStreamReader.chunkSize - shift, "shift \(shift): \(reason)")
        }
    }

    @Test("a store of several chunks reads back identical from its file")
    func severalChunks() throws {
        var image = StoreImage(identifier: "BIG-STORE")
        for pk in 1...3000 {
            let id = ManagedObjectID(entityName: "Person", storeIdentifier: "BIG-STORE", primaryKey: Int64(pk))
            image.objects[id] = ObjectSnapshot(objectID: id, attributes: [
                "name": .string("person \(pk) " + String(repeating: "é<&>\u{1F600}", count: pk % 200)),
                "age": .integer(Int64(pk % 100)),
            ])
        }
        image.nextPrimaryKeys["Person"] = 3001
        image.stampMetadata(type: .xml, model: model)
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("big.xml")
        try XMLStoreFormat().write(image, to: url, model: model)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        #expect(size > 2 * XMLStreamReader.chunkSize)
        let decoded = try XMLStoreFormat().read(from: url, model: model)
        var expected = image
        expected.metadata = try image.metadata(withCompiledModelOf: model)
        #expect(Identical.differences(expected, decoded).isEmpty)
    }

    @Test("the integer table answers as a dictionary would, for small, large and negative keys")
    func integerTable() {
        var table = IntTable()
        var expected: [Int64: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        let keys: [Int64] = [0, 1, 102, 4095, IntTable.limit - 1, IntTable.limit, -1, .max, .min]
        for step in 0..<20_000 {
            let key = step % 3 == 0 ? keys[step % keys.count] : Int64.random(in: -10...200_000, using: &generator)
            let value = step % 101 == 0 ? Int(Int32.max) + step : Int.random(in: 0...1_000_000, using: &generator)
            #expect(table.updateValue(value, forKey: key) == expected.updateValue(value, forKey: key), "key \(key)")
        }
        for key in Set(expected.keys).union(keys).union([5, 300_000]) {
            #expect(table[key] == expected[key], "key \(key)")
        }
    }

    static let texts: [String] = [
        "", " ", "0", "-0", "+0", "1", "+5", "-5", " 42 ", "\t42\n", "\r\n7\r\n", "4 2", "42x", "x42", "0x1F",
        "32767", "32768", "-32768", "-32769", "2147483647", "2147483648", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "00012", "-",  "+", "--1",
        "1.5", "-1.5", ".5", "5.", ".", "1e5", "1E5", "1e+5", "1e-5", "1e", "e5", "1.2.3", "1e5.5", "-0.0", "0.0",
        "1e400", "-1e400", "1e-400", "5e-324", "2.4703282292062328e-324", "3.4028236e38", "1.4e-45", "7e-46",
        "0.1", "0.30000000000000004", "1.7976931348623157e+308", "123456789012345678901234567890",
        "inf", "-inf", "infinity", "nan", "NaN", "nan(0x7ff8000000001234)", "snan", "0x1p3", " 1.5 ",
        "1,5", "١٢", "\u{A0}12\u{A0}", "\u{2003}3.5", "12\u{85}",
        "1", "0", "YES", "NO", "true", "false", "yes", "True", " true ", "\u{A0}true",
        "AAAA", "AAA=", "AA==", "A===", " QUJD ", "QU JD", "QUJD\n", "!!!!", "QUJ", "QUJDRA", "QUJDRA==", "8J+YgA==",
        "00000000-0000-0000-0000-000000000000", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
        "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", " E621E1F8-C36C-495A-93FC-0C247A3E6E5F ",
        "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5G", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",
        "12.50", "-0.001", "1e3", "abc", "1.2.3", "99999999999999999999999999999999999999",
        "https://example.com/a?b=c#d", " https://example.com ", "not a url", "x-coredata://S/Person/p1",
        "ünïcödé", "a\u{0301}", "  padded  ",
    ]

    @Test("values read from bytes are the values the general rules read", arguments: [
        AttributeType.integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date,
        .binaryData, .transformable, .uuid, .uri, .objectID,
    ])
    func fastValues(_ type: AttributeType) throws {
        let attribute = AttributeDescription(name: "value", type: type)
        for text in Self.texts {
            let general = try? XMLDocumentReader.value(text, base64: false, for: attribute, entity: "E") {
                StoreError.corruptStore(file: "", offset: nil, reason: $0)
            }
            let bytes = Array(text.utf8)
            guard let fast = bytes.withUnsafeBufferPointer({ XMLBytes.value($0, type: type) }), fast.matches(type) else {
                continue   // the reader then takes the general path
            }
            #expect(fast.identical(to: general), "\(type) '\(text)': bytes read \(fast), the general rules \(String(describing: general))")
        }
    }
}

private extension AttributeValue {
    /// Equal, with doubles and floats compared by bits.
    func identical(to other: AttributeValue?) -> Bool {
        switch (self, other) {
        case let (.double(a), .double(b)?): a.bitPattern == b.bitPattern
        case let (.float(a), .float(b)?): a.bitPattern == b.bitPattern
        case let (.date(a), .date(b)?): a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        default: self == other
        }
    }
}
