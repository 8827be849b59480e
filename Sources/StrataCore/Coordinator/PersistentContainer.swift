import Foundation

/// The one-call stack: a model, a coordinator, its stores, a main-thread view context and
/// background contexts.
///
/// ```swift
/// let container = PersistentContainer(name: "DogWalk", managedObjectModel: model)
/// container.storeDescriptions = [.init(type: .inMemory)]
/// try container.loadPersistentStores()
/// let context = container.viewContext
/// ```
@MainActor
public final class PersistentContainer {
    /// The container's name; the default store file is `<name>.sqlite` in ``defaultDirectoryURL``.
    public nonisolated let name: String
    /// The model.
    public nonisolated let managedObjectModel: ManagedObjectModel
    /// The coordinator all contexts share.
    public nonisolated let persistentStoreCoordinator: PersistentStoreCoordinator
    /// The stores ``loadPersistentStores()`` adds.
    public var storeDescriptions: [ContainerStoreDescription]
    /// The context for the main thread.
    public let viewContext: ManagedObjectContext

    /// Where store files go by default: the `Application Support` folder of the user, or the
    /// temporary folder where there is none.
    public nonisolated static var defaultDirectoryURL: URL {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
    }

    /// Creates a container; its default store is an SQLite file named after the container.
    public init(name: String, managedObjectModel: ManagedObjectModel) {
        self.name = name
        self.managedObjectModel = managedObjectModel
        self.persistentStoreCoordinator = PersistentStoreCoordinator(managedObjectModel: managedObjectModel)
        self.storeDescriptions = [ContainerStoreDescription(
            type: .sqlite, url: Self.defaultDirectoryURL.appendingPathComponent("\(name).sqlite"))]
        self.viewContext = ManagedObjectContext(coordinator: persistentStoreCoordinator, concurrencyType: .mainQueue)
        viewContext.name = "viewContext"
    }

    /// Adds every store of ``storeDescriptions``, creating folders as needed; a store written
    /// with another model version is migrated unless its description turns that off.
    ///
    /// - Throws: the first store's error; stores added before it stay added.
    public func loadPersistentStores() throws {
        for description in storeDescriptions {
            if let folder = description.url?.deletingLastPathComponent() {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            var options = description.options
            options[StoreOption.shouldMigrateStoreAutomatically] = .bool(description.shouldMigrateStoreAutomatically)
            options[StoreOption.shouldInferMappingModelAutomatically] = .bool(description.shouldInferMappingModelAutomatically)
            try persistentStoreCoordinator.addPersistentStore(
                type: description.type, configuration: description.configuration, at: description.url, options: options)
        }
    }

    /// A new context on its own private queue.
    public nonisolated func newBackgroundContext() -> BackgroundContext {
        BackgroundContext(coordinator: persistentStoreCoordinator)
    }

    /// Runs `body` on a new private-queue context.
    public nonisolated func performBackgroundTask<T: Sendable>(
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> T
    ) async throws -> T {
        try await newBackgroundContext().perform(body)
    }

    /// Saves the view context if it has changes (the `saveContext()` of Xcode's template).
    public func saveContext() throws {
        if viewContext.hasChanges { try viewContext.save() }
    }
}

/// A store a ``PersistentContainer`` adds: type, file, configuration, options.
public struct ContainerStoreDescription: Sendable, Hashable {
    /// The store type.
    public var type: StoreType
    /// The file, for types that have one.
    public var url: URL?
    /// The configuration whose entities the store holds.
    public var configuration: String?
    /// Store options by name (for example ``shouldMigrateStoreAutomaticallyOption``).
    public var options: [String: PropertyListValue]

    /// Ask the store to migrate an older store automatically when it opens.
    public static let shouldMigrateStoreAutomaticallyOption = StoreOption.shouldMigrateStoreAutomatically
    /// Ask the store to infer the mapping model for that migration.
    public static let shouldInferMappingModelAutomaticallyOption = StoreOption.shouldInferMappingModelAutomatically

    /// Creates a description.
    public init(type: StoreType, url: URL? = nil, configuration: String? = nil,
                options: [String: PropertyListValue] = [
                    shouldMigrateStoreAutomaticallyOption: .bool(true),
                    shouldInferMappingModelAutomaticallyOption: .bool(true),
                ]) {
        self.type = type
        self.url = url
        self.configuration = configuration
        self.options = options
    }
}
