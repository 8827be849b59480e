import Foundation
import Strata
import StrataTestSupport
import Testing

/// Derived attributes (Core Data's `derivationExpression`): computed by every store at every
/// save and batch request, with the same values everywhere.
@Suite("Derived attributes")
struct DerivedAttributeTests {
    private static func derived(_ name: String, _ type: AttributeType, _ expression: String) -> PropertyDescription {
        .attribute(AttributeDescription(name: name, type: type, derivationExpression: expression))
    }

    /// Authors with books with tags, and one derived attribute of every kind.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Author") {
                Attribute("name", .string)
                Relationship("books", toMany: "Book", inverse: "author", deleteRule: .nullify)
                derived("bookCount", .integer64, "books.@count")
                derived("totalPages", .integer64, "books.@sum.pages")
                derived("fewestPages", .integer32, "books.@min.pages")
                derived("mostPages", .integer32, "books.pages.@max")
                derived("meanPages", .double, "books.@avg.pages")
                derived("lowerName", .string, "lowercase:(name)")
                derived("upperName", .string, "uppercase:(name)")
                derived("searchName", .string, "canonical:(name)")
                derived("savedAt", .date, "now()")
            }
            EntityDescription("Book") {
                Attribute("title", .string)
                Attribute("pages", .integer32)
                Relationship("author", to: "Author", inverse: "books", deleteRule: .nullify)
                Relationship("tags", toMany: "Tag", inverse: "books", deleteRule: .nullify)
                derived("authorName", .string, "author.name")
                derived("tagCount", .integer16, "tags.@count")
                derived("titleCopy", .string, "title")
            }
            EntityDescription("Tag") {
                Attribute("name", .string)
                Relationship("books", toMany: "Book", inverse: "tags", deleteRule: .nullify)
            }
        }
    }

    private func author(in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Author")).first)
    }

    private func book(_ title: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Book", predicate: ObjectPredicate(format: "title == %@", title))).first)
    }

    /// An author "Émile Zola" with books of 100 and 250 pages, the second with two tags.
    private func saveZola(_ store: StoreUnderTest) throws -> ManagedObjectContext {
        let context = try store.makeContext(model: Self.model())
        let zola = try context.insert("Author", ["name": "Émile Zola"])
        let red = try context.insert("Tag", ["name": "red"])
        let blue = try context.insert("Tag", ["name": "blue"])
        try context.insert("Book", ["title": "Nana", "pages": Int32(100), "author": zola])
        try context.insert("Book", ["title": "Germinal", "pages": Int32(250), "author": zola, "tags": Set([red, blue])])
        try context.save()
        return context
    }

    @Test("Every kind of derivation is computed at save", arguments: StoreUnderTest.all)
    func computedAtSave(store: StoreUnderTest) throws {
        let before = Date()
        let context = try saveZola(store)
        let after = Date()
        for reader in [context, context.freshContext()] {
            let zola = try author(in: reader)
            #expect(try zola.value(forKey: "bookCount") as? Int64 == 2)
            #expect(try zola.value(forKey: "totalPages") as? Int64 == 350)
            #expect(try zola.value(forKey: "fewestPages") as? Int32 == 100)
            #expect(try zola.value(forKey: "mostPages") as? Int32 == 250)
            #expect(try zola.value(forKey: "meanPages") as? Double == 175)
            #expect(try zola.string("lowerName") == "émile zola")
            #expect(try zola.string("upperName") == "ÉMILE ZOLA")
            #expect(try zola.string("searchName") == "emile zola")
            let savedAt = try #require(try zola.value(forKey: "savedAt") as? Date)
            #expect(savedAt >= before.addingTimeInterval(-0.001) && savedAt <= after.addingTimeInterval(0.001))
            let germinal = try book("Germinal", in: reader)
            #expect(try germinal.string("authorName") == "Émile Zola")
            #expect(try germinal.value(forKey: "tagCount") as? Int16 == 2)
            #expect(try germinal.string("titleCopy") == "Germinal")
            #expect(try book("Nana", in: reader).value(forKey: "tagCount") as? Int16 == 0)
        }
    }

    @Test("Saves keep derived values in step: changes, removals, renames through a to-one", arguments: StoreUnderTest.all)
    func keptInStep(store: StoreUnderTest) throws {
        let context = try saveZola(store)
        let zola = try author(in: context)
        let firstSave = try #require(try zola.value(forKey: "savedAt") as? Date)
        try zola.setValue("Zola", forKey: "name")
        try context.delete(book("Nana", in: context))
        try context.save()
        let fresh = context.freshContext()
        let reread = try author(in: fresh)
        #expect(try reread.value(forKey: "bookCount") as? Int64 == 1)
        #expect(try reread.value(forKey: "totalPages") as? Int64 == 250)
        #expect(try reread.value(forKey: "fewestPages") as? Int32 == 250)
        #expect(try reread.value(forKey: "meanPages") as? Double == 250)
        #expect(try reread.string("upperName") == "ZOLA")
        #expect(try #require(try reread.value(forKey: "savedAt") as? Date) >= firstSave)
        // The book was not saved, but its copy of its author's name follows.
        #expect(try book("Germinal", in: fresh).string("authorName") == "Zola")
        #expect(try book("Germinal", in: context).string("authorName") == "Zola")

        // No books: a count and a sum of 0, no minimum, maximum or mean.
        try book("Germinal", in: context).setValue(nil, forKey: "author")
        try context.save()
        let last = context.freshContext()   // held: objects keep their context weakly
        let empty = try author(in: last)
        #expect(try empty.value(forKey: "bookCount") as? Int64 == 0)
        #expect(try empty.value(forKey: "totalPages") as? Int64 == 0)
        #expect(try empty.value(forKey: "mostPages") == nil)
        #expect(try empty.value(forKey: "meanPages") == nil)
        #expect(try book("Germinal", in: last).value(forKey: "authorName") == nil)
    }

    @Test("Batch updates and deletes keep derived values in step", arguments: StoreUnderTest.all)
    func batchRequests(store: StoreUnderTest) throws {
        let context = try saveZola(store)
        _ = try context.execute(BatchUpdateRequest(entityName: "Book", predicate: try ObjectPredicate(format: "title == 'Nana'"),
                                                   propertiesToUpdate: ["pages": Int32(50)]))
        _ = try context.execute(BatchUpdateRequest(entityName: "Author", propertiesToUpdate: ["name": "Zola"]))
        var reader = context.freshContext()
        var zola = try author(in: reader)
        #expect(try zola.value(forKey: "totalPages") as? Int64 == 300)
        #expect(try zola.value(forKey: "fewestPages") as? Int32 == 50)
        #expect(try zola.string("lowerName") == "zola")
        #expect(try book("Nana", in: reader).string("authorName") == "Zola")

        _ = try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Book",
                                                                              predicate: try ObjectPredicate(format: "pages < 100"))))
        reader = context.freshContext()
        zola = try author(in: reader)
        #expect(try zola.value(forKey: "bookCount") as? Int64 == 1)
        #expect(try zola.value(forKey: "meanPages") as? Double == 250)
    }

    @Test("A file store reopened holds the computed values", arguments: StoreUnderTest.fileBacked)
    func reopened(store: StoreUnderTest) throws {
        let (coordinator, _, url, context) = try store.makeFileStore(model: Self.model())
        try context.insert("Author", ["name": "Çelik"])
        try context.save()
        let reopened = PersistentStoreCoordinator(managedObjectModel: coordinator.managedObjectModel)
        _ = try reopened.addPersistentStore(type: store.type, at: url)
        let reader = ManagedObjectContext(coordinator: reopened)
        let author = try author(in: reader)
        #expect(try author.string("searchName") == "celik")
        #expect(try author.value(forKey: "bookCount") as? Int64 == 0)
    }

    @Test("A derivation Strata cannot compute is refused when the model is built, naming the attribute",
          arguments: ["median:(name)", "books.title", "books.@count.pages", "name.@count", "lowercase:(nickname)"])
    func refused(expression: String) throws {
        let error = try #require(throws: ModelError.self) {
            try ManagedObjectModel {
                EntityDescription("Author") {
                    Attribute("name", .string)
                    Relationship("books", toMany: "Book", inverse: "author", deleteRule: .nullify)
                    Self.derived("odd", .string, expression)
                }
                EntityDescription("Book") {
                    Attribute("title", .string)
                    Relationship("author", to: "Author", inverse: "books", deleteRule: .nullify)
                }
            }
        }
        guard case let .unsupportedDerivation(entity, attribute, text, _) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(entity == "Author" && attribute == "odd" && text == expression)
        #expect(error.description.contains("'odd'"))
    }

    @Test("A derivation whose result does not fit the attribute's type is refused")
    func wrongType() throws {
        #expect(throws: ModelError.self) {
            try ManagedObjectModel {
                EntityDescription("Author") {
                    Attribute("name", .string)
                    Self.derived("stamp", .string, "now()")
                }
            }
        }
    }
}
