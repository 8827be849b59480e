import Foundation
import Strata
import StrataTestSupport
import Testing

/// A save of many new objects writes every one of them whole, on every store: each object's own
/// values and relationships, however the store groups the rows it writes.
@Suite("Saves of many objects")
struct LargeSaveTests {
    private func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Author") {
                Attribute("name", .string)
                Attribute("born", .date)
                Relationship("books", toMany: "Book", inverse: "author", deleteRule: .nullify)
            }
            EntityDescription("Book") {
                Attribute("title", .string)
                Attribute("pages", .integer32)
                Attribute("price", .double)
                Attribute("cover", .binaryData)
                Relationship("author", to: "Author", inverse: "books", deleteRule: .nullify)
            }
        }
    }

    /// What book `index` holds: values that differ from one book to the next, some absent.
    private static func book(_ index: Int) -> (title: String, pages: Int32?, price: Double, cover: Data?) {
        let title = index.isMultiple(of: 7) ? "é\u{0}\(index) 😀" : "Book \(index)"
        let pages: Int32? = index.isMultiple(of: 5) ? nil : Int32(100 + index)
        let cover: Data? = index.isMultiple(of: 3) ? nil : (index.isMultiple(of: 4) ? Data() : Data((0..<(index % 40)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }))
        return (title, pages, Double(index) / 4, cover)
    }

    @Test("runs of new objects of two entities, long and short, come back with every value and to-one", arguments: StoreUnderTest.all)
    func manyNewObjects(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        // Runs of books between authors: shorter than a group of rows, exactly as long as some,
        // and longer than several.
        var index = 0
        var authorOfBook: [Int: Int] = [:]
        for (author, run) in [1, 31, 32, 33, 0, 64, 65, 2, 100].enumerated() {
            let writer = try context.insert("Author", ["name": "Author \(author)", "born": author.isMultiple(of: 2) ? nil : Date(timeIntervalSinceReferenceDate: Double(author) * 1e6)])
            for _ in 0..<run {
                let values = Self.book(index)
                let book = try context.insert("Book", ["title": values.title, "pages": values.pages, "price": values.price, "cover": values.cover])
                if !index.isMultiple(of: 11) {
                    try book.setValue(writer, forKey: "author")
                    authorOfBook[index] = author
                }
                index += 1
            }
        }
        try context.save()

        let fresh = context.freshContext()
        let books = try fresh.fetch(FetchRequest(entityName: "Book", sortDescriptors: [ObjectSortDescriptor(key: "price")]))
        #expect(books.count == index)
        for (position, book) in books.enumerated() {
            let expected = Self.book(position)
            let author = try book.value(forKey: "author", as: ManagedObject.self)
            let matches = try book.value(forKey: "title", as: String.self) == expected.title
                && book.value(forKey: "pages", as: Int32.self) == expected.pages
                && book.value(forKey: "price", as: Double.self) == expected.price
                && book.value(forKey: "cover", as: Data.self) == expected.cover
                && author?.value(forKey: "name", as: String.self) == authorOfBook[position].map { "Author \($0)" }
            #expect(matches, "book \(position)")
            if !matches { break }
        }
        let authors = try fresh.fetch(FetchRequest(entityName: "Author", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        #expect(try authors.map { try $0.value(forKey: "born", as: Date.self) == nil } == (0..<9).map { $0.isMultiple(of: 2) })
        #expect(try authors.map { try $0.objects("books").count } == [1, 31, 32, 33, 0, 64, 65, 2, 100].enumerated().map { author, run in
            authorOfBook.values.filter { $0 == author }.count
        })
    }

    @Test("new objects of two entities made by turns come back with every value and to-one", arguments: StoreUnderTest.all)
    func objectsMadeByTurns(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        // Each book made with its own author: a store grouping rows by entity groups both.
        for index in 0..<75 {
            let writer = try context.insert("Author", ["name": String(format: "Author %03d", index)])
            let values = Self.book(index)
            let book = try context.insert("Book", ["title": values.title, "pages": values.pages, "price": values.price, "cover": values.cover])
            try book.setValue(writer, forKey: "author")
        }
        try context.save()

        let fresh = context.freshContext()
        let books = try fresh.fetch(FetchRequest(entityName: "Book", sortDescriptors: [ObjectSortDescriptor(key: "price")]))
        #expect(books.count == 75)
        for (position, book) in books.enumerated() {
            let expected = Self.book(position)
            let matches = try book.value(forKey: "title", as: String.self) == expected.title
                && book.value(forKey: "pages", as: Int32.self) == expected.pages
                && book.value(forKey: "cover", as: Data.self) == expected.cover
                && book.value(forKey: "author", as: ManagedObject.self)?.value(forKey: "name", as: String.self)
                    == String(format: "Author %03d", position)
            #expect(matches, "book \(position)")
            if !matches { break }
        }
    }

    @Test("each new object of a save is known after it by the ID it carries, in the didSave notification and the context",
          arguments: StoreUnderTest.all)
    func savedIDsOfNewObjects(_ store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: model())
        let context = ManagedObjectContext(coordinator: coordinator)
        var objects: [ManagedObject] = []
        for index in 0..<120 {
            objects.append(try context.insert(index.isMultiple(of: 3) ? "Author" : "Book",
                                              index.isMultiple(of: 3) ? ["name": "Author \(index)"] : ["title": "Book \(index)"]))
        }
        let temporary = objects.map(\.objectID)
        let recorder = NotificationRecorder(context)
        try context.save()

        let saved = objects.map(\.objectID)
        #expect(saved.allSatisfy { !$0.isTemporaryID })
        #expect(Set(saved).count == objects.count)
        #expect(recorder.notifications.last?.changes == ContextChanges(inserted: Set(saved)))
        #expect(zip(saved, objects).allSatisfy { context.registeredObject(for: $0) === $1 })
        #expect(temporary.allSatisfy { context.registeredObject(for: $0) == nil })
        #expect(try objects.map { try context.existingObject(with: $0.objectID) }.elementsEqual(objects, by: ===))
    }
}
