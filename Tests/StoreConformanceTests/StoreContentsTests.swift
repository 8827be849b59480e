import Foundation
import Strata
import StrataTestSupport
import Testing

/// What converting between store types rests on: every store hands out its whole contents as one
/// image and takes an image whole, keeping UUID, metadata, primary keys and every value.
@Suite("Store contents")
struct StoreContentsTests {
    /// `image` with the store-owned metadata a store of `type` writes for `model`.
    private func stamped(_ image: StoreImage, _ type: StoreType, _ model: ManagedObjectModel) -> StoreImage {
        var copy = image
        copy.stampMetadata(type: type, model: model)
        return copy
    }

    @Test("replacing a store's contents and reading them back gives the same image", arguments: StoreUnderTest.all)
    func replaceAndRead(_ store: StoreUnderTest) throws {
        let model = try StoreImageFixtures.everyTypeModel()
        let image = StoreImageFixtures.everyValueImage(model: model)
        let (coordinator, persistentStore) = try store.makeCoordinator(model: model)
        try persistentStore.replaceContents(with: image)
        #expect(persistentStore.identifier == StoreImageFixtures.storeIdentifier)
        #expect(Identical.differences(stamped(image, store.type, model), try persistentStore.contentsImage()) == [])

        // The objects are there for contexts, under the image's URIs.
        let thing = ManagedObjectID(entityName: "Thing", storeIdentifier: StoreImageFixtures.storeIdentifier, primaryKey: 1)
        #expect(coordinator.managedObjectID(forURIRepresentation: thing.uriRepresentation) == thing)
        let context = ManagedObjectContext(coordinator: coordinator)
        let owners = try context.fetch(FetchRequest(entityName: "Owner", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        #expect(owners.count == 2)
        #expect(try context.count(for: FetchRequest(entityName: "Shape")) == 3)

        // New objects never take a key the image had handed out.
        let tag = try context.insertNewObject(forEntityName: "Tag")
        try context.save()
        #expect(tag.objectID.primaryKey == 40)

        guard let url = persistentStore.url else { return }
        let reopened = PersistentStoreCoordinator(managedObjectModel: model)
        let again = try reopened.addPersistentStore(type: store.type, at: url)
        var expected = try persistentStore.contentsImage()
        expected.metadata = try again.contentsImage().metadata   // the same keys; compared below
        #expect(Identical.metadata(try persistentStore.contentsImage().metadata, try again.contentsImage().metadata))
        #expect(Identical.differences(expected, try again.contentsImage()) == [])
    }

    @Test("an image moves from every store type to every other unchanged",
          arguments: StoreUnderTest.all, StoreUnderTest.all)
    func convert(_ source: StoreUnderTest, _ destination: StoreUnderTest) throws {
        let model = try StoreImageFixtures.everyTypeModel()
        let (_, from) = try source.makeCoordinator(model: model)
        try from.replaceContents(with: StoreImageFixtures.everyValueImage(model: model))
        let (_, to) = try destination.makeCoordinator(model: model)
        try to.replaceContents(with: try from.contentsImage())
        let moved = try to.contentsImage()
        #expect(moved.metadata[StoreMetadataKey.storeType] == .string(destination.type.rawValue))
        #expect(Identical.differences(stamped(try from.contentsImage(), destination.type, model), moved) == [])
        #expect(StoreImageFixtures.valueMismatches(in: moved) == [])
    }
}
