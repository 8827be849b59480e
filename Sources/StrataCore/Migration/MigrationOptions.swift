import Foundation

extension StoreOption {
    /// `true`: a store written with another version of the model is migrated to the model when
    /// it is added (Core Data's `NSMigratePersistentStoresAutomaticallyOption`). As in Core Data,
    /// an options dictionary without it does not migrate; ``ContainerStoreDescription`` sets it.
    public static let shouldMigrateStoreAutomatically = "NSMigratePersistentStoresAutomaticallyOption"

    /// `true`: a migration step with no mapping model is inferred from the differences of the two
    /// model versions (Core Data's `NSInferMappingModelAutomaticallyOption`).
    public static let shouldInferMappingModelAutomatically = "NSInferMappingModelAutomaticallyOption"

    /// The mapping models a migration looks among, as Core Data looks in the app's bundles: an
    /// array of paths (`.string`), each an `.xcmappingmodel` bundle or a folder searched for
    /// them. A step whose two versions a mapping model connects (found by their entity version
    /// hashes) runs it; the other steps are inferred. Needs `StrataMigration` linked.
    public static let mappingModelURLs = "StrataMappingModelURLsOption"

    /// The path (`.string`) of the `.xcdatamodeld` bundle whose versions, oldest first, are the
    /// chain a migration goes through step by step, when the coordinator's
    /// ``PersistentStoreCoordinator/migrationPlanner`` knows no versions. Needs
    /// `StrataMigration` linked.
    public static let modelBundleURL = "StrataModelBundleURLOption"
}

extension StoreDescription {
    /// Whether ``StoreOption/shouldMigrateStoreAutomatically`` is set.
    public var shouldMigrateStoreAutomatically: Bool {
        options[StoreOption.shouldMigrateStoreAutomatically] == .bool(true)
    }

    /// Whether ``StoreOption/shouldInferMappingModelAutomatically`` is set.
    public var shouldInferMappingModelAutomatically: Bool {
        options[StoreOption.shouldInferMappingModelAutomatically] == .bool(true)
    }
}

extension ContainerStoreDescription {
    /// Whether an older store is migrated when it is loaded (on unless turned off, as in Core
    /// Data's `NSPersistentStoreDescription`).
    public var shouldMigrateStoreAutomatically: Bool {
        get { options[StoreOption.shouldMigrateStoreAutomatically] != .bool(false) }
        set { options[StoreOption.shouldMigrateStoreAutomatically] = .bool(newValue) }
    }

    /// Whether a migration step without a mapping model is inferred (on unless turned off).
    public var shouldInferMappingModelAutomatically: Bool {
        get { options[StoreOption.shouldInferMappingModelAutomatically] != .bool(false) }
        set { options[StoreOption.shouldInferMappingModelAutomatically] = .bool(newValue) }
    }

    /// The mapping models (`.xcmappingmodel` bundles, or folders of them) a migration of this
    /// store uses where one fits a step (``StoreOption/mappingModelURLs``).
    public var mappingModelURLs: [URL] {
        get { StoreOption.urls(options[StoreOption.mappingModelURLs]) }
        set { options[StoreOption.mappingModelURLs] = newValue.isEmpty ? nil : .array(newValue.map { .string($0.path) }) }
    }

    /// The model bundle whose versions a migration of this store goes through
    /// (``StoreOption/modelBundleURL``).
    public var modelBundleURL: URL? {
        get { StoreOption.urls(options[StoreOption.modelBundleURL]).first }
        set { options[StoreOption.modelBundleURL] = newValue.map { .string($0.path) } }
    }
}

extension StoreOption {
    /// The paths of an option that holds one path or an array of them, as file URLs.
    static func urls(_ value: PropertyListValue?) -> [URL] {
        switch value {
        case .string(let path)?: [URL(fileURLWithPath: path)]
        case .array(let items)?: items.compactMap { $0.stringValue.map { URL(fileURLWithPath: $0) } }
        default: []
        }
    }
}
