import Foundation
import Testing
import StrataCore
import StrataTestSupport

/// Attribute values kept by position in a layout and read by name: the same answers whatever
/// the layout, whatever string spells the name.
@Suite("AttributeValues")
struct AttributeValuesTests {
    /// A name longer than a small string holds (15 bytes), so that it lives in heap storage.
    static let longName = "numberOfPagesInTheFirstEdition"

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Book") {
                Attribute("title", .string)
                Attribute("year", .integer16)
                Attribute(AttributeValuesTests.longName, .integer64)
                Relationship("author", to: "Author", inverse: "books")
            }
            EntityDescription("Author") {
                Attribute("name", .string)
                Relationship("books", toMany: "Book", inverse: "author")
            }
        }
    }

    /// `name` built again at run time, in storage of its own.
    static func respelled(_ name: String) -> String {
        String(decoding: Array(name.utf8), as: UTF8.self)
    }

    @Test("Values read, compare and hash the same whatever their layout")
    func layoutsDoNotShow() throws {
        let book = try #require(try Self.model().entitiesByName["Book"])
        var laidOut = AttributeValues(layout: book.attributeLayout)
        laidOut["year"] = .integer(1999)
        laidOut["title"] = .string("Dune")
        let literal: AttributeValues = ["title": .string("Dune"), "year": .integer(1999)]
        let fromDictionary = AttributeValues(["year": .integer(1999), "title": .string("Dune")])

        #expect(laidOut.layout === book.attributeLayout)
        #expect(literal.layout !== book.attributeLayout)
        #expect(laidOut == literal && literal == fromDictionary)
        #expect(Set([laidOut, literal, fromDictionary]).count == 1)
        #expect(laidOut.count == 2 && !laidOut.isEmpty)
        #expect(laidOut.keys == ["title", "year"])   // the entity's order, not the order set
        #expect(laidOut.dictionary == ["title": .string("Dune"), "year": .integer(1999)])
        #expect(laidOut[Self.longName] == nil)

        var changed = laidOut
        changed["year"] = nil
        #expect(changed != laidOut && changed.count == 1 && laidOut.count == 2)
        #expect(changed.removeValue(forKey: "title") == .string("Dune"))
        #expect(changed.isEmpty && changed == AttributeValues())
    }

    @Test("A name the layout lacks extends these values alone")
    func extending() throws {
        let book = try #require(try Self.model().entitiesByName["Book"])
        var values = AttributeValues(layout: book.attributeLayout)
        values["title"] = .string("Emma")
        #expect(values.updateValue(.boolean(true), forKey: "extra") == nil)
        #expect(values["extra"] == .boolean(true) && values["title"] == .string("Emma"))
        #expect(values.layout !== book.attributeLayout)
        #expect(book.attributeLayout.names == ["title", "year", Self.longName])
        #expect(book.attributeLayout.position(of: "extra") == nil)
        // Setting nil for a name that is nowhere changes nothing.
        var untouched = AttributeValues(layout: book.attributeLayout)
        untouched["nowhere"] = nil
        #expect(untouched.layout === book.attributeLayout)
    }

    @Test("A name spelled at run time finds what the model's own string finds",
          arguments: ["title", "year", AttributeValuesTests.longName, "author", "missing"])
    func respelledNames(name: String) throws {
        let book = try #require(try Self.model().entitiesByName["Book"])
        let layout = book.attributeLayout
        let other = Self.respelled(name)
        #expect(layout.position(of: other) == layout.position(of: name))
        #expect(layout.position(of: name) == layout.names.firstIndex(of: name))
    }

    @Test("A layout of many names finds each of them, by any spelling")
    func manyNames() {
        let names = (0..<100).map { "attribute\($0)" }
        let layout = AttributeLayout(names: names + ["attribute7"])   // a repeat keeps its first position
        #expect(layout.names.count == 100)
        for (position, name) in names.enumerated() {
            #expect(layout.position(of: name) == position)
            #expect(layout.position(of: Self.respelled(name)) == position)
        }
        #expect(layout.position(of: "attribute100") == nil)
    }

    @Test("Objects read and write values by any spelling of a name")
    func objectsByAnySpelling() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: .inMemory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.setValue("Dune", forKey: Self.respelled("title"))
        try book.setValue(412, forKey: Self.respelled(Self.longName))
        try book.setValue(Int16(1965), forKey: "year")
        #expect(try book.value(forKey: "title") as? String == "Dune")
        #expect(try book.value(forKey: Self.longName) as? Int64 == 412)
        #expect(try book.value(forKey: Self.respelled("year")) as? Int16 == 1965)
        #expect(throws: ObjectError.unknownKey(entity: "Book", key: "titles")) { try book.value(forKey: Self.respelled("titles")) }
        try context.save()

        let reader = ManagedObjectContext(coordinator: coordinator)
        let read = try reader.existingObject(with: book.objectID)
        #expect(try read.value(forKey: Self.respelled(Self.longName)) as? Int64 == 412)
        #expect(read.changedValues().isEmpty)
    }

    @Test("An object loads a snapshot kept in another layout")
    func foreignLayoutLoads() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: .inMemory)
        let store = try #require(coordinator.persistentStores.first)
        let key = try #require(try store.allocatePrimaryKeys(rootEntity: "Book", count: 1).first)
        let id = ManagedObjectID(entityName: "Book", storeIdentifier: store.identifier, primaryKey: key)
        // Written as a literal: the values' own layout, not the entity's.
        try store.save(StoreSaveRequest(inserted: [ObjectSnapshot(
            objectID: id, attributes: [Self.longName: .integer(7), "title": .string("Persuasion")], toMany: [:])]))

        let context = ManagedObjectContext(coordinator: coordinator)
        let book = try context.existingObject(with: id)
        #expect(try book.value(forKey: "title") as? String == "Persuasion")
        #expect(try book.value(forKey: Self.longName) as? Int64 == 7)
        #expect(try book.value(forKey: "year") == nil)
        try book.setValue(Int16(1817), forKey: "year")
        #expect(Set(book.changedValues().keys) == ["year"])
        try context.save()
        let other = ManagedObjectContext(coordinator: coordinator)   // kept: objects hold their context weakly
        let reread = try other.existingObject(with: id)
        #expect(try reread.value(forKey: "year") as? Int16 == 1817)
        #expect(try reread.value(forKey: "title") as? String == "Persuasion")
    }
}
