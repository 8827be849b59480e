import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// The store types that ship with Strata work after `import Strata` with no registration call:
/// by value, by name, told from a file's content, as a container's default, and with the
/// compiled model written beside the data. Nothing in the test process or in `StoreSaveLoop`
/// registers a store type.
@Suite("Built-in store types need no registration")
struct BuiltInStoreTypeTests {
    @Test("every built-in type is registered by name and found ignoring case")
    func registeredByName() throws {
        #expect(Set([StoreType.inMemory, .sqlite, .xml, .binary]).isSubset(of: Set(StoreType.registeredTypes)))
        for name in ["sqlite", "XML", "binary", "inmemory"] {
            let type = try #require(StoreType.named(name), "\(name) is not registered")
            #expect(type.rawValue.caseInsensitiveCompare(name) == .orderedSame)
        }
        #expect(StoreType.named("NoSuchStore") == nil)
        #expect(CompiledModelCoder.installed != nil)
    }

    @Test("a type made from its name at run time opens a store", arguments: StoreUnderTest.all)
    func byRawValue(_ store: StoreUnderTest) throws {
        let type = StoreType(rawValue: store.type.rawValue)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try CrashSafetyTests.model())
        let added = try coordinator.addPersistentStore(type: type, at: store.hasFile ? try store.storeURL() : nil)
        #expect(added.type == store.type)
    }

    @MainActor
    @Test("a container's default store (SQLite) loads and saves")
    func containerDefault() throws {
        let container = PersistentContainer(name: "Defaults", managedObjectModel: try CrashSafetyTests.model())
        #expect(container.storeDescriptions.map(\.type) == [.sqlite])
        let url = try TemporaryFolder.make().appendingPathComponent("Defaults.sqlite")
        container.storeDescriptions[0].url = url
        try container.loadPersistentStores()
        try container.viewContext.insertNewObject(forEntityName: "Item").setValue(Int64(1), forKey: "index")
        try container.saveContext()
        #expect(try StoreType.detect(at: url) == .sqlite)
    }

    @Test("a fresh process opens each file store by name and writes its compiled model; the file is told from its content",
          arguments: StoreUnderTest.fileBacked)
    func freshProcess(_ store: StoreUnderTest) throws {
        let executable = try #require(CrashSafetyTests.saveLoopExecutable(), "StoreSaveLoop is not built next to the test binary")
        let url = try store.storeURL()
        let process = Process()
        process.executableURL = executable
        process.arguments = [store.type.rawValue.lowercased(), url.path, "--items", "3"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "StoreSaveLoop failed: \(message)")

        #expect(try StoreType.detect(at: url) == store.type)
        #expect(try CompiledModelStoreTests.keptModel(store, at: url) == CrashSafetyTests.model())
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try CrashSafetyTests.model())
        try coordinator.addPersistentStore(type: store.type, at: url)
        #expect(try ManagedObjectContext(coordinator: coordinator).count(for: FetchRequest(entityName: "Item")) == 3)
    }
}
