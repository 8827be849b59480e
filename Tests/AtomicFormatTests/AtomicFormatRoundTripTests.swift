import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
import Testing

/// Every atomic format gives back exactly the image it was given: every value bit for bit,
/// relationships in order, metadata of every property-list kind, names whose case does not map
/// back.
@Suite("Atomic store formats: round trips")
struct AtomicFormatRoundTripTests {
    let model: ManagedObjectModel

    init() throws {
        model = try StoreImageFixtures.everyTypeModel()
    }

    /// ``StoreImageFixtures/everyValueImage(model:type:)`` for the format.
    private func image(_ format: AtomicFormat) -> StoreImage {
        StoreImageFixtures.everyValueImage(model: model, type: format.storeType)
    }

    /// `image` encoded and decoded again in memory.
    private func roundTrip(_ image: StoreImage, _ format: AtomicFormat, model: ManagedObjectModel? = nil) throws -> StoreImage {
        let model = model ?? self.model
        let driver = format.driver
        return try driver.decode(driver.encode(image, model: model), file: "/memory/\(format.fileName("store"))", model: model)
    }

    private func thing(_ index: Int, in image: StoreImage) throws -> ObjectSnapshot {
        let id = ManagedObjectID(entityName: "Thing", storeIdentifier: image.identifier, primaryKey: Int64(index + 1))
        return try #require(image.objects[id], "Thing \(index + 1) is missing")
    }

    /// Expects attribute `key` of Thing *i* to hold `expected[i]` read back by `read` (nil: not
    /// of the kind), compared by `same`.
    private func expectEach<Value>(
        _ expected: [Value], _ key: String, in decoded: StoreImage,
        read: (AttributeValue) -> Value?, same: (Value, Value) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for (index, value) in expected.enumerated() {
            guard let back = try thing(index, in: decoded).attributes[key].flatMap(read) else {
                Issue.record("\(key) \(index) is missing", sourceLocation: sourceLocation)
                continue
            }
            #expect(same(back, value), "\(key) \(index): \(value)", sourceLocation: sourceLocation)
        }
    }

    @Test("the whole image comes back identical", arguments: AtomicFormat.allCases)
    func wholeImage(format: AtomicFormat) throws {
        let image = image(format)
        let decoded = try roundTrip(image, format)
        let differences = Identical.differences(image, decoded)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(decoded.identifier == StoreImageFixtures.storeIdentifier)
        #expect(decoded.nextPrimaryKeys == image.nextPrimaryKeys)
        #expect(decoded.objects.count == image.objects.count)
    }

    @Test("every nasty value comes back exactly: scalars, bits, digits", arguments: AtomicFormat.allCases)
    func values(format: AtomicFormat) throws {
        let decoded = try roundTrip(image(format), format)
        let mismatches = StoreImageFixtures.valueMismatches(in: decoded)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        let thing = { (pk: Int64) in
            decoded.objects[ManagedObjectID(entityName: "Thing", storeIdentifier: decoded.identifier, primaryKey: pk)]
        }
        #expect(thing(6)?.attributes["string"] == .string("E\u{301}"))
        #expect(thing(7)?.attributes["string"] == .string("\u{C9}"))
        #expect(thing(6)?.attributes["string"] != thing(7)?.attributes["string"])
        #expect(thing(1)?.attributes["uuid"] == .uuid(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!))
        #expect(thing(1)?.attributes["flag"] == .boolean(true))
        #expect(thing(2)?.attributes["flag"] == .boolean(false))
        #expect(thing(2)?.attributes["reference"] == .objectID(ManagedObjectID(
            entityName: "Tag", storeIdentifier: "SOME-OTHER-STORE", primaryKey: 42)))
    }

    @Test("strings keep every scalar: NUL, controls, CR, both spellings of É, emoji, BOM", arguments: AtomicFormat.allCases)
    func strings(format: AtomicFormat) throws {
        let decoded = try roundTrip(image(format), format)
        try expectEach(StoreImageFixtures.strings, "string", in: decoded, read: { if case .string(let v) = $0 { v } else { nil } },
                       same: { Array($0.unicodeScalars) == Array($1.unicodeScalars) })
        let decomposed = try thing(5, in: decoded).attributes["string"]
        let precomposed = try thing(6, in: decoded).attributes["string"]
        #expect(decomposed == .string("E\u{301}"))
        #expect(precomposed == .string("\u{C9}"))
        #expect(decomposed != precomposed)
    }

    @Test("doubles, floats and dates keep their bits", arguments: AtomicFormat.allCases)
    func floatingPointBits(format: AtomicFormat) throws {
        let decoded = try roundTrip(image(format), format)
        try expectEach(StoreImageFixtures.doubles, "double", in: decoded, read: { if case .double(let v) = $0 { v } else { nil } },
                       same: { $0.bitPattern == $1.bitPattern })
        try expectEach(StoreImageFixtures.floats, "float", in: decoded, read: { if case .float(let v) = $0 { v } else { nil } },
                       same: { $0.bitPattern == $1.bitPattern })
        try expectEach(StoreImageFixtures.dates, "date", in: decoded, read: { if case .date(let v) = $0 { v } else { nil } },
                       same: { $0.timeIntervalSinceReferenceDate.bitPattern == $1.timeIntervalSinceReferenceDate.bitPattern })
    }

    @Test("decimals keep their digits; integers their extremes; bytes, UUIDs, URLs and IDs their identity",
          arguments: AtomicFormat.allCases)
    func otherValues(format: AtomicFormat) throws {
        let decoded = try roundTrip(image(format), format)
        try expectEach(StoreImageFixtures.decimalDigits, "decimal", in: decoded,
                       read: { if case .decimal(let v) = $0 { v.description } else { nil } }, same: ==)
        for (index, (i16, i32, i64)) in StoreImageFixtures.integers.enumerated() {
            let attributes = try thing(index, in: decoded).attributes
            #expect(attributes["int16"] == .integer(i16))
            #expect(attributes["int32"] == .integer(i32))
            #expect(attributes["int64"] == .integer(i64))
        }
        for (index, blob) in StoreImageFixtures.blobs.enumerated() {
            #expect(try thing(index, in: decoded).attributes["blob"] == .binary(blob))
        }
        try expectEach(StoreImageFixtures.urls, "link", in: decoded, read: { if case .uri(let v) = $0 { v } else { nil } },
                       same: { $0.absoluteString == $1.absoluteString })
        #expect(String(validating: StoreImageFixtures.blobs[0], as: UTF8.self) == nil, "the first blob is not UTF-8")
        let first = try thing(0, in: decoded).attributes
        #expect(first["uuid"] == .uuid(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!))
        #expect(first["flag"] == .boolean(true))
        #expect(try thing(1, in: decoded).attributes["flag"] == .boolean(false))
        #expect(first["reference"] == .objectID(ManagedObjectID(
            entityName: "Owner", storeIdentifier: StoreImageFixtures.storeIdentifier, primaryKey: 1)))
        #expect(try thing(1, in: decoded).attributes["reference"] == .objectID(ManagedObjectID(
            entityName: "Tag", storeIdentifier: "SOME-OTHER-STORE", primaryKey: 42)))
    }

    @Test("to-one, to-many and ordered to-many relationships keep their destinations and order; keys stay per inheritance root",
          arguments: AtomicFormat.allCases)
    func relationships(format: AtomicFormat) throws {
        let decoded = try roundTrip(image(format), format)
        func id(_ entity: String, _ pk: Int64) -> ManagedObjectID {
            ManagedObjectID(entityName: entity, storeIdentifier: StoreImageFixtures.storeIdentifier, primaryKey: pk)
        }
        #expect(decoded.objects[id("Owner", 1)]?.toMany["things"] == [id("Thing", 3), id("Thing", 1), id("Thing", 2)])
        #expect(decoded.objects[id("Owner", 2)]?.toMany["things"] == [])
        #expect(decoded.objects[id("Thing", 1)]?.toOne["owner"] == id("Owner", 1))
        #expect(decoded.objects[id("Thing", 4)]?.toOne["owner"] == nil)
        #expect(decoded.objects[id("Thing", 2)]?.toMany["tags"] == [id("Tag", 2), id("Tag", 1)])
        #expect(decoded.objects[id("Thing", 3)]?.toMany["tags"] == [])
        #expect(decoded.objects[id("Thing", 4)]?.toMany["tags"] == nil)
        #expect(decoded.objects[id("Square", 1)] != nil)
        #expect(decoded.objects[id("Circle", 2)] != nil)
        #expect(decoded.objects[id("Square", 3)] != nil)
    }

    @Test("metadata of every property-list kind, nested, comes back identical", arguments: AtomicFormat.allCases)
    func metadata(format: AtomicFormat) throws {
        let decoded = try roundTrip(image(format), format)
        for (key, value) in StoreImageFixtures.customMetadata {
            let back = try #require(decoded.metadata[key], "metadata \(key) is missing")
            #expect(Identical.plist(value, back), "metadata \(key): \(value) != \(back)")
        }
        #expect(decoded.metadata[StoreMetadataKey.storeUUID] == .string(StoreImageFixtures.storeIdentifier))
        #expect(decoded.metadata[StoreMetadataKey.modelVersionHashes]
            == .dictionary(model.entityVersionHashesByName.mapValues { .data($0) }))
    }

    @Test("an empty image round-trips", arguments: AtomicFormat.allCases)
    func emptyImage(format: AtomicFormat) throws {
        let empty = StoreImage(identifier: "EMPTY")
        let decoded = try roundTrip(empty, format)
        #expect(Identical.differences(empty, decoded).isEmpty)
    }

    @Test("metadata keys and strings that text cannot carry as they are survive", arguments: AtomicFormat.allCases)
    func unusualMetadataKeys(format: AtomicFormat) throws {
        var unusual = StoreImage(identifier: "S")
        unusual.metadata = [
            "key\u{0}with NUL": .string("v"),
            "key\u{1}\u{1F}": .array([.string("\u{FEFF}\u{0}")]),
            "\u{FEFF}BOM key": .string("\u{FFFE}"),
            "key\r\n": .integer(1),
            " padded ": .string(" padded "),
        ]
        let decoded = try roundTrip(unusual, format)
        #expect(Identical.metadata(unusual.metadata, decoded.metadata),
                "\(Identical.differences(unusual, decoded).joined(separator: "\n"))")
    }

    @Test("entity and property names whose case does not map back (dotless ı, ß, ſ) round-trip",
          arguments: AtomicFormat.allCases)
    func unusualNames(format: AtomicFormat) throws {
        let model = try ManagedObjectModel {
            EntityDescription("Kırmızı") {
                Attribute("ſize", .integer32)
                Relationship("straßen", toMany: "Straße", inverse: "kırmızı")
            }
            EntityDescription("Straße") {
                Attribute("name", .string)
                Relationship("kırmızı", to: "Kırmızı", inverse: "straßen")
            }
        }
        func id(_ entity: String) -> ManagedObjectID { ManagedObjectID(entityName: entity, storeIdentifier: "S", primaryKey: 1) }
        var image = StoreImage(identifier: "S", nextPrimaryKeys: ["Kırmızı": 2, "Straße": 2])
        image.objects[id("Kırmızı")] = ObjectSnapshot(objectID: id("Kırmızı"), attributes: ["ſize": .integer(3)],
                                                      toMany: ["straßen": [id("Straße")]])
        image.objects[id("Straße")] = ObjectSnapshot(objectID: id("Straße"), attributes: ["name": .string("x")],
                                                     toOne: ["kırmızı": id("Kırmızı")])
        let decoded = try roundTrip(image, format, model: model)
        #expect(Identical.differences(image, decoded).isEmpty, "\(Identical.differences(image, decoded))")
    }
}
