import Foundation
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataJSON
@_spi(StoreImplementation) import StrataMigration
@_spi(StoreImplementation) import StrataXML
import Testing

@Suite("Xcode's mapping model store")
struct XcodeMappingStoreTests {
    @Test("The model defined in code hashes to the version hashes every xcmapping.xml records",
          arguments: try MappingFixtures.mappingModelPaths())
    func modelHashes(path: String) throws {
        let model = try XcodeMappingStore.model()
        let file = try MappingFixtures.url(path).appending(path: XcodeMappingStore.fileName)
        let metadata = try XMLStoreFormat.readMetadata(from: file)
        let recorded = try #require(metadata[StoreMetadataKey.modelVersionHashes]?.dictionaryValue)
        #expect(Set(recorded.keys) == Set(model.entityVersionHashesByName.keys))
        for (entity, hash) in model.entityVersionHashesByName {
            #expect(recorded[entity]?.dataValue == hash, "\(entity)")
        }
        if let digest = metadata[StoreMetadataKey.modelVersionHashesDigest]?.stringValue {
            #expect(digest == model.versionHashesDigest.base64EncodedString())
        }
    }

    @Test("There are ten mapping models in the fixtures")
    func fixtureCount() throws {
        #expect(try MappingFixtures.mappingModelPaths().count == 10)
    }
}

extension XcodeMappingStoreTests {
    @Test("Every xcmapping.xml opens as an XML store; its objects per entity are those the file lists",
          arguments: try MappingFixtures.mappingModelPaths())
    func opensAsXMLStore(path: String) throws {
        let bundle = try MappingFixtures.url(path)
        let image = try XcodeMappingStore.read(at: bundle)

        // Counted independently: the `type` of every <object> element in the text.
        let text = try String(contentsOf: bundle.appending(path: XcodeMappingStore.fileName), encoding: .utf8)
        var expected: [String: Int] = [:]
        for match in text.matches(of: /<object type="([A-Z]+)" id="z[0-9]+">/) {
            expected[String(match.output.1), default: 0] += 1
        }
        var counted: [String: Int] = [:]
        for object in image.objects.values {
            counted[object.objectID.entityName.uppercased(), default: 0] += 1
        }
        #expect(counted == expected)
        #expect(expected["XDDEVMAPPINGMODEL"] == 1)
        #expect(image.identifier.count == 36)

        // Exported as `strata export` does, and read back: every object and value survives.
        let model = try XcodeMappingStore.model()
        let json = ExportDocument.text(of: image, storeType: .xml, model: model)
        let imported = try ImportDocument.read(Data(json.utf8), model: model)
        // (The model's to-many relationships are unordered: compared as sets.)
        #expect(imported.objects.count == image.objects.count)
        #expect(Self.unordered(imported) == Self.unordered(image))
    }

    private static func unordered(_ image: StoreImage) -> [ManagedObjectID: ObjectSnapshot] {
        image.objects.mapValues { snapshot in
            var snapshot = snapshot
            snapshot.toMany = snapshot.toMany.mapValues { $0.sorted { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) } }
            return snapshot
        }
    }
}
