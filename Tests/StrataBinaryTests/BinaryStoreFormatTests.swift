import Foundation
import Strata
@testable @_spi(StoreImplementation) import StrataBinary
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
import Testing

/// The binary format keeps every value exactly and follows its documented layout.
@Suite("Binary store format")
struct BinaryStoreFormatTests {
    let model: ManagedObjectModel
    let image: StoreImage

    init() throws {
        model = try StoreImageFixtures.everyTypeModel()
        image = StoreImageFixtures.everyValueImage(model: model, type: .binary)
    }

    private func roundTrip(_ image: StoreImage) throws -> StoreImage {
        let bytes = try BinaryStoreFormat().encode(image)
        return try BinaryStoreFormat().decode(bytes, file: "/memory/store.binary", model: model)
    }

    private func thing(_ index: Int, in image: StoreImage) throws -> ObjectSnapshot {
        let id = ManagedObjectID(entityName: "Thing", storeIdentifier: image.identifier, primaryKey: Int64(index + 1))
        return try #require(image.objects[id], "Thing \(index + 1) is missing")
    }

    @Test("the whole image comes back identical")
    func wholeImage() throws {
        let decoded = try roundTrip(image)
        let differences = Identical.differences(image, decoded)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(decoded.identifier == StoreImageFixtures.storeIdentifier)
        #expect(decoded.nextPrimaryKeys == image.nextPrimaryKeys)
        #expect(decoded.objects.count == image.objects.count)
    }

    @Test("strings keep every scalar: NUL, controls, CR, both spellings of É, emoji, BOM")
    func strings() throws {
        let decoded = try roundTrip(image)
        for (index, string) in StoreImageFixtures.strings.enumerated() {
            guard case .string(let back)? = try thing(index, in: decoded).attributes["string"] else {
                Issue.record("string \(index) is missing")
                continue
            }
            #expect(Array(back.unicodeScalars) == Array(string.unicodeScalars), "string \(index): \(string.debugDescription)")
        }
        let decomposed = try thing(5, in: decoded).attributes["string"]
        let precomposed = try thing(6, in: decoded).attributes["string"]
        #expect(decomposed == .string("E\u{301}"))
        #expect(precomposed == .string("\u{C9}"))
        #expect(decomposed != precomposed)
    }

    @Test("doubles, floats and dates keep their bits")
    func floatingPointBits() throws {
        let decoded = try roundTrip(image)
        for (index, value) in StoreImageFixtures.doubles.enumerated() {
            guard case .double(let back)? = try thing(index, in: decoded).attributes["double"] else {
                Issue.record("double \(index) is missing")
                continue
            }
            #expect(back.bitPattern == value.bitPattern, "double \(index): \(value)")
        }
        for (index, value) in StoreImageFixtures.floats.enumerated() {
            guard case .float(let back)? = try thing(index, in: decoded).attributes["float"] else {
                Issue.record("float \(index) is missing")
                continue
            }
            #expect(back.bitPattern == value.bitPattern, "float \(index): \(value)")
        }
        for (index, value) in StoreImageFixtures.dates.enumerated() {
            guard case .date(let back)? = try thing(index, in: decoded).attributes["date"] else {
                Issue.record("date \(index) is missing")
                continue
            }
            #expect(back.timeIntervalSinceReferenceDate.bitPattern == value.timeIntervalSinceReferenceDate.bitPattern,
                    "date \(index): \(value.timeIntervalSinceReferenceDate)")
        }
    }

    @Test("decimals keep their digits; integers their extremes; bytes, UUIDs, URLs and IDs their identity")
    func otherValues() throws {
        let decoded = try roundTrip(image)
        for (index, digits) in StoreImageFixtures.decimalDigits.enumerated() {
            guard case .decimal(let back)? = try thing(index, in: decoded).attributes["decimal"] else {
                Issue.record("decimal \(index) is missing")
                continue
            }
            #expect(back.description == digits)
        }
        for (index, (i16, i32, i64)) in StoreImageFixtures.integers.enumerated() {
            let attributes = try thing(index, in: decoded).attributes
            #expect(attributes["int16"] == .integer(i16))
            #expect(attributes["int32"] == .integer(i32))
            #expect(attributes["int64"] == .integer(i64))
        }
        for (index, blob) in StoreImageFixtures.blobs.enumerated() {
            #expect(try thing(index, in: decoded).attributes["blob"] == .binary(blob))
        }
        for (index, url) in StoreImageFixtures.urls.enumerated() {
            guard case .uri(let back)? = try thing(index, in: decoded).attributes["link"] else {
                Issue.record("URL \(index) is missing")
                continue
            }
            #expect(back.absoluteString == url.absoluteString)
        }
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

    @Test("to-one, to-many and ordered to-many relationships keep their destinations and order")
    func relationships() throws {
        let decoded = try roundTrip(image)
        let store = StoreImageFixtures.storeIdentifier
        func id(_ entity: String, _ pk: Int64) -> ManagedObjectID {
            ManagedObjectID(entityName: entity, storeIdentifier: store, primaryKey: pk)
        }
        #expect(decoded.objects[id("Owner", 1)]?.toMany["things"] == [id("Thing", 3), id("Thing", 1), id("Thing", 2)])
        #expect(decoded.objects[id("Owner", 2)]?.toMany["things"] == [])
        #expect(decoded.objects[id("Thing", 1)]?.toOne["owner"] == id("Owner", 1))
        #expect(decoded.objects[id("Thing", 4)]?.toOne["owner"] == nil)
        #expect(decoded.objects[id("Thing", 2)]?.toMany["tags"] == [id("Tag", 2), id("Tag", 1)])
        #expect(decoded.objects[id("Thing", 3)]?.toMany["tags"] == [])
        #expect(decoded.objects[id("Thing", 4)]?.toMany["tags"] == nil)
        #expect(decoded.objects[id("Square", 3)] != nil)
        #expect(decoded.objects[id("Circle", 2)] != nil)
    }

    @Test("metadata of every property-list kind, nested, comes back identical")
    func metadata() throws {
        let decoded = try roundTrip(image)
        for (key, value) in StoreImageFixtures.customMetadata {
            let back = try #require(decoded.metadata[key], "metadata \(key) is missing")
            #expect(Identical.plist(value, back), "metadata \(key): \(value) != \(back)")
        }
        #expect(decoded.metadata[StoreMetadataKey.storeUUID] == .string(StoreImageFixtures.storeIdentifier))
        #expect(decoded.metadata[StoreMetadataKey.modelVersionHashes]
            == .dictionary(model.entityVersionHashesByName.mapValues { .data($0) }))
    }

    @Test("an empty image round-trips")
    func emptyImage() throws {
        let empty = StoreImage(identifier: "EMPTY")
        let decoded = try roundTrip(empty)
        #expect(Identical.differences(empty, decoded).isEmpty)
    }

    @Test("files: write, read, and read the metadata alone")
    func files() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.binary")
        try BinaryStoreFormat().write(image, to: url, model: model)
        let read = try BinaryStoreFormat().read(from: url, model: model)
        // The file keeps the model's compiled form in its metadata too.
        var expected = image
        expected.metadata = try image.metadata(withCompiledModelOf: model)
        #expect(Identical.differences(expected, read).isEmpty)
        let metadata = try BinaryStoreFormat.readMetadata(from: url)
        #expect(Identical.metadata(metadata, expected.metadata))
        #expect(try StoreType.detect(at: url) == .binary)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["store.binary"])
    }

    @Test("the metadata reads without the objects: a damaged payload does not stop it")
    func metadataWithoutObjects() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.binary")
        var bytes = try BinaryStoreFormat().encode(image)
        bytes[bytes.count - 3] ^= 0xFF   // inside the payload
        try Data(bytes).write(to: url)
        #expect(throws: StoreError.self) { try BinaryStoreFormat().read(from: url, model: model) }
        let metadata = try BinaryStoreFormat.readMetadata(from: url)
        #expect(Identical.metadata(metadata, image.metadata))
    }

    @Test("the file follows docs/formats/binary.md: header fields, lengths and checksums")
    func layout() throws {
        let bytes = try BinaryStoreFormat().encode(image)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x53, 0x54, 0x52, 0x42, 0x0D, 0x0A, 0x1A])
        #expect(BinaryFile.field(bytes, at: 8, as: UInt16.self) == 1)
        #expect(BinaryFile.field(bytes, at: 10, as: UInt16.self) & 1 == 1)
        let metadataLength = Int(BinaryFile.field(bytes, at: 12, as: UInt32.self))
        let storedLength = Int(BinaryFile.field(bytes, at: 20, as: UInt64.self))
        #expect(bytes.count == 44 + metadataLength + storedLength)
        let (metadata, stored) = BinaryFile.sections(bytes)
        #expect(BinaryFile.field(bytes, at: 16, as: UInt32.self) == Deflate.crc32(metadata))
        #expect(BinaryFile.field(bytes, at: 36, as: UInt32.self) == Deflate.crc32(stored))
        #expect(BinaryFile.field(bytes, at: 40, as: UInt32.self) == Deflate.crc32(bytes[0..<40]))
        // The metadata section starts with the store UUID as a length-prefixed string.
        let uuid = Array(StoreImageFixtures.storeIdentifier.utf8)
        #expect(Array(metadata.prefix(1 + uuid.count)) == [UInt8(uuid.count)] + uuid)
        // The payload inflates to the declared length.
        let inflated = try Deflate.decompress(stored[...], expectedCount: Int(BinaryFile.field(bytes, at: 28, as: UInt64.self)),
                                              file: "x", offset: 0)
        // Rebuilding the file from its sections with the documented header gives the same bytes.
        #expect(try BinaryFile.assemble(metadata: metadata, payload: inflated) == bytes)
    }

    @Test("a file with an uncompressed payload (flag bit 0 clear) reads the same")
    func uncompressedPayload() throws {
        let bytes = try BinaryStoreFormat().encode(image)
        let (metadata, stored) = BinaryFile.sections(bytes)
        let inflated = try Deflate.decompress(stored[...], expectedCount: Int(BinaryFile.field(bytes, at: 28, as: UInt64.self)),
                                              file: "x", offset: 0)
        let plain = try BinaryFile.assemble(metadata: metadata, payload: inflated, compressed: false)
        let decoded = try BinaryStoreFormat().decode(plain, file: "/memory/plain.binary", model: model)
        #expect(Identical.differences(image, decoded).isEmpty)
    }

    @Test("unknown optional flags (bits 8–15) are ignored", arguments: [UInt16(0x0100), 0x8000, 0xFF00])
    func optionalFlags(flag: UInt16) throws {
        var bytes = try BinaryStoreFormat().encode(image)
        BinaryFile.setField(&bytes, at: 10, to: BinaryFile.field(bytes, at: 10, as: UInt16.self) | flag)
        BinaryFile.fixHeaderChecksum(&bytes)
        let decoded = try BinaryStoreFormat().decode(bytes, file: "/memory/store.binary", model: model)
        #expect(Identical.differences(image, decoded).isEmpty)
    }

    @Test("a store saved through the coordinator keeps exact values across reopening")
    func throughTheStack() throws {
        StoreType.registerBuiltInTypes()
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("stack.binary")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .binary, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let nan = Double(bitPattern: 0x7FF8_0000_0000_ABCD)
        let object = try context.insertNewObject(forEntityName: "Thing")
        try object.setValue("E\u{301}\u{0}\r", forKey: "string")
        try object.setValue(nan, forKey: "double")
        try object.setValue(Float(bitPattern: 0x0000_0001), forKey: "float")
        try object.setValue(Decimal(string: "12345678901234567890.123456789", locale: Locale(identifier: "en_US_POSIX"))!,
                            forKey: "decimal")
        try object.setValue(Date(timeIntervalSinceReferenceDate: 0.123_456_789), forKey: "date")
        try context.save()

        let again = PersistentStoreCoordinator(managedObjectModel: model)
        try again.addPersistentStore(type: .binary, at: url)
        let reader = ManagedObjectContext(coordinator: again)
        let loaded = try reader.existingObject(with: object.objectID)
        #expect((try loaded.value(forKey: "string") as? String).map { Array($0.unicodeScalars) }
            == Array("E\u{301}\u{0}\r".unicodeScalars))
        #expect((try loaded.value(forKey: "double") as? Double)?.bitPattern == nan.bitPattern)
        #expect((try loaded.value(forKey: "float") as? Float)?.bitPattern == 1)
        #expect((try loaded.value(forKey: "decimal") as? Decimal)?.description == "12345678901234567890.123456789")
        #expect((try loaded.value(forKey: "date") as? Date)?.timeIntervalSinceReferenceDate.bitPattern
            == (0.123_456_789 as Double).bitPattern)
        #expect(loaded.managedObjectContext === reader)
    }
}
