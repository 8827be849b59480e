import Foundation

/// The one object in front of every store: it routes each entity to the store whose
/// configuration holds it, turns object URIs back into IDs, and is the only thing a context
/// talks to.
///
/// A coordinator is `Sendable` and thread-safe; contexts on any queue share one.
public final class PersistentStoreCoordinator: Sendable {
    /// The model every store of this coordinator uses.
    public let managedObjectModel: ManagedObjectModel
    private let stores = LockedValue<[any PersistentStore]>([])
    let objectClasses = ObjectClassTable()
    /// How stores written with another model version are brought to this one.
    let planner = LockedValue(MigrationPlanner())
    /// The rows shared by the coordinator's contexts.
    let rowCache: RowCache
    /// The root contexts that merge this coordinator's saves automatically.
    let saveAnnouncer = SaveAnnouncer()

    /// How many rows the coordinator keeps for its contexts by default.
    public static let defaultRowCacheCapacity = 10_000

    /// Creates a coordinator for `model` with no stores, keeping up to
    /// ``defaultRowCacheCapacity`` rows for its contexts.
    public init(managedObjectModel model: ManagedObjectModel) {
        self.managedObjectModel = model
        self.rowCache = RowCache(capacity: Self.defaultRowCacheCapacity)
    }

    /// Creates a coordinator for `model` with no stores.
    ///
    /// - Parameters:
    ///   - model: the model of every store the coordinator adds.
    ///   - rowCacheCapacity: the most rows the coordinator keeps, so that a fault one context
    ///     fired fires in another without asking the store; 0 turns the cache off.
    public init(managedObjectModel model: ManagedObjectModel, rowCacheCapacity: Int) {
        self.managedObjectModel = model
        self.rowCache = RowCache(capacity: rowCacheCapacity)
    }

    /// How many rows the coordinator's row cache holds now.
    public var cachedRowCount: Int { rowCache.count }

    /// The loaded stores, in the order they were added.
    public var persistentStores: [any PersistentStore] { stores.withLock { $0 } }

    /// Opens (or creates) a store of `type` and adds it.
    ///
    /// - Parameters:
    ///   - type: the store type, looked up in the ``StoreType`` registry.
    ///   - configuration: the model configuration whose entities the store holds (nil: all).
    ///   - url: the store's file, for store types that have one.
    ///   - options: store options by name.
    /// A store file written with another version of the model is migrated first when `options`
    /// set ``StoreOption/shouldMigrateStoreAutomatically`` (see ``migrationPlanner``), refused with
    /// ``MigrationError/incompatibleStore(_:)`` when they set it to false, and refused by the
    /// store (``StoreError/incompatibleModel(file:entities:)``) when they do not mention it.
    ///
    /// - Throws: ``StoreError`` when the type is unknown, the configuration is not in the model,
    ///   the same store is loaded already, the file is of another store type
    ///   (``StoreError/storeTypeMismatch(file:expected:found:)``, and no store is added), or the
    ///   store cannot be opened; ``MigrationError`` when
    ///   the store needs a migration that is off or cannot be made.
    @discardableResult
    public func addPersistentStore(
        type: StoreType, configuration: String? = nil, at url: URL? = nil,
        options: [String: PropertyListValue] = [:]
    ) throws -> any PersistentStore {
        if let configuration, configuration != ManagedObjectModel.defaultConfigurationName,
           managedObjectModel.configurations[configuration] == nil {
            throw StoreError.unknownConfiguration(configuration)
        }
        if let url, persistentStore(for: url) != nil { throw StoreError.storeAlreadyLoaded(url.path) }
        if let url { try checkFileType(type, at: url) }
        if let url { try migrateIfNeeded(type: type, at: url, options: options) }
        let description = StoreDescription(type: type, url: url, configurationName: configuration,
                                           model: managedObjectModel, options: options)
        let store = try type.makeStore(description)
        try addPersistentStore(store)
        monitorRemoteChanges(of: store, description)
        return store
    }

    /// Refuses a file of one built-in type (told by ``StoreType/detect(at:)``) opened as another
    /// built-in type, before anything reads or writes it. Store types of one's own, files with no
    /// known content and files not yet there are left to the store.
    private func checkFileType(_ type: StoreType, at url: URL) throws {
        let fileTypes: Set<StoreType> = [.sqlite, .xml, .binary]
        guard fileTypes.contains(type), FileManager.default.fileExists(atPath: url.path),
              let found = try StoreType.detect(at: url), found != type else { return }
        throw StoreError.storeTypeMismatch(file: url.path, expected: type.rawValue, found: found.rawValue)
    }

    /// Adds a store made elsewhere (for example, one of a type of your own).
    public func addPersistentStore(_ store: any PersistentStore) throws {
        try stores.withLock { stores in
            guard !stores.contains(where: { $0.identifier == store.identifier }) else {
                throw StoreError.storeAlreadyLoaded(store.identifier)
            }
            stores.append(store)
        }
    }

    /// Removes a store; its objects can no longer be fetched or saved through this coordinator.
    public func remove(_ store: any PersistentStore) throws {
        try stores.withLock { stores in
            guard let index = stores.firstIndex(where: { $0 === store }) else {
                throw StoreError.storeNotLoaded(store.identifier)
            }
            stores.remove(at: index)
        }
        rowCache.removeAll()
    }

    /// The loaded store with the UUID `identifier`.
    public func persistentStore(withIdentifier identifier: String) -> (any PersistentStore)? {
        stores.withLock { $0.first { $0.identifier == identifier } }
    }

    /// The loaded store whose file is `url`.
    public func persistentStore(for url: URL) -> (any PersistentStore)? {
        let path = url.standardizedFileURL.path
        return stores.withLock { $0.first { $0.url?.standardizedFileURL.path == path } }
    }

    /// The store of an object ID (nil for a temporary ID or a store not loaded here).
    public func persistentStore(of objectID: ManagedObjectID) -> (any PersistentStore)? {
        objectID.storeIdentifier.flatMap(persistentStore(withIdentifier:))
    }

    /// The ID an object URI stands for, if one of this coordinator's stores has that UUID and
    /// the model has that entity; nil for a foreign store, an unknown entity or a malformed URI.
    ///
    /// The row itself is not looked up: use ``ManagedObjectContext/existingObject(with:)``.
    public func managedObjectID(forURIRepresentation uri: URL) -> ManagedObjectID? {
        guard let id = ManagedObjectID(parsing: uri), !id.isTemporaryID,
              let store = persistentStore(of: id),
              let entity = managedObjectModel.entitiesByName[id.entityName], !entity.isAbstract,
              storeCanHold(store, entity: id.entityName) else { return nil }
        return id
    }

    /// The metadata of a loaded store.
    public func metadata(for store: any PersistentStore) -> [String: PropertyListValue] { store.metadata }

    /// Replaces a loaded store's program-defined metadata; written with the next save.
    public func setMetadata(_ metadata: [String: PropertyListValue], for store: any PersistentStore) throws {
        try store.setMetadata(metadata)
    }

    // MARK: Routing

    /// Whether `store`'s configuration holds `entity`.
    func storeCanHold(_ store: any PersistentStore, entity: String) -> Bool {
        managedObjectModel.entityNames(forConfiguration: store.configurationName).contains(entity)
    }

    /// Every loaded store that can hold `entity`, in the order added.
    public func stores(forEntity entity: String) -> [any PersistentStore] {
        stores.withLock { $0 }.filter { storeCanHold($0, entity: entity) }
    }

    /// The store a new object of `entity` goes to: the first one whose configuration holds it.
    ///
    /// - Throws: ``StoreError/noStoreForEntity(_:)``.
    public func assignedStore(forNewObjectOf entity: String) throws -> any PersistentStore {
        guard let store = stores(forEntity: entity).first else { throw StoreError.noStoreForEntity(entity) }
        return store
    }
}
