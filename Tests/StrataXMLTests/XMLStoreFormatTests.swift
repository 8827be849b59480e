import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
@testable @_spi(StoreImplementation) import StrataXML
import Testing

/// The XML format keeps every value exactly, writes well-formed XML and reads Core Data's layout.
@Suite("XML store format")
struct XMLStoreFormatTests {
    let model: ManagedObjectModel
    let image: StoreImage

    init() throws {
        model = try StoreImageFixtures.everyTypeModel()
        image = StoreImageFixtures.everyValueImage(model: model, type: .xml)
    }

    private func roundTrip(_ image: StoreImage) throws -> StoreImage {
        try XMLFixture.decode(XMLStoreFormat().encode(image, model: model), file: "/memory/store.xml", model: model)
    }

    @Test("the whole image comes back identical")
    func wholeImage() throws {
        let decoded = try roundTrip(image)
        let differences = Identical.differences(image, decoded)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(decoded.identifier == StoreImageFixtures.storeIdentifier)
        #expect(decoded.nextPrimaryKeys == image.nextPrimaryKeys)
    }

    @Test("every nasty value comes back exactly: scalars, bits, digits")
    func values() throws {
        let decoded = try roundTrip(image)
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

    @Test("relationships keep destinations and order; keys stay per inheritance root")
    func relationships() throws {
        let decoded = try roundTrip(image)
        func id(_ entity: String, _ pk: Int64) -> ManagedObjectID {
            ManagedObjectID(entityName: entity, storeIdentifier: StoreImageFixtures.storeIdentifier, primaryKey: pk)
        }
        #expect(decoded.objects[id("Owner", 1)]?.toMany["things"] == [id("Thing", 3), id("Thing", 1), id("Thing", 2)])
        #expect(decoded.objects[id("Owner", 2)]?.toMany["things"] == [])
        #expect(decoded.objects[id("Thing", 1)]?.toOne["owner"] == id("Owner", 1))
        #expect(decoded.objects[id("Thing", 2)]?.toMany["tags"] == [id("Tag", 2), id("Tag", 1)])
        #expect(decoded.objects[id("Square", 1)] != nil)
        #expect(decoded.objects[id("Circle", 2)] != nil)
        #expect(decoded.objects[id("Square", 3)] != nil)
    }

    @Test("metadata of every property-list kind, nested, comes back identical")
    func metadata() throws {
        let decoded = try roundTrip(image)
        for (key, value) in StoreImageFixtures.customMetadata {
            let back = try #require(decoded.metadata[key], "metadata \(key) is missing")
            #expect(Identical.plist(value, back), "metadata \(key): \(value) != \(back)")
        }
        #expect(decoded.metadata[StoreMetadataKey.modelVersionHashes]
            == .dictionary(model.entityVersionHashesByName.mapValues { .data($0) }))
    }

    @Test("metadata keys and strings that XML cannot carry as text survive")
    func unusualMetadataKeys() throws {
        var unusual = StoreImage(identifier: "S")
        unusual.metadata = [
            "key\u{0}with NUL": .string("v"),
            "key\u{1}\u{1F}": .array([.string("\u{FEFF}\u{0}")]),
            "\u{FEFF}BOM key": .string("\u{FFFE}"),
            "key\r\n": .integer(1),
            " padded ": .string(" padded "),
        ]
        let decoded = try roundTrip(unusual)
        #expect(Identical.metadata(unusual.metadata, decoded.metadata),
                "\(Identical.differences(unusual, decoded).joined(separator: "\n"))")
    }

    @Test("entity and property names whose case does not map back (dotless ı, ß, ſ) round-trip")
    func unusualNames() throws {
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
        let decoded = try XMLFixture.decode(XMLStoreFormat().encode(image, model: model), file: "/memory/names.xml", model: model)
        #expect(Identical.differences(image, decoded).isEmpty, "\(Identical.differences(image, decoded))")
    }

    @Test("the file is well-formed XML (xmllint), written whole, and its metadata reads alone")
    func files() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.xml")
        try XMLStoreFormat().write(image, to: url, model: model)
        if let lint = try XMLFixture.xmllintAccepts(url) {
            #expect(lint.ok, "xmllint: \(lint.output)")
        }
        let read = try XMLStoreFormat().read(from: url, model: model)
        // The file keeps the model's compiled form in its metadata too.
        var expected = image
        expected.metadata = try image.metadata(withCompiledModelOf: model)
        #expect(Identical.differences(expected, read).isEmpty)
        let metadata = try XMLStoreFormat.readMetadata(from: url)
        #expect(Identical.metadata(metadata, expected.metadata))
        #expect(try StoreType.detect(at: url) == .xml)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["store.xml"])
    }

    @Test("readMetadata stops after <databaseInfo>: garbage after it does not matter")
    func metadataStopsEarly() throws {
        StoreType.registerBuiltInTypes()
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = XMLStoreFormat().encode(image, model: model)
        let end = try #require(text.range(of: "</databaseInfo>"))
        let garbage = "\n    <object type=\"NOPE\" id=\"z1\"><<<&&& \u{0}\u{1} not xml at all" + String(repeating: "]]>\"<", count: 5000)
        let url = folder.appendingPathComponent("garbage-after.xml")
        try Data((String(text[..<end.upperBound]) + garbage).utf8).write(to: url)
        let metadata = try XMLStoreFormat.readMetadata(from: url)
        #expect(Identical.metadata(metadata, image.metadata))
        #expect(throws: StoreError.self) { try XMLStoreFormat().read(from: url, model: model) }
        let viaCoordinator = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .xml, at: url)
        #expect(viaCoordinator[StoreMetadataKey.storeUUID] == .string(StoreImageFixtures.storeIdentifier))
    }

    @Test("a document written by hand after docs/formats/xml.md reads as the expected image")
    func handWritten() throws {
        let model = try PetsModel.make()
        let decoded = try XMLFixture.decode(XMLFixture.pets, file: "/memory/pets.xml", model: model)
        let differences = Identical.differences(PetsModel.image(), decoded)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test("a file Core Data wrote (no pk, no version, lower-case names) takes its keys from the ids")
    func coreDataFile() throws {
        let model = try PetsModel.make()
        let text = XMLFixture.pets
            .replacingOccurrences(of: " pk=\"1\" version=\"1\"", with: "")
            .replacingOccurrences(of: " pk=\"2\" version=\"1\"", with: "")
            .replacingOccurrences(of: " pk=\"3\" version=\"1\"", with: "")
            .replacingOccurrences(of: "type=\"PET\"", with: "type=\"pet\"")
        let decoded = try XMLFixture.decode(text, file: "/memory/coredata.xml", model: model)
        let store = "PETS-STORE"
        #expect(decoded.objects.keys.contains(ManagedObjectID(entityName: "Person", storeIdentifier: store, primaryKey: 102)))
        #expect(decoded.objects.keys.contains(ManagedObjectID(entityName: "Pet", storeIdentifier: store, primaryKey: 103)))
        #expect(decoded.objects.keys.contains(ManagedObjectID(entityName: "Fish", storeIdentifier: store, primaryKey: 105)))
        #expect((decoded.nextPrimaryKeys["Animal"] ?? 0) > 105)
    }

    @Test("a store saved through the coordinator keeps exact values across reopening")
    func throughTheStack() throws {
        StoreType.registerBuiltInTypes()
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("stack.xml")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .xml, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let nan = Double(bitPattern: 0xFFF8_0000_0000_ABCD)
        let text = "\u{FEFF}E\u{301}\u{0}\r\n\u{C9}"
        let object = try context.insertNewObject(forEntityName: "Thing")
        try object.setValue(text, forKey: "string")
        try object.setValue(nan, forKey: "double")
        try object.setValue(-Float.leastNonzeroMagnitude, forKey: "float")
        try object.setValue(Decimal(string: "12345678901234567890.123456789", locale: Locale(identifier: "en_US_POSIX"))!,
                            forKey: "decimal")
        try object.setValue(Date(timeIntervalSinceReferenceDate: -0.123_456_789), forKey: "date")
        try context.save()
        if let lint = try XMLFixture.xmllintAccepts(url) { #expect(lint.ok, "xmllint: \(lint.output)") }

        let again = PersistentStoreCoordinator(managedObjectModel: model)
        try again.addPersistentStore(type: .xml, at: url)
        let reader = ManagedObjectContext(coordinator: again)
        let loaded = try reader.existingObject(with: object.objectID)
        #expect((try loaded.value(forKey: "string") as? String).map { Array($0.unicodeScalars) } == Array(text.unicodeScalars))
        #expect((try loaded.value(forKey: "double") as? Double)?.bitPattern == nan.bitPattern)
        #expect((try loaded.value(forKey: "float") as? Float)?.bitPattern == (-Float.leastNonzeroMagnitude).bitPattern)
        #expect((try loaded.value(forKey: "decimal") as? Decimal)?.description == "12345678901234567890.123456789")
        #expect((try loaded.value(forKey: "date") as? Date)?.timeIntervalSinceReferenceDate.bitPattern
            == (-0.123_456_789 as Double).bitPattern)
        #expect(loaded.managedObjectContext === reader)
    }
}
