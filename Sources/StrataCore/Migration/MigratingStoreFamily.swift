import Foundation

/// A store family whose files a migration can change in place and copy without writing to them
/// (the SQLite store): an inferred migration then runs as SQL inside one transaction.
@_spi(StoreImplementation) public protocol InPlaceMigratingStoreFamily: BuiltInStoreFamily {
    /// Applies `mapping` to the store file at `url` in place, whole or not at all; `progress`
    /// gets the fraction done (0…1).
    ///
    /// - Throws: ``MigrationError`` or ``StoreError``; the file is then as it was.
    static func migrateInPlace(at url: URL, with mapping: InferredMapping, progress: @Sendable (Double) -> Void) throws

    /// Writes a copy of the store at `url` to `destination` without writing to `url`.
    static func copyStoreFile(at url: URL, to destination: URL) throws

    /// Makes the file at `url` ready to be replaced by a rename: no journal beside it holds
    /// transactions the main file lacks. The store's content stays as it was.
    static func prepareForReplacement(at url: URL) throws

    /// The compiled model the file at `url` keeps, if any.
    static func compiledModelData(at url: URL) throws -> Data?
}

extension StoreType {
    /// The linked built-in family of this type that migrates in place, if any.
    var inPlaceMigratingFamily: (any InPlaceMigratingStoreFamily.Type)? {
        LinkedModules.storeFamilies().lazy.compactMap { $0 as? any InPlaceMigratingStoreFamily.Type }
            .first { $0.storeType == self }
    }

    /// The files that may sit beside a store file of this type (SQLite's journals).
    var sidecarSuffixes: [String] { inPlaceMigratingFamily == nil ? [] : ["-wal", "-shm", "-journal"] }

    /// The model a store file of this type keeps beside its data (an SQLite store's
    /// `Z_MODELCACHE`, an atomic store's metadata), decoded with the installed
    /// ``CompiledModelCoder``; nil when it keeps none or no coder is installed.
    @_spi(StoreImplementation) public func storedModel(at url: URL, metadata: [String: PropertyListValue]) -> ManagedObjectModel? {
        var data = metadata[StoreMetadataKey.compiledModel]?.dataValue
        if data == nil, let family = inPlaceMigratingFamily { data = try? family.compiledModelData(at: url) }
        return data.flatMap { try? CompiledModelCoder.decoded($0) }
    }
}
