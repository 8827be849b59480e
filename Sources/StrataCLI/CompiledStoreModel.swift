import Foundation
import Strata

/// The compiled model an Apple-written SQLite store keeps of itself (`Z_MODELCACHE`): what
/// `inspect` and `export` read a store with when no `--model` is given. A store of older Core
/// Data keeps none; it is read with the model its tables describe (`SQLiteModelInference`).
enum CompiledStoreModel {
    /// How reports name the model that came from the store.
    static let name = "the store's compiled model"
    /// How reports name the model read off the store's tables.
    static let inferredName = "the model its tables describe"

    /// The store's compiled model; `nil` when it keeps none (only Apple's SQLite stores do).
    ///
    /// - Throws: ``CommandFailure`` naming the store and what is wrong with its compiled model.
    static func load(from url: URL, type: StoreType, store: String) throws -> ManagedObjectModel? {
        guard type == .sqlite else { return nil }
        do {
            return try ManagedObjectModel.compiledModel(inStoreAt: url)
        } catch {
            throw CommandFailure("\(store): \(error)")
        }
    }

    /// The model an SQLite store's tables describe, with a warning that says so and what was
    /// left out.
    ///
    /// - Throws: ``CommandFailure`` naming the store when its tables describe no model.
    static func inferred(from url: URL, store: String) throws -> ManagedObjectModel {
        do {
            let inference = try SQLiteModelInference(storeAt: url)
            Diagnostics.warning("\(store): keeps no compiled model; read with \(inferredName) (attributes named after their columns, to-ones only; see docs/formats/apple-compatibility.md)")
            if !inference.skippedColumns.isEmpty {
                Diagnostics.warning("\(store): columns not read: \(inference.skippedColumns.joined(separator: ", "))")
            }
            return inference.model
        } catch {
            throw CommandFailure("\(store): \(error)")
        }
    }

    /// The model of `--model` when given (for a bundle, the version matching the store), else
    /// the store's compiled model, else, for an SQLite store, the model its tables describe
    /// (`inferred` is then true: its version hashes are not the store's).
    ///
    /// - Throws: ``CommandFailure`` when the model file cannot be read, the compiled model is
    ///   damaged, or a store of another type is given no `--model`.
    static func required(modelPath: String?, url: URL, type: StoreType, store: String) throws
        -> (model: ManagedObjectModel, inferred: Bool) {
        if let modelPath { return (try ModelOption.load(modelPath, forStoreMetadata: StoreFiles.metadata(of: url, type: type)).model, false) }
        if let model = try load(from: url, type: type, store: store) { return (model, false) }
        guard type == .sqlite else {
            throw CommandFailure("\(store): \(type) stores keep no compiled model; pass --model with the model it was written with")
        }
        return (try inferred(from: url, store: store), true)
    }
}

extension Inspect {
    /// Where the model a store is inspected with came from.
    enum ModelSource {
        /// `--model`.
        case file
        /// The store's compiled model.
        case store
        /// The store's tables.
        case tables
    }

    /// The model to compare the store with, how the report names it and, for a bundle, the
    /// version matching the store's `metadata`: `--model` when given, else the store's compiled
    /// model, else for an SQLite store the model its tables describe; `nil` for a store of
    /// another type without `--model`.
    func inspectedModel(url: URL, type: StoreType, metadata: [String: PropertyListValue]) throws
        -> (name: String, model: ManagedObjectModel, versionName: String?, source: ModelSource)? {
        if let model {
            let (loaded, versionName) = try ModelOption.load(model, forStoreMetadata: metadata)
            return (model, loaded, versionName, .file)
        }
        if let compiled = try CompiledStoreModel.load(from: url, type: type, store: store) {
            return (CompiledStoreModel.name, compiled, nil, .store)
        }
        guard type == .sqlite else { return nil }
        return (CompiledStoreModel.inferredName, try CompiledStoreModel.inferred(from: url, store: store), nil, .tables)
    }
}
