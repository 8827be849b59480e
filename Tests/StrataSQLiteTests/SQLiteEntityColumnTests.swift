import Foundation
import Strata
import StrataTestSupport
import Testing

/// A to-one whose destination entity has sub-entities keeps, beside its foreign key, the
/// destination row's entity code in `Z<code>_<RELATIONSHIP>`, as Core Data does.
@Suite("SQLite store: destination entity columns")
struct SQLiteEntityColumnTests {
    /// Book (code 1) → GraphicNovel (2); Page (3) belongs to a book; Shelf (4) holds books.
    func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Book") {
                Attribute("title", .string)
                Relationship("pages", toMany: "Page", inverse: "book")
                Relationship("shelf", to: "Shelf", inverse: "books")
            }
            EntityDescription("GraphicNovel", parent: "Book") {
                Attribute("isColour", .boolean)
            }
            EntityDescription("Page") {
                Attribute("number", .integer32)
                Relationship("book", to: "Book", inverse: "pages")
            }
            EntityDescription("Shelf") {
                Relationship("books", toMany: "Book", inverse: "shelf")
            }
        }
    }

    private func rows(_ file: URL) throws -> [String] {
        try SQLiteShell.rows(file, "SELECT ZNUMBER || ':' || ifnull(ZBOOK, '-') || ':' || ifnull(Z1_BOOK, '-') FROM ZPAGE ORDER BY ZNUMBER")
    }

    @Test("the column is created after the foreign key and follows inserts, changes, to-many edits and deletes")
    func keptInStep() throws {
        let file = try TemporaryFolder.make().appendingPathComponent("books.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        try coordinator.addPersistentStore(type: .sqlite, at: file)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try SQLiteShell.rows(file, "SELECT name FROM pragma_table_info('ZPAGE')") == ["Z_PK", "Z_ENT", "Z_OPT", "ZNUMBER", "ZBOOK", "Z1_BOOK"])
        // Shelf's destination, Book, has a sub-entity too; Book's own to-one to Shelf has none.
        #expect(try SQLiteShell.rows(file, "SELECT name FROM pragma_table_info('ZBOOK')").contains("ZSHELF"))
        #expect(try !SQLiteShell.rows(file, "SELECT name FROM pragma_table_info('ZBOOK')").contains { $0.hasSuffix("_SHELF") })

        let book = try context.insertNewObject(forEntityName: "Book")
        let novel = try context.insertNewObject(forEntityName: "GraphicNovel")
        var pages: [ManagedObject] = []
        for number in 1...3 {
            let page = try context.insertNewObject(forEntityName: "Page")
            try page.setValue(Int32(number), forKey: "number")
            pages.append(page)
        }
        try pages[0].setValue(book, forKey: "book")
        try novel.add(pages[1], to: "pages")          // written from the to-many side
        try context.save()
        #expect(try rows(file) == ["1:1:1", "2:2:2", "3:-:-"])

        try pages[0].setValue(novel, forKey: "book")
        try book.add(pages[2], to: "pages")
        try context.save()
        #expect(try rows(file) == ["1:2:2", "2:2:2", "3:1:1"])

        try context.delete(novel)                      // nullifies pages 1 and 2
        try context.save()
        #expect(try rows(file) == ["1:-:-", "2:-:-", "3:1:1"])

        _ = try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Book")))
        #expect(try rows(file) == ["1:-:-", "2:-:-", "3:-:-"])
    }

    @Test("a store made before the column existed opens and saves without it")
    func storeWithoutTheColumn() throws {
        let file = try TemporaryFolder.make().appendingPathComponent("older.sqlite")
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
            try coordinator.addPersistentStore(type: .sqlite, at: file)
        }
        _ = try SQLiteShell.rows(file, "ALTER TABLE ZPAGE DROP COLUMN Z1_BOOK")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        try coordinator.addPersistentStore(type: .sqlite, at: file)
        let context = ManagedObjectContext(coordinator: coordinator)
        let page = try context.insertNewObject(forEntityName: "Page")
        try page.setValue(try context.insertNewObject(forEntityName: "GraphicNovel"), forKey: "book")
        try context.save()
        #expect(try SQLiteShell.rows(file, "SELECT ZBOOK FROM ZPAGE") == ["1"])
    }
}
