import Foundation
import Strata
import StrataTestSupport
import Testing

/// Strata's compiled models next to Apple's: each Apple-written store's model, written again by
/// Strata, reads back as the same model with the store's recorded version hashes; and a store
/// Strata saves into keeps Apple's `Z_MODELCACHE` bytes when the model is the same.
@Suite struct CompiledModelWritingTests {
    init() { StoreType.registerBuiltInTypes() }

    @Test("Every Apple compiled model, written again by Strata, reads back equal with the store's hashes",
          arguments: CompiledModelTests.withModelCache)
    func appleModelsRoundTrip(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let apple = try #require(try ManagedObjectModel.compiledModel(inStoreAt: file))
        let rewritten = try CompiledModel.model(fromStoreCache: try CompiledModel.storeCache(of: apple))
        #expect(rewritten == apple)
        #expect(rewritten.entityVersionHashesByName == (try CompiledModelTests.recordedHashes(of: file)))
    }

    @Test("Saving into an Apple store with its own compiled model keeps Apple's cache bytes",
          arguments: CompiledModelTests.withModelCache)
    func appleCacheKept(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let before = try #require(try SQLiteStore.compiledModelData(at: file))
        let model = try #require(try ManagedObjectModel.compiledModel(inStoreAt: file))
        let store = try SQLiteStore(description: StoreDescription(type: .sqlite, url: file, model: model))
        try store.setMetadata(store.metadata.merging(["note": .string("saved")]) { _, new in new })
        #expect(try SQLiteStore.compiledModelData(at: file) == before)
    }
}
