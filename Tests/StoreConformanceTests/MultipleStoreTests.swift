import Foundation
import Strata
import StrataTestSupport
import Testing

/// A coordinator with several stores: routing by configuration, fetches across stores, metadata.
@Suite("Several stores")
struct MultipleStoreTests {
    private func addStore(
        _ store: StoreUnderTest, to coordinator: PersistentStoreCoordinator, configuration: String?, folder: URL
    ) throws -> any PersistentStore {
        try coordinator.addPersistentStore(
            type: store.type, configuration: configuration, at: store.hasFile ? try store.storeURL(in: folder) : nil)
    }

    @Test("New objects go to the store of their configuration; fetches span stores", arguments: StoreUnderTest.all)
    func routingByConfiguration(store: StoreUnderTest) throws {
        let folder = try TemporaryFolder.make()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.library())
        let catalog = try addStore(store, to: coordinator, configuration: "Catalog", folder: folder)
        let notes = try addStore(store, to: coordinator, configuration: "Notes", folder: folder)
        #expect(catalog.identifier != notes.identifier)
        #expect(coordinator.persistentStores.map(\.identifier) == [catalog.identifier, notes.identifier])
        #expect(try coordinator.assignedStore(forNewObjectOf: "Book").identifier == catalog.identifier)
        #expect(try coordinator.assignedStore(forNewObjectOf: "Note").identifier == notes.identifier)

        let context = ManagedObjectContext(coordinator: coordinator)
        let author = try context.insert("Author", ["name": "Ann"])
        let book = try context.insert("Book", ["title": "Dune"])
        let magazine = try context.insert("Magazine", ["title": "Byte"])
        let note1 = try context.insert("Note", ["text": "first"])
        let note2 = try context.insert("Note", ["text": "second"])
        try author.add(book, to: "publications")
        try context.save()

        for object in [author, book, magazine] { #expect(object.objectID.storeIdentifier == catalog.identifier) }
        for object in [note1, note2] { #expect(object.objectID.storeIdentifier == notes.identifier) }
        #expect(coordinator.persistentStore(of: book.objectID) === catalog)
        #expect(coordinator.persistentStore(of: note1.objectID) === notes)

        let fresh = context.freshContext()
        #expect(try fresh.strings(sortedRequest("Note", by: "text"), key: "text") == ["first", "second"])
        #expect(try fresh.strings(sortedRequest("Publication", by: "title"), key: "title") == ["Byte", "Dune"])
        #expect(try fresh.existingObject(with: author.objectID).list("publications").map(\.objectID) == [book.objectID])

        // A request limited to one store sees only that store.
        var onlyCatalog = FetchRequest(entityName: "Note")
        onlyCatalog.affectedStoreIdentifiers = [catalog.identifier]
        #expect(try fresh.fetch(onlyCatalog).isEmpty)
        onlyCatalog.affectedStoreIdentifiers = [notes.identifier]
        #expect(try fresh.fetch(onlyCatalog).count == 2)

        // A configuration the model does not have is refused.
        #expect(throws: StoreError.unknownConfiguration("Nope")) {
            try coordinator.addPersistentStore(type: store.type, configuration: "Nope",
                                               at: store.hasFile ? try store.storeURL(in: folder) : nil)
        }
    }

    @Test("An entity held by two stores: a fetch merges them with sort, offset and limit",
          arguments: StoreUnderTest.all)
    func oneEntityInTwoStores(store: StoreUnderTest) throws {
        let folder = try TemporaryFolder.make()
        let model = try SampleModels.library()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let first = try addStore(store, to: coordinator, configuration: nil, folder: folder)
        let second = try addStore(store, to: coordinator, configuration: nil, folder: folder)
        // A second coordinator with only the second store puts objects there.
        let secondOnly = PersistentStoreCoordinator(managedObjectModel: model)
        try secondOnly.addPersistentStore(second)

        let context = ManagedObjectContext(coordinator: coordinator)
        for (title, year) in [("A", 1), ("C", 3), ("E", 5), ("G", 7)] {
            try context.insert("Book", ["title": title, "year": year])
        }
        try context.save()
        let other = ManagedObjectContext(coordinator: secondOnly)
        for (title, year) in [("B", 2), ("D", 4), ("F", 6)] {
            try other.insert("Magazine", ["title": title, "year": year])
        }
        try other.insert("Book", ["title": "H", "year": 8])
        try other.save()

        let fresh = ManagedObjectContext(coordinator: coordinator)
        let all = try fresh.fetch(sortedRequest("Publication", by: "title"))
        #expect(try all.map { try $0.string("title") } == ["A", "B", "C", "D", "E", "F", "G", "H"])
        #expect(all.map { $0.objectID.storeIdentifier == first.identifier ? 1 : 2 } == [1, 2, 1, 2, 1, 2, 1, 2])
        #expect(try fresh.count("Publication") == 8)

        let page = sortedRequest("Publication", by: "title", offset: 2, limit: 4)
        #expect(try fresh.strings(page, key: "title") == ["C", "D", "E", "F"])
        #expect(try fresh.count(for: page) == 4)
        var descending = page
        descending.sortDescriptors = [ObjectSortDescriptor(key: "year", ascending: false)]
        #expect(try fresh.strings(descending, key: "title") == ["F", "E", "D", "C"])
        var tail = page
        tail.fetchOffset = 6
        #expect(try fresh.strings(tail, key: "title") == ["G", "H"])
        #expect(try fresh.count(for: tail) == 2)

        let books = sortedRequest("Book", by: "title", predicate: try ObjectPredicate(format: "year > 2"), limit: 2)
        #expect(try fresh.strings(books, key: "title") == ["C", "E"])

        // With unsaved objects in the mix.
        try fresh.insert("Magazine", ["title": "Ca", "year": 3])
        #expect(try fresh.strings(page, key: "title") == ["C", "Ca", "D", "E"])

        // Restricted to one store.
        var onlySecond = sortedRequest("Publication", by: "title")
        onlySecond.affectedStoreIdentifiers = [second.identifier]
        onlySecond.includesPendingChanges = false
        #expect(try fresh.strings(onlySecond, key: "title") == ["B", "D", "F", "H"])
    }

    @Test("Metadata set and read back; store-owned keys stay", arguments: StoreUnderTest.all)
    func metadataRoundTrip(store: StoreUnderTest) throws {
        let folder = try TemporaryFolder.make()
        let model = try SampleModels.library()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let persistentStore = try addStore(store, to: coordinator, configuration: nil, folder: folder)
        let custom: [String: PropertyListValue] = [
            "appVersion": .string("2.1"), "launches": .integer(7), "flags": .array([.bool(true), .double(0.5)]),
        ]
        var metadata = coordinator.metadata(for: persistentStore)
        #expect(metadata[StoreMetadataKey.storeUUID] == .string(persistentStore.identifier))
        #expect(metadata[StoreMetadataKey.storeType] == .string(store.type.rawValue))
        metadata.merge(custom) { _, new in new }
        try coordinator.setMetadata(metadata, for: persistentStore)

        let read = coordinator.metadata(for: persistentStore)
        for (key, value) in custom { #expect(read[key] == value) }
        #expect(read[StoreMetadataKey.storeUUID] == .string(persistentStore.identifier))
        #expect(read[StoreMetadataKey.modelVersionHashes] != nil)

        // Replacing drops keys not given again, but never the store's own.
        try coordinator.setMetadata(["only": .string("this")], for: persistentStore)
        let replaced = coordinator.metadata(for: persistentStore)
        #expect(replaced["only"] == .string("this"))
        #expect(replaced["appVersion"] == nil)
        #expect(replaced[StoreMetadataKey.storeUUID] == .string(persistentStore.identifier))
        #expect(replaced[StoreMetadataKey.storeType] == .string(store.type.rawValue))

        // A file-backed store keeps metadata through a save and a reopen.
        if let url = persistentStore.url {
            let context = ManagedObjectContext(coordinator: coordinator)
            try context.insert("Note", ["text": "x"])
            try context.save()
            let reopened = PersistentStoreCoordinator(managedObjectModel: model)
            let again = try reopened.addPersistentStore(type: store.type, at: url)
            #expect(again.identifier == persistentStore.identifier)
            #expect(reopened.metadata(for: again)["only"] == .string("this"))
        }
    }

    @Test("A removed store is no longer fetched, saved to or resolved", arguments: StoreUnderTest.all)
    func removeStore(store: StoreUnderTest) throws {
        let folder = try TemporaryFolder.make()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.library())
        let catalog = try addStore(store, to: coordinator, configuration: "Catalog", folder: folder)
        let notes = try addStore(store, to: coordinator, configuration: "Notes", folder: folder)
        let context = ManagedObjectContext(coordinator: coordinator)
        let note = try context.insert("Note", ["text": "keep"])
        try context.insert("Book", ["title": "Dune"])
        try context.save()

        try coordinator.remove(notes)
        #expect(coordinator.persistentStores.map(\.identifier) == [catalog.identifier])
        #expect(coordinator.persistentStore(withIdentifier: notes.identifier) == nil)
        #expect(coordinator.managedObjectID(forURIRepresentation: note.objectID.uriRepresentation) == nil)
        let fresh = ManagedObjectContext(coordinator: coordinator)
        #expect(try fresh.fetch(FetchRequest(entityName: "Note")).isEmpty)
        #expect(try fresh.count("Note") == 0)
        #expect(try fresh.count("Book") == 1)
        #expect(throws: ObjectError.objectNotFound(note.objectID)) { try fresh.existingObject(with: note.objectID) }
        #expect(throws: StoreError.noStoreForEntity("Note")) { try coordinator.assignedStore(forNewObjectOf: "Note") }
        try fresh.insert("Note", ["text": "nowhere"])
        #expect(throws: StoreError.noStoreForEntity("Note")) { try fresh.save() }
        #expect(throws: StoreError.storeNotLoaded(notes.identifier)) { try coordinator.remove(notes) }

        // Added back, its objects are there again.
        try coordinator.addPersistentStore(notes)
        #expect(try ManagedObjectContext(coordinator: coordinator).strings(sortedRequest("Note", by: "text"), key: "text") == ["keep"])
    }
}
