import Foundation
import Strata

/// The model a command reads an existing store with, and where it came from: `--model` (for a
/// bundle, the version whose entity version hashes match the store's), else the compiled model
/// the store keeps of itself (an SQLite store's `Z_MODELCACHE`, Apple's or Strata's; the
/// `StrataCompiledModel` metadata entry of a binary or XML store Strata wrote), else, for an
/// SQLite store that keeps none, the model its tables describe (`SQLiteModelInference`), which
/// a command that copies the store refuses unless `--allow-loss` (it drops or changes data).
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
    ///
    /// `copying` is set by the commands that write what they read elsewhere (`convert-store`,
    /// `export`): with a model guessed from the tables they stop, listing what would be lost,
    /// unless `allowLoss`.
    static func find(modelPath: String?, url: URL, type: StoreType, store: String,
                     metadata: [String: PropertyListValue], copying: Bool = false, allowLoss: Bool = false) throws -> StoreModel? {
        if let modelPath {
            let (model, versionName) = try ModelOption.load(modelPath, forStoreMetadata: metadata)
            return StoreModel(model: model, source: .file(modelPath), versionName: versionName)
        }
        if type != .sqlite {
            guard let compiled = metadata[StoreMetadataKey.compiledModel]?.dataValue else { return nil }
            do {
                return StoreModel(model: try CompiledModel.model(fromStoreCache: compiled), source: .store)
            } catch {
                throw CommandFailure("\(store): \(error)")
            }
        }
        let inference: SQLiteModelInference
        do {
            if let compiled = try ManagedObjectModel.compiledModel(inStoreAt: url) {
                return StoreModel(model: compiled, source: .store)
            }
            inference = try SQLiteModelInference(storeAt: url)
        } catch {
            throw CommandFailure(store, error)
        }
        if copying && !allowLoss {
            throw CommandFailure(lines: ["\(store): keeps no compiled model, and \(inferredName) would lose data (pass --model, or --allow-loss to go on):"]
                + inference.losses.map { "  \($0)" })
        }
        Diagnostics.warning("\(store): keeps no compiled model; read with \(inferredName) (see docs/formats/apple-compatibility.md)")
        for loss in inference.losses where copying {
            Diagnostics.warning("\(store): \(loss)")
        }
        if !copying && !inference.skippedColumns.isEmpty {
            Diagnostics.warning("\(store): columns not read: \(inference.skippedColumns.joined(separator: ", "))")
        }
        return StoreModel(model: inference.model, source: .tables)
    }

    /// The model as ``find(modelPath:url:type:store:metadata:copying:allowLoss:)`` finds it, reading the store's
    /// metadata only when a model file is given.
    ///
    /// - Throws: ``CommandFailure`` as `find` does, and for a store of another type than SQLite
    ///   without `modelPath`.
    static func required(modelPath: String?, url: URL, type: StoreType, store: String,
                         copying: Bool = false, allowLoss: Bool = false) throws -> StoreModel {
        let metadata = modelPath == nil && type == .sqlite ? [:] : try StoreFiles.metadata(of: url, type: type)
        guard let found = try find(modelPath: modelPath, url: url, type: type, store: store, metadata: metadata,
                                   copying: copying, allowLoss: allowLoss) else {
            throw CommandFailure("\(store): keeps no compiled model (written by an older strata or another program); pass --model with the model it was written with")
        }
        return found
    }
}
