import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// Values set and read by any spelling of a property name, and snapshots whose values a store
/// keeps in a layout other than the entity's: every store answers the same.
@Suite("Attribute names and layouts")
struct AttributeNameTests {
    @Test("Objects read and write values by any spelling of a name", arguments: StoreUnderTest.all)
    func objectsByAnySpelling(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.spelling())
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.setValue("Dune", forKey: SampleModels.respelled("title"))
        try book.setValue(412, forKey: SampleModels.respelled(SampleModels.longAttributeName))
        try book.setValue(Int16(1965), forKey: "year")
        #expect(try book.value(forKey: "title") as? String == "Dune")
        #expect(try book.value(forKey: SampleModels.longAttributeName) as? Int64 == 412)
        #expect(try book.value(forKey: SampleModels.respelled("year")) as? Int16 == 1965)
        #expect(throws: ObjectError.unknownKey(entity: "Book", key: "titles")) { try book.value(forKey: SampleModels.respelled("titles")) }
        try context.save()

        let reader = context.freshContext()
        let read = try reader.existingObject(with: book.objectID)
        #expect(try read.value(forKey: SampleModels.respelled(SampleModels.longAttributeName)) as? Int64 == 412)
        #expect(try read.value(forKey: "title") as? String == "Dune")
        #expect(read.changedValues().isEmpty)
    }

    @Test("An object loads a snapshot kept in another layout, and saves it again", arguments: StoreUnderTest.all)
    func foreignLayoutLoads(store: StoreUnderTest) throws {
        let (coordinator, persistentStore) = try store.makeCoordinator(model: SampleModels.spelling())
        let key = try #require(try persistentStore.allocatePrimaryKeys(rootEntity: "Book", count: 1).first)
        let id = ManagedObjectID(entityName: "Book", storeIdentifier: persistentStore.identifier, primaryKey: key)
        // Written as a literal: the values' own layout, not the entity's.
        try persistentStore.save(StoreSaveRequest(inserted: [ObjectSnapshot(
            objectID: id, attributes: [SampleModels.longAttributeName: .integer(7), "title": .string("Persuasion")], toMany: [:])]))

        let context = ManagedObjectContext(coordinator: coordinator)
        let book = try context.existingObject(with: id)
        #expect(try book.value(forKey: "title") as? String == "Persuasion")
        #expect(try book.value(forKey: SampleModels.longAttributeName) as? Int64 == 7)
        #expect(try book.value(forKey: "year") == nil)
        try book.setValue(Int16(1817), forKey: "year")
        #expect(Set(book.changedValues().keys) == ["year"])
        try context.save()
        let other = context.freshContext()   // kept: objects hold their context weakly
        let reread = try other.existingObject(with: id)
        #expect(try reread.value(forKey: "year") as? Int16 == 1817)
        #expect(try reread.value(forKey: "title") as? String == "Persuasion")
    }
}
