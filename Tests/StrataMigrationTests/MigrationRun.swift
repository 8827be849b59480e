import Foundation
import Strata
import StrataMigration
import StrataTestSupport
import Testing

/// One pairing of store types a mapping-model migration is tested on: every store type that
/// keeps a file into itself, and two crossings of store families.
struct MigrationRun: Sendable, CustomStringConvertible {
    let source: StoreUnderTest
    let destination: StoreUnderTest

    /// Each file-backed store type into itself, SQLite into binary and XML into SQLite.
    static let all: [MigrationRun] = {
        let files = StoreUnderTest.fileBacked
        let same = files.map { MigrationRun(source: $0, destination: $0) }
        func type(_ type: StoreType) -> StoreUnderTest { files.first { $0.type == type }! }
        return same + [MigrationRun(source: type(.sqlite), destination: type(.binary)),
                       MigrationRun(source: type(.xml), destination: type(.sqlite))]
    }()

    var description: String { source.type == destination.type ? "\(source)" : "\(source) → \(destination)" }

    /// A new source store of `model`, filled by `fill` and saved, then closed.
    func makeSource(model: ManagedObjectModel, _ fill: (ManagedObjectContext) throws -> Void) throws -> URL {
        let url = try source.storeURL(in: TemporaryFolder.make())
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: source.type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try fill(context)
        try context.save()
        try coordinator.remove(store)
        return url
    }

    /// A URL beside `sourceURL` for the destination store, where nothing is.
    func destinationURL(besides sourceURL: URL) -> URL {
        sourceURL.deletingLastPathComponent().appending(path: "migrated-\(UUID().uuidString).\(destination.type.rawValue.lowercased())")
    }

    /// Migrates `sourceURL` with `manager` and `mapping` into a new store; returns its URL.
    func migrate(_ manager: MigrationManager, mapping: MappingModel, from sourceURL: URL) throws -> URL {
        let url = destinationURL(besides: sourceURL)
        try manager.migrateStore(from: sourceURL, type: source.type, mapping: mapping, to: url, type: destination.type)
        return url
    }

    /// A context on the migrated store, opened read-only with `model` (which checks its version hashes).
    func open(_ url: URL, model: ManagedObjectModel) throws -> ManagedObjectContext {
        try Self.open(url, type: destination.type, model: model)
    }

    /// A context on a source store, opened read-only with `model`.
    func openSource(_ url: URL, model: ManagedObjectModel) throws -> ManagedObjectContext {
        try Self.open(url, type: source.type, model: model)
    }

    private static func open(_ url: URL, type: StoreType, model: ManagedObjectModel) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: url, options: [StoreOption.readOnly: .bool(true)])
        return ManagedObjectContext(coordinator: coordinator)
    }
}

/// The bytes of a store's file and of the files beside it (SQLite's log), by suffix.
func storeFileBytes(_ url: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    for suffix in ["", "-wal", "-journal"] {
        if let data = FileManager.default.contents(atPath: url.path + suffix) { files[suffix] = data }
    }
    return files
}

/// The files in `folder` whose names start with `prefix`.
func files(in folder: URL, startingWith prefix: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(prefix) }.sorted()
}

extension ManagedObjectContext {
    /// Every object of `entity`, sorted by `key`.
    func all(_ entity: String, sortedBy key: String) throws -> [ManagedObject] {
        try fetch(FetchRequest(entityName: entity, sortDescriptors: [ObjectSortDescriptor(key: key)]))
    }
}
