import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// Every file store Strata writes keeps the model it was saved with (Core Data's compiled
/// model), so that it opens without its model file.
@Suite("Compiled model kept by file stores")
struct CompiledModelStoreTests {
    /// The model a store file keeps: `Z_MODELCACHE` for SQLite, the metadata entry otherwise.
    static func keptModel(_ store: StoreUnderTest, at url: URL) throws -> ManagedObjectModel? {
        if store.type == .sqlite { return try ManagedObjectModel.compiledModel(inStoreAt: url) }
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: store.type, at: url)
        return try metadata[StoreMetadataKey.compiledModel]?.dataValue.map { try CompiledModel.model(fromStoreCache: $0) }
    }

    @Test("a saved store reopens with the model it keeps, equal to the one it was saved with",
          arguments: StoreUnderTest.fileBacked)
    func reopensWithoutModel(_ store: StoreUnderTest) throws {
        for model in [try SampleModels.school(), try SampleModels.library(), try SampleModels.company(employerHashModifier: "2")] {
            let folder = try TemporaryFolder.make()
            let (coordinator, persistentStore) = try store.makeCoordinator(model: model, folder: folder)
            let url = try #require(persistentStore.url)
            try ManagedObjectContext(coordinator: coordinator).save()
            _ = coordinator
            let kept = try #require(try Self.keptModel(store, at: url), "\(store) keeps no model")
            #expect(kept == model)
            #expect(kept.entityVersionHashesByName == model.entityVersionHashesByName)
            // The store opens with the model it keeps: its version hashes are the store's.
            let reopened = PersistentStoreCoordinator(managedObjectModel: kept)
            try reopened.addPersistentStore(type: store.type, at: url)
            let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: store.type, at: url)
            #expect(StoreMetadataKey.versionHashes(in: metadata) == kept.entityVersionHashesByName)
        }
    }

    @Test("the kept model follows the store's model; the in-memory metadata does not show it",
          arguments: StoreUnderTest.fileBacked)
    func keptModelFollowsTheModel(_ store: StoreUnderTest) throws {
        let folder = try TemporaryFolder.make()
        let first = try SampleModels.company()
        let (coordinator, persistentStore) = try store.makeCoordinator(model: first, folder: folder)
        let url = try #require(persistentStore.url)
        try ManagedObjectContext(coordinator: coordinator).save()
        #expect(persistentStore.metadata[StoreMetadataKey.compiledModel] == nil)
        #expect(try Self.keptModel(store, at: url) == first)
        // Another model with the same version hashes (user info is not hashed) replaces it at the next save.
        var entities = first.entities
        entities[0].userInfo = ["note": "second"]
        let second = try ManagedObjectModel(entities: entities)
        #expect(second.entityVersionHashesByName == first.entityVersionHashesByName)
        let again = PersistentStoreCoordinator(managedObjectModel: second)
        try again.addPersistentStore(type: store.type, at: url)
        let context = ManagedObjectContext(coordinator: again)
        try context.insertNewObject(forEntityName: "Employer").setValue("Acme", forKey: "name")
        try context.save()
        #expect(try Self.keptModel(store, at: url) == second)
    }

    @Test("an SQLite store whose compiled model is missing gets it at the next save, not when it is only read")
    func missingCacheWrittenAtSave() throws {
        let store = try #require(StoreUnderTest.fileBacked.first { $0.type == .sqlite })
        let model = try SampleModels.company()
        let (_, persistentStore) = try store.makeCoordinator(model: model, folder: try TemporaryFolder.make())
        let url = try #require(persistentStore.url)
        _ = try SQLiteShell.rows(url, "DROP TABLE Z_MODELCACHE")
        #expect(try ManagedObjectModel.compiledModel(inStoreAt: url) == nil)
        let reader = PersistentStoreCoordinator(managedObjectModel: model)
        try reader.addPersistentStore(type: .sqlite, at: url, options: [StoreOption.readOnly: .bool(true)])
        #expect(try ManagedObjectModel.compiledModel(inStoreAt: url) == nil)
        let writer = PersistentStoreCoordinator(managedObjectModel: model)
        try writer.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: writer)
        try context.insertNewObject(forEntityName: "Employer").setValue("Acme", forKey: "name")
        try context.save()
        #expect(try ManagedObjectModel.compiledModel(inStoreAt: url) == model)
    }
}
