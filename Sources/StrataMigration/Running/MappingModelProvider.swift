import Foundation
@_spi(StoreImplementation) import StrataCore
import StrataModelFiles

/// The mapping models a progressive migration uses where one fits a step: given in code or read
/// from `.xcmappingmodel` bundles or compiled `.cdm` files, found for a step by the version hashes of its two models (see
/// ``MappingModel/matches(source:destination:)``) and run by a ``MigrationManager``; a step
/// that none fits is left to be inferred.
///
/// ```swift
/// let bundle = try ModelBundle(at: URL(filePath: "Moody.xcdatamodeld"))
/// coordinator.migrationPlanner = MigrationPlanner(
///     versions: bundle.versionChain,
///     mappingProviders: [try MappingModelProvider(contentsOf: [URL(filePath: "Migrations")])])
/// try coordinator.addPersistentStore(type: .sqlite, at: url,
///                                    options: [StoreOption.shouldMigrateStoreAutomatically: .bool(true)])
/// ```
///
/// The same is reachable from store options alone (`StoreOption/mappingModelURLs` and
/// `StoreOption/modelBundleURL`), as on a `ContainerStoreDescription`.
public struct MappingModelProvider: MigrationMappingProvider {
    /// The mapping models, in the order they are tried.
    public var mappingModels: [MappingModel]
    /// How many objects each migration reads, makes and saves at a time (``MigrationManager/batchSize``).
    public var batchSize: Int

    /// A provider of `mappingModels`, tried in order.
    public init(_ mappingModels: [MappingModel], batchSize: Int = 5_000) {
        self.mappingModels = mappingModels
        self.batchSize = batchSize
    }

    /// A provider of the mapping models at `urls`: each an `.xcmappingmodel` bundle (or its
    /// `xcmapping.xml`), a compiled `.cdm` mapping model, or a folder searched, with its
    /// subfolders, for them (in path order).
    ///
    /// - Throws: ``MappingModelError`` naming the file that cannot be read.
    public init(contentsOf urls: [URL], batchSize: Int = 5_000) throws(MappingModelError) {
        var models: [MappingModel] = []
        for url in urls {
            for bundle in try Self.mappingModelFiles(at: url) { models.append(try MappingModel.load(at: bundle)) }
        }
        self.init(models, batchSize: batchSize)
    }

    /// The `.xcmappingmodel` bundles and `.cdm` files at `url`: itself when it is one (or a
    /// file), else those in the folder and its subfolders, in path order.
    static func mappingModelFiles(at url: URL) throws(MappingModelError) -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .unreadable(file: url.path, reason: "no such file or folder")
        }
        guard isDirectory.boolValue, url.pathExtension != "xcmappingmodel" else { return [url] }
        guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else {
            throw .unreadable(file: url.path, reason: "the folder cannot be listed")
        }
        var found: [URL] = []
        for case let item as URL in enumerator {
            switch item.pathExtension {
            case "xcmappingmodel":
                found.append(item)
                enumerator.skipDescendants()
            case "cdm":
                found.append(item)
            default:
                break
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The mapping model from `source` to `destination`, resolved, if one of ``mappingModels``
    /// is it.
    ///
    /// - Throws: ``MappingModelError`` when the one found does not resolve against the models.
    public func mappingModel(from source: ManagedObjectModel, to destination: ManagedObjectModel) throws(MappingModelError) -> MappingModel? {
        try MappingModel.find(in: mappingModels, source: source, destination: destination)
    }

    /// The version a recorded model path names (`Migrations/Moody.xcdatamodeld/Moody 2.xcdatamodel`
    /// → `Moody 2`).
    static func versionName(_ path: String?) -> String? {
        guard let path, let last = path.split(separator: "/").last else { return nil }
        return last.hasSuffix(".xcdatamodel") ? String(last.dropLast(".xcdatamodel".count)) : String(last)
    }

    /// The step that migrates with the mapping model from `source` to `destination`, or nil
    /// when none of ``mappingModels`` is it.
    ///
    /// - Throws: ``MappingModelError`` when the mapping model found does not resolve against the
    ///   two versions.
    ///
    /// An `.xcmappingmodel` whose copies of its models cannot be read (they are in Xcode's
    /// private classes) fits a step when the versions it records (`Moody 2.xcdatamodel`) are the
    /// step's by name.
    public func mappedStep(from source: ModelVersion, to destination: ModelVersion) throws -> MappedMigrationStep? {
        var found = try mappingModel(from: source.model, to: destination.model)
        if found == nil, let named = mappingModels.first(where: {
            !$0.hasVersionHashes && $0.sourceModelOutline == nil && $0.destinationModelOutline == nil
                && Self.versionName($0.sourceModelPath) == source.name && Self.versionName($0.destinationModelPath) == destination.name
        }) {
            found = try named.resolved(source: source.model, destination: destination.model)
        }
        guard let mapping = found else { return nil }
        let batchSize = batchSize
        return MappedMigrationStep(name: mapping.displayName, summary: mapping.summary) { request in
            let manager = MigrationManager(sourceModel: request.sourceModel, destinationModel: request.destinationModel)
            manager.batchSize = batchSize
            manager.progressHandler = { request.progress(Double($0)) }
            try manager.migrateStore(from: request.sourceURL, type: request.sourceType, mapping: mapping,
                                     to: request.destinationURL, type: request.destinationType)
        }
    }
}

// StrataCore finds this conformance by the type's module and name (`LinkedModules`), so that the
// store options ``StoreOption/mappingModelURLs`` and ``StoreOption/modelBundleURL`` need no
// registration call.
@_spi(StoreImplementation)
extension MappingModelProvider: BuiltInMigrationSources {
    /// The versions of the `.xcdatamodeld` bundle at `url`, oldest first, up to its current one.
    public static func modelVersions(inBundleAt url: URL) throws -> [ModelVersion] {
        try ModelBundle(at: url).versionChain
    }

    /// A provider of the mapping models at `urls`.
    public static func mappingProvider(loadingFrom urls: [URL]) throws -> any MigrationMappingProvider {
        try MappingModelProvider(contentsOf: urls)
    }
}
