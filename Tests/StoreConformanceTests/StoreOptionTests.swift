import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// `StoreOption.readOnly`: the store reads as usual, refuses every write with
/// `StoreError.readOnlyStore`, and leaves its file byte for byte as it was.
/// `StoreOption.ignoresVersionHashes`: a store written with another model version opens.
@Suite("Store options")
struct StoreOptionTests {
    /// Every file of the store (the main file and its sidecars) with its bytes.
    private func files(of url: URL, _ store: StoreUnderTest) -> [String: Data] {
        var found: [String: Data] = [:]
        for suffix in [""] + store.sidecarSuffixes where suffix != "-shm" {
            if let data = FileManager.default.contents(atPath: url.path + suffix) { found[suffix] = data }
        }
        return found
    }

    @Test("a store opened read-only reads, refuses writes and changes no byte of its file", arguments: StoreUnderTest.fileBacked)
    func fileStore(store: StoreUnderTest) throws {
        let model = try SampleModels.company()
        let (coordinator, written, url, context) = try store.makeFileStore(model: model)
        try context.insert("Employer", ["name": "Acme"])
        try context.save()
        try coordinator.remove(written)
        let before = files(of: url, store)

        let reader = PersistentStoreCoordinator(managedObjectModel: model)
        let opened = try reader.addPersistentStore(type: store.type, at: url, options: [StoreOption.readOnly: .bool(true)])
        let readingContext = ManagedObjectContext(coordinator: reader)
        #expect(try readingContext.strings(FetchRequest(entityName: "Employer")) == ["Acme"])

        try readingContext.insert("Employer", ["name": "Globex"])
        #expect(throws: StoreError.readOnlyStore(file: url.path)) { try readingContext.save() }
        #expect(throws: StoreError.readOnlyStore(file: url.path)) { try opened.setMetadata(["app.key": .string("value")]) }
        #expect(throws: StoreError.readOnlyStore(file: url.path)) {
            try opened.replaceContents(with: StoreImage.empty(type: store.type, model: model))
        }
        #expect(throws: StoreError.readOnlyStore(file: url.path)) {
            try readingContext.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Employer")))
        }
        try reader.remove(opened)
        #expect(files(of: url, store) == before)
        #expect(readingContext.hasChanges, "the refused save keeps the context's changes")
    }

    @Test("a store opened read-only is not created", arguments: StoreUnderTest.fileBacked)
    func missingFile(store: StoreUnderTest) throws {
        let url = try store.storeURL()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.company())
        #expect(throws: StoreError.self) {
            try coordinator.addPersistentStore(type: store.type, at: url, options: [StoreOption.readOnly: .bool(true)])
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("an in-memory store opened read-only refuses saves")
    func inMemory() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.company())
        try coordinator.addPersistentStore(type: .inMemory, options: [StoreOption.readOnly: .bool(true)])
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insert("Employer", ["name": "Acme"])
        #expect(throws: StoreError.readOnlyStore(file: "")) { try context.save() }
    }

    @Test("another model version is refused, unless the version hashes are ignored", arguments: StoreUnderTest.fileBacked)
    func ignoringVersionHashes(store: StoreUnderTest) throws {
        let (coordinator, written) = try store.makeCoordinator(model: SampleModels.company())
        let url = try #require(written.url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insert("Employer", ["name": "Acme"])
        try context.save()
        try coordinator.remove(written)

        let other = try SampleModels.company(employerHashModifier: "2")
        #expect(throws: StoreError.incompatibleModel(file: url.path, entities: ["Employer"])) {
            try PersistentStoreCoordinator(managedObjectModel: other).addPersistentStore(type: store.type, at: url)
        }
        let reader = PersistentStoreCoordinator(managedObjectModel: other)
        try reader.addPersistentStore(type: store.type, at: url, options: [StoreOption.ignoresVersionHashes: .bool(true),
                                                                           StoreOption.readOnly: .bool(true)])
        #expect(try ManagedObjectContext(coordinator: reader).strings(FetchRequest(entityName: "Employer")) == ["Acme"])
    }
}
