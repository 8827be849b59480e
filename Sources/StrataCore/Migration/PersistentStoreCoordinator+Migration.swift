import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension PersistentStoreCoordinator {
    /// How a store written with another version of the model is brought to this coordinator's
    /// model when it is added with ``StoreOption/shouldMigrateStoreAutomatically``: the known
    /// versions (oldest first), the mapping providers, whether steps are inferred (also turned
    /// off by ``StoreOption/shouldInferMappingModelAutomatically`` set to false), and custom
    /// stages. With no versions known, a store that keeps its own model (every store Strata
    /// writes does) migrates by one step. The store options add to it: the versions of
    /// ``StoreOption/modelBundleURL`` when the planner knows none, and the mapping models of
    /// ``StoreOption/mappingModelURLs`` after the planner's own providers.
    public var migrationPlanner: MigrationPlanner {
        get { planner.withLock { $0 } }
        set { planner.withLock { $0 = newValue } }
    }

    /// Migrates the store at `url`, when it was written with another model version and `options`
    /// ask for it; refuses it with a ``MigrationError`` when they turn migration off. Options that
    /// do not mention ``StoreOption/shouldMigrateStoreAutomatically`` leave the check to the store
    /// (``StoreError/incompatibleModel(file:entities:)``), as before migration existed.
    func migrateIfNeeded(type: StoreType, at url: URL, options: [String: PropertyListValue]) throws {
        guard options[StoreOption.shouldMigrateStoreAutomatically] != nil,
              options[StoreOption.ignoresVersionHashes] != .bool(true), FileManager.default.fileExists(atPath: url.path),
              let metadata = try? type.readMetadata(at: url),
              metadata[StoreMetadataKey.modelVersionHashes]?.dictionaryValue != nil,
              !managedObjectModel.isCompatible(withVersionHashes: StoreMetadataKey.versionHashes(in: metadata)) else { return }
        var planner = migrationPlanner
        let bundleURL = StoreOption.urls(options[StoreOption.modelBundleURL]).first
        let mappingURLs = StoreOption.urls(options[StoreOption.mappingModelURLs])
        let sources = bundleURL == nil && mappingURLs.isEmpty ? nil : LinkedModules.migrationSources()
        if planner.versions.isEmpty, let bundleURL, let sources {
            planner.versions = try sources.modelVersions(inBundleAt: bundleURL)
        }
        // The model the store keeps is decoded only when no known version matches the store.
        let storedModel = planner.matchingVersions(forVersionHashes: StoreMetadataKey.versionHashes(in: metadata)).isEmpty
            ? type.storedModel(at: url, metadata: metadata) : nil
        guard options[StoreOption.shouldMigrateStoreAutomatically] == .bool(true) else {
            throw MigrationError.incompatibleStore(planner.incompatibility(
                storeMetadata: metadata, storedModel: storedModel, model: managedObjectModel, file: url.path))
        }
        if bundleURL != nil || !mappingURLs.isEmpty {
            guard let sources else {
                throw MigrationError.noMigrationPath(planner.incompatibility(
                    storeMetadata: metadata, storedModel: storedModel, model: managedObjectModel, file: url.path),
                    reason: "the options name mapping models or a model bundle, but StrataMigration is not linked")
            }
            if !mappingURLs.isEmpty { planner.mappingProviders.append(try sources.mappingProvider(loadingFrom: mappingURLs)) }
        }
        if options[StoreOption.shouldInferMappingModelAutomatically] == .bool(false) { planner.infersMappings = false }
        let plan = try planner.plan(storeMetadata: metadata, storedModel: storedModel, to: managedObjectModel, file: url.path)
        try StoreMigrator(storeAt: url, type: type).migrate(plan)
    }

    /// Moves a loaded store to another file and store type (Core Data's
    /// `migratePersistentStore(_:to:options:type:)`): every object with its primary key, the
    /// store UUID and metadata are written to a new store at `url`, which replaces `store` in
    /// this coordinator. The old store's file is left as it is.
    ///
    /// - Returns: the new store.
    /// - Throws: ``StoreError`` when `store` is not loaded here, a store at `url` is, or reading
    ///   or writing fails; the coordinator then still holds `store`.
    @discardableResult
    public func migratePersistentStore(_ store: any PersistentStore, to url: URL, options: [String: PropertyListValue] = [:],
                                       type: StoreType) throws -> any PersistentStore {
        guard persistentStores.contains(where: { $0 === store }) else { throw StoreError.storeNotLoaded(store.identifier) }
        if persistentStore(for: url) != nil { throw StoreError.storeAlreadyLoaded(url.path) }
        let image = try store.contentsImage()
        try Self.writeStore(image, type: type, model: managedObjectModel, configuration: store.configurationName, over: url)
        let description = StoreDescription(type: type, url: url, configurationName: store.configurationName,
                                           model: managedObjectModel, options: options)
        let moved = try type.makeStore(description)
        try remove(store)
        try addPersistentStore(moved)
        return moved
    }

    /// Replaces the store file at `destinationURL` with a copy of the one at `sourceURL` (Core
    /// Data's `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)`):
    /// same objects, primary keys, UUID and metadata. The copy is written beside the destination
    /// and renamed over it, so a crash leaves the old destination or the whole copy. The source
    /// is read without being written to. Both are read with this coordinator's model.
    ///
    /// - Throws: ``StoreError`` when a store at `destinationURL` is loaded in this coordinator,
    ///   or reading or writing fails.
    public func replacePersistentStore(at destinationURL: URL, destinationOptions: [String: PropertyListValue] = [:],
                                       withPersistentStoreFrom sourceURL: URL, sourceOptions: [String: PropertyListValue] = [:],
                                       type: StoreType) throws {
        if persistentStore(for: destinationURL) != nil { throw StoreError.storeAlreadyLoaded(destinationURL.path) }
        var options = sourceOptions
        options[StoreOption.readOnly] = .bool(true)
        let source = try type.makeStore(StoreDescription(type: type, url: sourceURL, model: managedObjectModel, options: options))
        let image = try source.contentsImage()
        try Self.writeStore(image, type: type, model: managedObjectModel, configuration: nil, over: destinationURL)
    }

    /// Deletes the store file at `url` and its journals (Core Data's
    /// `destroyPersistentStore(at:type:options:)`); a store of this coordinator at `url` is
    /// removed from it first. A file that is not there is no error.
    ///
    /// - Throws: ``StoreError/io(file:operation:reason:)`` when a file cannot be removed.
    public func destroyPersistentStore(at url: URL, type: StoreType, options: [String: PropertyListValue] = [:]) throws {
        if let loaded = persistentStore(for: url) { try remove(loaded) }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = url.path + suffix
            guard unlink(path) == 0 || errno == ENOENT else {
                throw StoreError.io(file: path, operation: "remove", reason: String(cString: strerror(errno)))
            }
        }
    }

    /// Writes `image` as a new store of `type` beside `url`, then renames it over `url` and
    /// removes journals `url` had.
    static func writeStore(_ image: StoreImage, type: StoreType, model: ManagedObjectModel, configuration: String?,
                           over url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid())-\(UUID().uuidString).strata-tmp")
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary.path + suffix) } }
        do {
            let store = try type.makeStore(StoreDescription(type: type, url: temporary, configurationName: configuration, model: model))
            try store.replaceContents(with: image)
        }
        if let family = type.inPlaceMigratingFamily, FileManager.default.fileExists(atPath: url.path) {
            try family.prepareForReplacement(at: url)
        }
        guard rename(temporary.path, url.path) == 0 else {
            throw StoreError.io(file: url.path, operation: "rename", reason: String(cString: strerror(errno)))
        }
        for suffix in ["-wal", "-shm", "-journal"] { unlink(url.path + suffix) }
    }
}
