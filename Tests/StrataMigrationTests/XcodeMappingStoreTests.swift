import Foundation
import StrataCore
import StrataMigration
import StrataXML
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
