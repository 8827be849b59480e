import Foundation

/// The module that reads mapping models and model bundles (`StrataMigration`), found by name as
/// a ``BuiltInStoreFamily`` is: it turns the paths of ``StoreOption/mappingModelURLs`` and
/// ``StoreOption/modelBundleURL`` into what a ``MigrationPlanner`` uses.
@_spi(StoreImplementation) public protocol BuiltInMigrationSources {
    /// The versions of the model bundle at `url`, oldest first, up to its current version.
    ///
    /// - Throws: what reading the bundle throws.
    static func modelVersions(inBundleAt url: URL) throws -> [ModelVersion]

    /// A provider of the mapping models at `urls` (`.xcmappingmodel` bundles, or folders searched
    /// for them) that runs them.
    ///
    /// - Throws: what reading a mapping model throws.
    static func mappingProvider(loadingFrom urls: [URL]) throws -> any MigrationMappingProvider
}
