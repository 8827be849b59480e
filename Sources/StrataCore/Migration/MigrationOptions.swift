import Foundation

extension StoreOption {
    /// `true`: a store written with another version of the model is migrated to the model when
    /// it is added (Core Data's `NSMigratePersistentStoresAutomaticallyOption`). As in Core Data,
    /// an options dictionary without it does not migrate; ``ContainerStoreDescription`` sets it.
    public static let shouldMigrateStoreAutomatically = "NSMigratePersistentStoresAutomaticallyOption"

    /// `true`: a migration step with no mapping model is inferred from the differences of the two
    /// model versions (Core Data's `NSInferMappingModelAutomaticallyOption`).
    public static let shouldInferMappingModelAutomatically = "NSInferMappingModelAutomaticallyOption"
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
}
