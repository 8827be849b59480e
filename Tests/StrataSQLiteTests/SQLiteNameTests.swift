import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// Entity, property and index names become table, column and index names: a model read from a
/// file is input from outside, and a name that would carry SQL is refused before any is run.
@Suite("SQLite store: names from the model")
struct SQLiteNameTests {
    static func model(entity: String = "Note", attribute: String = "title") throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription(entity) {
                Attribute(attribute, .string)
            }
        }
    }

    @Test("A name that would carry SQL is an unusableName error, and the file gets no table",
          arguments: [("Note (a); DROP TABLE Z_METADATA; CREATE TABLE X", "title"),
                      ("Note", "title TEXT); DROP TABLE ZNOTE; --"),
                      ("Note", "ti\"tle"), ("Note", "9lives"), ("No te", "title")])
    func hostileNames(entity: String, attribute: String) throws {
        let model = try Self.model(entity: entity, attribute: attribute)
        let url = try TemporaryFolder.make().appendingPathComponent("store.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let error = try #require(throws: StoreError.self) { try coordinator.addPersistentStore(type: .sqlite, at: url) }
        guard case let .unusableName(file, name) = error else {
            Issue.record("expected unusableName, got \(error)")
            return
        }
        #expect(file == url.path)
        #expect(name == (entity == "Note" ? attribute : entity))
        if FileManager.default.fileExists(atPath: url.path) {
            #expect(try SQLiteShell.rows(url, "SELECT count(*) FROM sqlite_master") == ["0"])
        }
    }

    @Test("Names of letters in any script, digits and underscores open a store that saves and fetches")
    func usableNames() throws {
        let model = try Self.model(entity: "Città_2", attribute: "_titolo9")
        let url = try TemporaryFolder.make().appendingPathComponent("store.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertNewObject(forEntityName: "Città_2").setValue("uno", forKey: "_titolo9")
        try context.save()
        let reader = ManagedObjectContext(coordinator: coordinator)
        let fetched = try reader.fetch(FetchRequest(entityName: "Città_2"))
        #expect(try fetched.map { try $0.value(forKey: "_titolo9") as? String } == ["uno"])
    }
}
