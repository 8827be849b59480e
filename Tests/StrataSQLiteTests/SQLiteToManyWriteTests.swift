import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// A to-many whose inverse is a to-one is stored in the destinations' foreign keys. A save
/// writes a foreign key from the to-many side unless the destination's own row, written whole
/// by the same save, already holds it.
@Suite("SQLite store: to-manys written as foreign keys")
struct SQLiteToManyWriteTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Author") {
                Attribute("name", .string)
                Relationship("books", toMany: "Book", inverse: "author")
                Relationship("tags", toMany: "Tag", inverse: "author")
            }
            EntityDescription("Book") {
                Attribute("title", .string)
                Relationship("author", to: "Author", inverse: "books")
            }
            EntityDescription("Tag") {
                Attribute("label", .string)
                Relationship("author", to: "Author", inverse: "tags")
            }
        }
    }

    @Test("destinations outside the save, or known only by a row of another table with their key, get the foreign key")
    func foreignKeysFromTheToManySide() throws {
        let sqlite = try #require(StoreUnderTest.all.first { $0.type == .sqlite })
        let (_, store) = try sqlite.makeCoordinator(model: Self.model())
        let file = try #require(store.url)
        func id(_ entity: String, _ key: Int64) -> ManagedObjectID {
            ManagedObjectID(entityName: entity, storeIdentifier: store.identifier, primaryKey: key)
        }
        _ = try store.allocatePrimaryKeys(rootEntity: "Author", count: 1)
        _ = try store.allocatePrimaryKeys(rootEntity: "Book", count: 3)
        _ = try store.allocatePrimaryKeys(rootEntity: "Tag", count: 2)
        // Book 3 exists already, without an author.
        try store.save(StoreSaveRequest(inserted: [ObjectSnapshot(objectID: id("Book", 3), attributes: ["title": .string("Emma")])]))

        // Book 1's row carries its author; book 2's does not, and tag 2 (another table, the same
        // key) names the author in its own row; book 3 is not in the save at all.
        try store.save(StoreSaveRequest(inserted: [
            ObjectSnapshot(objectID: id("Author", 1), attributes: ["name": .string("Austen")],
                           toMany: ["books": [id("Book", 1), id("Book", 2), id("Book", 3)], "tags": [id("Tag", 2)]]),
            ObjectSnapshot(objectID: id("Book", 1), attributes: ["title": .string("Persuasion")], toOne: ["author": id("Author", 1)]),
            ObjectSnapshot(objectID: id("Book", 2), attributes: ["title": .string("Sanditon")]),
            ObjectSnapshot(objectID: id("Tag", 2), attributes: ["label": .string("novel")], toOne: ["author": id("Author", 1)]),
        ]))
        #expect(try SQLiteShell.rows(file, "SELECT Z_PK || ':' || ifnull(ZAUTHOR, '-') FROM ZBOOK ORDER BY Z_PK") == ["1:1", "2:1", "3:1"])
        #expect(try SQLiteShell.rows(file, "SELECT Z_PK || ':' || ifnull(ZAUTHOR, '-') FROM ZTAG ORDER BY Z_PK") == ["2:1"])
    }
}
