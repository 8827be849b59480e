import Foundation
import Strata

/// The model a command reads an existing store with, and where it came from: `--model` (for a
/// bundle, the version whose entity version hashes match the store's), else the compiled model
/// an Apple-written SQLite store keeps of itself (`Z_MODELCACHE`), else, for an SQLite store of
/// older Core Data that keeps none, the model its tables describe (`SQLiteModelInference`).
struct StoreModel {
    /// Where a model came from.
    enum Source: Equatable {
        /// The `--model` file at this path.
        case file(String)
        /// The store's compiled model.
        case store
        /// The store's tables.
        case tables
    }

    /// How reports name the model that came from the store.
    static let compiledName = "the store's compiled model"
    /// How reports name the model read off the store's tables.
    static let inferredName = "the model its tables describe"

    /// The model.
    var model: ManagedObjectModel
    /// Where it came from.
    var source: Source
    /// The bundle version's name, when the model came from a bundle.
    var versionName: String?

    /// Whether the model's version hashes are known not to be the store's (one read off its
    /// tables), so that the store opens with `StoreOption.ignoresVersionHashes`.
    var ignoresVersionHashes: Bool { source == .tables }

    /// The model for the store at `url` (named `store` in messages) with `metadata`; nil for a
    /// store of another type than SQLite without `modelPath`.
    ///
    /// - Throws: ``CommandFailure`` when the model file cannot be read, the compiled model is
    ///   damaged, or the tables describe no model.
    static func find(modelPath: String?, url: URL, type: StoreType, store: String,
                     metadata: [String: PropertyListValue]) throws -> StoreModel? {
        if let modelPath {
            let (model, versionName) = try ModelOption.load(modelPath, forStoreMetadata: metadata)
            return StoreModel(model: model, source: .file(modelPath), versionName: versionName)
        }
        guard type == .sqlite else { return nil }
        do {
            if let compiled = try ManagedObjectModel.compiledModel(inStoreAt: url) {
                return StoreModel(model: compiled, source: .store)
            }
            let inference = try SQLiteModelInference(storeAt: url)
            Diagnostics.warning("\(store): keeps no compiled model; read with \(inferredName) (attributes named after their columns, to-ones only; see docs/formats/apple-compatibility.md)")
            if !inference.skippedColumns.isEmpty {
                Diagnostics.warning("\(store): columns not read: \(inference.skippedColumns.joined(separator: ", "))")
            }
            return StoreModel(model: inference.model, source: .tables)
        } catch {
            throw CommandFailure(store, error)
        }
    }

    /// The model as ``find(modelPath:url:type:store:metadata:)`` finds it, reading the store's
    /// metadata only when a model file is given.
    ///
    /// - Throws: ``CommandFailure`` as `find` does, and for a store of another type than SQLite
    ///   without `modelPath`.
    static func required(modelPath: String?, url: URL, type: StoreType, store: String) throws -> StoreModel {
        let metadata = modelPath == nil ? [:] : try StoreFiles.metadata(of: url, type: type)
        guard let found = try find(modelPath: modelPath, url: url, type: type, store: store, metadata: metadata) else {
            throw CommandFailure("\(store): \(type) stores keep no compiled model; pass --model with the model it was written with")
        }
        return found
    }
}
