import Foundation
import Strata
import StrataTestSupport
import Testing

/// A store file opened as another store type is refused before anything reads or writes it.
@Suite("Store type mismatch")
struct StoreTypeMismatchTests {
    @Test("A file of one type added as another: type-mismatch error, no store added, the file untouched",
          arguments: StoreUnderTest.fileBacked)
    func refused(store: StoreUnderTest) throws {
        let (coordinator, _, url, context) = try store.makeFileStore(model: SampleModels.student())
        try context.insert("Student", ["id": 1, "name": "Alice"])
        try context.save()
        let before = try Data(contentsOf: url)

        for asked in [StoreType.sqlite, .xml, .binary] where asked != store.type {
            let other = PersistentStoreCoordinator(managedObjectModel: coordinator.managedObjectModel)
            let error = try #require(throws: StoreError.self) {
                try other.addPersistentStore(type: asked, at: url)
            }
            #expect(error == .storeTypeMismatch(file: url.path, expected: asked.rawValue, found: store.type.rawValue))
            #expect(error.coreDataCode == 134010)
            #expect((error as NSError).domain == NSCocoaErrorDomain)
            #expect((error as NSError).code == 134010)
            #expect(other.persistentStores.isEmpty)
        }
        #expect(try Data(contentsOf: url) == before)
        // Asked for its own type, it opens.
        let same = PersistentStoreCoordinator(managedObjectModel: coordinator.managedObjectModel)
        try same.addPersistentStore(type: store.type, at: url)
        #expect(try ManagedObjectContext(coordinator: same).count("Student") == 1)
    }
}
