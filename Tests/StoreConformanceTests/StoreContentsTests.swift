import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
import Testing

/// What converting between store types rests on: every store hands out its whole contents as one
/// image and takes an image whole, keeping UUID, metadata, primary keys and every value.
@Suite("Store contents")
struct StoreContentsTests {
    /// `image` with the store-owned metadata a store of `type` writes for `model`, seen as
    /// every store must keep it: every to-many present (absent means empty), unordered ones in
    /// primary-key order (their order is not part of the data).
    private func stamped(_ image: StoreImage, _ type: StoreType, _ model: ManagedObjectModel) -> StoreImage {
        var copy = normalized(image, model)
        copy.stampMetadata(type: type, model: model)
        return copy
    }

    private func normalized(_ image: StoreImage, _ model: ManagedObjectModel) -> StoreImage {
        var copy = image
        for (id, var snapshot) in copy.objects {
            for relationship in model.entity(named: id.entityName)?.relationships ?? [] where relationship.isToMany {
                let destinations = snapshot.toMany[relationship.name] ?? []
                snapshot.toMany[relationship.name] = relationship.isOrdered ? destinations
                    : destinations.sorted(by: ManagedObjectID.storeOrder)
            }
            copy.objects[id] = snapshot
        }
        return copy
    }

    @Test("replacing a store's contents and reading them back gives the same image", arguments: StoreUnderTest.all)
    func replaceAndRead(_ store: StoreUnderTest) throws {
        let model = try StoreImageFixtures.everyTypeModel()
        let image = StoreImageFixtures.everyValueImage(model: model)
        let (coordinator, persistentStore) = try store.makeCoordinator(model: model)
        try persistentStore.replaceContents(with: image)
        #expect(persistentStore.identifier == StoreImageFixtures.storeIdentifier)
        let differences = Identical.differences(stamped(image, store.type, model), normalized(try persistentStore.contentsImage(), model))
        #expect(differences == [])

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
        // SQLite keeps metadata as Core Data does, in a binary property list, where a NaN's
        // payload does not survive (docs/formats/sqlite.md); every other value does.
        let canonical = { (metadata: [String: PropertyListValue]) in
            store.type == .sqlite ? metadata.mapValues(Self.canonicalNaNs) : metadata
        }
        #expect(Identical.metadata(canonical(try persistentStore.contentsImage().metadata), canonical(try again.contentsImage().metadata)))
        #expect(Identical.differences(normalized(expected, model), normalized(try again.contentsImage(), model)) == [])
    }

    private static func canonicalNaNs(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .double(let double) where double.isNaN: .double(.nan)
        case .array(let items): .array(items.map(canonicalNaNs))
        case .dictionary(let dictionary): .dictionary(dictionary.mapValues(canonicalNaNs))
        default: value
        }
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
        let differences = Identical.differences(stamped(try from.contentsImage(), destination.type, model), normalized(moved, model))
        #expect(differences == [])
        #expect(StoreImageFixtures.valueMismatches(in: moved) == [])
    }

    @Test("a save that inserts an ID the store already holds is refused whole", arguments: StoreUnderTest.all)
    func duplicateInsert(_ store: StoreUnderTest) throws {
        let model = try SampleModels.company()
        let (coordinator, persistentStore) = try store.makeCoordinator(model: model)
        let context = ManagedObjectContext(coordinator: coordinator)
        let acme = try context.insertNewObject(forEntityName: "Employer")
        try acme.setValue("Acme", forKey: "name")
        try context.save()
        let fresh = ManagedObjectID(entityName: "Employer", storeIdentifier: persistentStore.identifier, primaryKey: 99)
        let request = StoreSaveRequest(inserted: [
            ObjectSnapshot(objectID: fresh, attributes: ["name": .string("New")]),
            ObjectSnapshot(objectID: acme.objectID, attributes: ["name": .string("Again")]),
        ])
        #expect { try persistentStore.save(request) } throws: { error in
            guard case StoreError.duplicateObject(let id) = error else { return false }
            return id == acme.objectID
        }
        #expect(try persistentStore.snapshot(for: fresh) == nil, "nothing of the refused save landed")
        #expect(try persistentStore.snapshot(for: acme.objectID)?.attributes["name"] == .string("Acme"))
    }
}
