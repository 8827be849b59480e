import Foundation
import Strata
import StrataTestSupport
import Testing

/// The compiled model an Apple-written SQLite store keeps in `Z_MODELCACHE`: read without the
/// model file, it gives the store's recorded version hashes byte for byte and reads every object
/// as the model file does.
@Suite struct CompiledModelTests {
    init() { StoreType.registerBuiltInTypes() }

    static let withModelCache = AppleStoreFixture.all.filter(\.hasModelCache)

    /// The entity version hashes a store recorded in its metadata.
    static func recordedHashes(of file: URL) throws -> [String: Data] {
        let metadata = try SQLiteStore.readMetadata(at: file)
        let hashes = try #require(metadata[StoreMetadataKey.modelVersionHashes]?.dictionaryValue, "no version hashes")
        return hashes.compactMapValues(\.dataValue)
    }

    @Test("The compiled model's version hashes are the store's, byte for byte", arguments: withModelCache)
    func hashesAreTheRecordedOnes(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let recorded = try Self.recordedHashes(of: file)
        let model = try #require(try ManagedObjectModel.compiledModel(inStoreAt: file))
        #expect(model.entitiesDiffering(fromVersionHashes: recorded) == [])
        #expect(model.entityVersionHashesByName == recorded)
        #expect(Set(model.entities.map(\.name)) == Set(recorded.keys))
        try model.checkCompatibility(withStoreMetadata: try SQLiteStore.readMetadata(at: file), file: file.path)
        if fixture.version != nil {
            #expect(model.entityVersionHashesByName == (try fixture.model()).entityVersionHashesByName)
        }
    }

    @Test("A store without a model cache has no compiled model", arguments: AppleStoreFixture.all.filter { !$0.hasModelCache })
    func storesWithoutCache(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        #expect(try SQLiteStore.compiledModelData(at: file) == nil)
        #expect(try ManagedObjectModel.compiledModel(inStoreAt: file) == nil)
    }
}
