import Foundation
import Strata
import StrataTestSupport
import Testing

/// A save of changed objects stores each change and keeps every property it did not change, on
/// every store, however little of a row the store writes: a changed to-one, a cleared value, a
/// value set back to what was saved, and the properties left alone.
@Suite("Saves of changed objects")
struct ChangedObjectSaveTests {
    private func model() throws -> ManagedObjectModel { try SampleModels.shelves() }

    /// The book's title, category, score and shelf label as a context that reads the store anew
    /// sees them: a second coordinator on the file, or a fresh context of a store without one.
    private func stored(_ store: StoreUnderTest, _ coordinator: PersistentStoreCoordinator) throws -> [String] {
        let reader: PersistentStoreCoordinator
        if store.hasFile, let url = coordinator.persistentStores.first?.url {
            reader = PersistentStoreCoordinator(managedObjectModel: coordinator.managedObjectModel)
            try reader.addPersistentStore(type: store.type, at: url)
        } else {
            reader = coordinator
        }
        let context = ManagedObjectContext(coordinator: reader)
        let book = try #require(try context.fetch(FetchRequest(entityName: "Book")).first)
        return [
            try book.value(forKey: "title", as: String.self) ?? "<nil>",
            try book.value(forKey: "category", as: Int32.self).map { "\($0)" } ?? "<nil>",
            try book.value(forKey: "score", as: Double.self).map { "\($0)" } ?? "<nil>",
            try book.value(forKey: "shelf", as: ManagedObject.self)?.value(forKey: "label", as: String.self) ?? "<nil>",
        ]
    }

    @Test("a changed to-one, a cleared value and a value set back are stored; what was left alone stays",
          arguments: StoreUnderTest.all)
    func changesAreStoredAndTheRestKept(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let first = try context.insert("Shelf", ["label": "A"])
        let second = try context.insert("Shelf", ["label": "B"])
        let book = try context.insert("Book", ["title": "First", "category": Int32(3), "score": 1.5])
        try book.setValue(first, forKey: "shelf")
        try context.save()
        #expect(try stored(store, coordinator) == ["First", "3", "1.5", "A"])

        try book.setValue(second, forKey: "shelf")
        try book.setValue(nil as String?, forKey: "title")
        try book.setValue(Int32(4), forKey: "category")
        try book.setValue(Int32(3), forKey: "category")   // set back: as saved
        try context.save()
        #expect(try stored(store, coordinator) == ["<nil>", "3", "1.5", "B"])

        // A save of one property keeps every other, the to-one set in the save before included.
        try book.setValue(2.5, forKey: "score")
        try context.save()
        #expect(try stored(store, coordinator) == ["<nil>", "3", "2.5", "B"])
        #expect(try first.objects("books").isEmpty)
        #expect(try second.objects("books") == [book])
    }
}
