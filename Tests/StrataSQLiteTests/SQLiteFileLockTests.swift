import Foundation
import Strata
import StrataTestSupport
import Testing

/// SQLite keeps its file locks as POSIX locks, which belong to the process: closing any
/// descriptor of the database file drops every lock the process holds on it. Opening a store on
/// a file this process already has open must not do so, or another process takes the file for
/// its own (checkpoints and removes the write-ahead log) while this one still writes into it.
@Suite("SQLite store: file locks while the file is open twice")
struct SQLiteFileLockTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Note") { Attribute("text", .string) }
        }
    }

    /// A context on a new store file at `url` that saved one note, "one".
    static func contextWithOneNote(at url: URL, model: ManagedObjectModel) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertNewObject(forEntityName: "Note").setValue("one", forKey: "text")
        try context.save()
        return context
    }

    @Test("saves of a first coordinator stay visible after a second opens the file and another process reads it")
    func savesSurviveSecondOpen() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("notes.sqlite")
        let model = try Self.model()
        let context = try Self.contextWithOneNote(at: url, model: model)

        let second = PersistentStoreCoordinator(managedObjectModel: model)
        try second.addPersistentStore(type: .sqlite, at: url)
        // Another process reads and closes the file.
        #expect(try SQLiteShell.rows(url, "SELECT count(*) FROM ZNOTE") == ["1"])

        try context.insertNewObject(forEntityName: "Note").setValue("two", forKey: "text")
        try context.save()
        #expect(try SQLiteShell.rows(url, "SELECT ZTEXT FROM ZNOTE ORDER BY Z_PK") == ["one", "two"])
        let third = PersistentStoreCoordinator(managedObjectModel: model)
        try third.addPersistentStore(type: .sqlite, at: url)
        #expect(try ManagedObjectContext(coordinator: third).count(for: FetchRequest(entityName: "Note")) == 2)
        withExtendedLifetime(second) {}
    }

    @Test("the file opened as another store type while held is refused as an SQLite file, and its saves stay visible")
    func heldFileOpenedAsAnotherType() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("held.sqlite")
        let model = try Self.model()
        let context = try Self.contextWithOneNote(at: url, model: model)

        for type in [StoreType.xml, .binary] {
            let error = try #require(throws: StoreError.self) {
                try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: type, at: url)
            }
            guard case .storeTypeMismatch(_, let expected, let found) = error else {
                Issue.record("expected a store type mismatch, got \(error)")
                continue
            }
            #expect(expected == type.rawValue && found == StoreType.sqlite.rawValue)
        }
        #expect(try SQLiteShell.rows(url, "SELECT count(*) FROM ZNOTE") == ["1"])
        try context.insertNewObject(forEntityName: "Note").setValue("two", forKey: "text")
        try context.save()
        #expect(try SQLiteShell.rows(url, "SELECT ZTEXT FROM ZNOTE ORDER BY Z_PK") == ["one", "two"])
    }
}
