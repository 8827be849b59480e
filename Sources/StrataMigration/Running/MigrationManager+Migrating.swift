import Foundation
@_spi(StoreImplementation) import StrataCore

extension MigrationManager {
    /// Migrates the store at `sourceURL` into a new store at `destinationURL` with `mapping`
    /// (Core Data's `migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)`).
    ///
    /// The mapping model is resolved against the two models first
    /// (``MappingModel/resolved(source:destination:)``). The source store is opened read-only
    /// with ``sourceModel``; it is never written. The destination store is made new at
    /// `destinationURL`, where nothing may be; it is complete when the call returns, and removed
    /// (with its side files) when the call throws.
    ///
    /// - Parameters:
    ///   - sourceURL: the store to migrate.
    ///   - sourceType: its type.
    ///   - sourceOptions: options to open it with (`StoreOption/readOnly` is added).
    ///   - mapping: the mapping model, as read or made in code.
    ///   - destinationURL: where to write the new store.
    ///   - destinationType: its type (any type: a migration may change the store type too).
    ///   - destinationOptions: options to make it with.
    /// - Throws: ``MappingMigrationError``.
    public func migrateStore(from sourceURL: URL, type sourceType: StoreType,
                             options sourceOptions: [String: PropertyListValue] = [:],
                             mapping: MappingModel,
                             to destinationURL: URL, type destinationType: StoreType,
                             options destinationOptions: [String: PropertyListValue] = [:]) throws(MappingMigrationError) {
        restart()
        if FileManager.default.fileExists(atPath: destinationURL.path) {
            throw .destinationExists(file: destinationURL.path)
        }
        do {
            try run(from: sourceURL, type: sourceType, options: sourceOptions, mapping: mapping,
                    to: destinationURL, type: destinationType, options: destinationOptions)
            finish()
        } catch {
            finish()
            Self.removeStoreFiles(at: destinationURL)
            throw error
        }
    }

    /// Clears what a previous migration left.
    private func restart() {
        tables = [:]
        cancellation = nil
        batchSources = [:]
        writesForeignKeysAlone = false
        sourceLoadsByID = false
        destinationLoadsByID = false
        progressDone = 0
        progressTotal = 1
        migrationProgress = 0
        stage = .preparation
        currentEntityMapping = nil
    }

    /// Lets go of the stores: the contexts become empty ones again.
    private func finish() {
        currentEntityMapping = nil
        batchSources = [:]
        sourceContext = ManagedObjectContext(coordinator: PersistentStoreCoordinator(managedObjectModel: sourceModel))
        destinationContext = ManagedObjectContext(coordinator: PersistentStoreCoordinator(managedObjectModel: destinationModel))
    }

    /// The store file and the files a store keeps beside it.
    static func removeStoreFiles(at url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    private func run(from sourceURL: URL, type sourceType: StoreType, options sourceOptions: [String: PropertyListValue],
                     mapping: MappingModel, to destinationURL: URL, type destinationType: StoreType,
                     options destinationOptions: [String: PropertyListValue]) throws(MappingMigrationError) {
        do {
            mappingModel = try mapping.resolved(source: sourceModel, destination: destinationModel)
        } catch {
            throw .mapping(error)
        }
        let policies = try makePolicies()

        var readOnly = sourceOptions
        readOnly[StoreOption.readOnly] = .bool(true)
        let sourceCoordinator = PersistentStoreCoordinator(managedObjectModel: sourceModel)
        do {
            let store = try sourceCoordinator.addPersistentStore(type: sourceType, at: sourceURL, options: readOnly)
            sourceStoreIdentifier = store.identifier
        } catch {
            throw .sourceUnreadable(file: sourceURL.path, underlying: error)
        }
        sourceContext = ManagedObjectContext(coordinator: sourceCoordinator)
        // An atomic store reads one object by its ID at once; a fetch would go over all of them.
        sourceLoadsByID = sourceCoordinator.persistentStores.first is AtomicStore

        // The destination store. An atomic one (XML, binary), written whole by its format, is
        // staged in a temporary SQLite store beside it (in memory when SQLite is not linked)
        // and written once at the end.
        let destination: any PersistentStore
        do {
            destination = try destinationType.makeStore(StoreDescription(type: destinationType, url: destinationURL,
                                                                         model: destinationModel, options: destinationOptions))
        } catch {
            throw .destinationUnwritable(file: destinationURL.path, underlying: error)
        }
        let staged = destination is AtomicStore
        let stagingType: StoreType = StoreType.registeredTypes.contains(.sqlite) ? .sqlite : .inMemory
        let stagingURL = staged && stagingType == .sqlite ? Self.stagingURL(for: destinationURL) : nil
        defer { if let stagingURL { Self.removeStoreFiles(at: stagingURL) } }
        writesForeignKeysAlone = staged ? stagingType == .sqlite : destinationType == .sqlite
        destinationLoadsByID = staged ? stagingType != .sqlite : destination is AtomicStore
        let destinationCoordinator = PersistentStoreCoordinator(managedObjectModel: destinationModel)
        do {
            if staged {
                destinationStoreIdentifier = try destinationCoordinator.addPersistentStore(type: stagingType, at: stagingURL).identifier
            } else {
                try destinationCoordinator.addPersistentStore(destination)
                destinationStoreIdentifier = destination.identifier
            }
        } catch {
            throw .destinationUnwritable(file: destinationURL.path, underlying: error)
        }
        destinationContext = ManagedObjectContext(coordinator: destinationCoordinator)

        try runStages(policies: policies)

        stage = .writing
        if staged {
            do {
                guard let staging = destinationCoordinator.persistentStores.first else { return }
                try destination.replaceContents(with: staging.contentsImage())
                destinationContext = ManagedObjectContext(coordinator: PersistentStoreCoordinator(managedObjectModel: destinationModel))
                try destinationCoordinator.remove(staging)
            } catch {
                throw .destinationUnwritable(file: destinationURL.path, underlying: error)
            }
        }
        report(1)
    }

    /// A new path beside `destination` for the store an atomic destination is staged in, in the
    /// form `strata`'s commands clean up after a killed run.
    private static func stagingURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(
            ".\(destination.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).strata-tmp")
    }

    /// One policy per entity mapping: the registered class its mapping names, or the default.
    private func makePolicies() throws(MappingMigrationError) -> [EntityMigrationPolicy] {
        var policies: [EntityMigrationPolicy] = []
        for mapping in mappingModel.entityMappings {
            guard let name = mapping.entityMigrationPolicyClassName else {
                policies.append(EntityMigrationPolicy())
                continue
            }
            guard let type = EntityMigrationPolicy.registeredType(forName: name) else {
                throw .unregisteredPolicy(className: name, entityMapping: mapping.name)
            }
            policies.append(type.init())
        }
        return policies
    }
}
