import Foundation
@_spi(StoreImplementation) import ExampleStore
import Strata
@_spi(StoreImplementation) import StrataCore

/// A store type the conformance suite runs every behavioural test against.
///
/// Every store type that joins the product is added to ``all``; no test needs to change.
public struct StoreUnderTest: Sendable, CustomStringConvertible {
    /// The store type.
    public let type: StoreType
    /// Whether the store keeps a file (so that a second coordinator can open it).
    public let hasFile: Bool
    /// Whether every save writes the whole file anew (temporary file, fsync, rename): the atomic
    /// file stores. The SQLite store changes its file in place, in transactions.
    public var writesWholeFile: Bool { hasFile && type != .sqlite }
    /// Whether the store checks its own integrity (`IntegrityCheckingStore`, a capability the
    /// built-in stores declare and the example store, on the core protocol alone, does not).
    public var checksIntegrity: Bool { type != ExampleStore.storeType }
    /// Files the store keeps beside its own (SQLite's write-ahead log and shared memory).
    public var sidecarSuffixes: [String] { type == .sqlite ? ["-wal", "-shm", "-journal"] : [] }

    /// Every store type, in the order tests report them: the four built-in ones and
    /// `ExampleStore` (the core protocol alone, no capabilities, no file), registered here.
    public static let all: [StoreUnderTest] = {
        ExampleStore.register()
        return [
            StoreUnderTest(type: .inMemory, hasFile: false),
            StoreUnderTest(type: .xml, hasFile: true),
            StoreUnderTest(type: .binary, hasFile: true),
            StoreUnderTest(type: .sqlite, hasFile: true),
            StoreUnderTest(type: ExampleStore.storeType, hasFile: false),
        ]
    }()

    /// The store types that keep a file.
    public static var fileBacked: [StoreUnderTest] { all.filter(\.hasFile) }

    /// The store types that write their whole file on every save.
    public static var wholeFileWriters: [StoreUnderTest] { all.filter(\.writesWholeFile) }

    /// The type's name.
    public var description: String { type.rawValue }

    /// A coordinator for `model` with one fresh store of this type (in a new temporary folder
    /// for a file-backed type).
    public func makeCoordinator(
        model: ManagedObjectModel, configuration: String? = nil, folder: URL? = nil
    ) throws -> (PersistentStoreCoordinator, any PersistentStore) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(
            type: type, configuration: configuration, at: hasFile ? try storeURL(in: folder) : nil)
        return (coordinator, store)
    }

    /// A context on a fresh store of this type.
    public func makeContext(model: ManagedObjectModel) throws -> ManagedObjectContext {
        ManagedObjectContext(coordinator: try makeCoordinator(model: model).0)
    }

    /// A fresh store of this type that keeps a file: its coordinator, the store, the file and a
    /// context on it. Throws for a type without a file.
    public func makeFileStore(
        model: ManagedObjectModel
    ) throws -> (coordinator: PersistentStoreCoordinator, store: any PersistentStore, url: URL, context: ManagedObjectContext) {
        let (coordinator, store) = try makeCoordinator(model: model)
        guard let url = store.url else { throw CocoaError(.fileNoSuchFile) }
        return (coordinator, store, url, ManagedObjectContext(coordinator: coordinator))
    }

    /// A new file URL for a store of this type.
    public func storeURL(in folder: URL? = nil) throws -> URL {
        let directory = try folder ?? TemporaryFolder.make()
        return directory.appendingPathComponent("store-\(UUID().uuidString).\(type.rawValue.lowercased())")
    }
}

/// Temporary folders for store files, one per test, all inside one folder per test process that
/// is removed when the process exits.
public enum TemporaryFolder {
    /// This process's folder under the system's temporary folder.
    private static let root: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-tests-\(UUID().uuidString)", isDirectory: true)
        atexit { try? FileManager.default.removeItem(at: TemporaryFolder.root) }
        return url
    }()

    /// A new, empty folder inside this process's folder.
    public static func make() throws -> URL {
        let url = root.appendingPathComponent(UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `body` with a new, empty folder, removed when `body` returns or throws.
    public static func with<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = try make()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }
}
