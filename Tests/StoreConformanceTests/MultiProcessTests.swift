import Foundation
import Strata
import StrataTestSupport
import Testing

/// Several processes writing one SQLite store at once lose nothing. (The atomic file stores write
/// their whole file per save and are for one writing process; see docs/formats/.)
@Suite("Several processes on one store")
struct MultiProcessTests {
    @Test("three processes each saving 40 objects one save at a time: all 120 land, with distinct keys")
    func concurrentWriters() throws {
        let executable = try #require(CrashSafetyTests.saveLoopExecutable(), "StoreSaveLoop is not built next to the test binary")
        let url = try TemporaryFolder.make().appendingPathComponent("shared.sqlite")
        // Create the store first, so the writers race on rows, not on creating the schema.
        let model = try ManagedObjectModel {
            EntityDescription("Item") { Attribute("index", .integer64) }
            EntityDescription("Counter") { Attribute("value", .integer64) }
        }
        StoreType.registerBuiltInTypes()
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(type: .sqlite, at: url)
        }
        let writers = try (0..<3).map { _ in
            let process = Process()
            process.executableURL = executable
            process.arguments = ["SQLite", url.path, "--items", "40"]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            return (process, errors)
        }
        for (process, errors) in writers {
            process.waitUntilExit()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0, "a writer failed: \(message)")
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let items = try context.fetch(FetchRequest(entityName: "Item"))
        #expect(items.count == 120)
        #expect(Set(items.compactMap(\.objectID.primaryKey)) == Set(1...120))
        let indexes = try items.map { try $0.value(forKey: "index") as? Int64 ?? 0 }
        for index in Int64(1)...40 {
            #expect(indexes.filter { $0 == index }.count == 3, "item \(index) once per writer")
        }
    }
}
