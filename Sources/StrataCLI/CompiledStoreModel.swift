import Foundation
import Strata

/// The compiled model an Apple-written SQLite store keeps of itself (`Z_MODELCACHE`): what
/// `inspect` and `export` read a store with when no `--model` is given.
enum CompiledStoreModel {
    /// How reports name the model that came from the store.
    static let name = "the store's compiled model"

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

    /// The model of `--model` when given (for a bundle, the version matching the store), else
    /// the store's compiled model.
    ///
    /// - Throws: ``CommandFailure`` when the model file cannot be read, the compiled model is
    ///   damaged, or the store keeps none and no `--model` was given.
    static func required(modelPath: String?, url: URL, type: StoreType, store: String) throws -> ManagedObjectModel {
        if let modelPath { return try ModelOption.load(modelPath, forStoreMetadata: StoreFiles.metadata(of: url, type: type)).model }
        guard let model = try load(from: url, type: type, store: store) else {
            let which = type == .sqlite ? "the store keeps" : "\(type) stores keep"
            throw CommandFailure("\(store): \(which) no compiled model; pass --model with the model it was written with")
        }
        return model
    }
}

extension Inspect {
    /// The model to compare the store with, how the report names it and, for a bundle, the
    /// version matching the store's `metadata`: `--model` when given, else the store's compiled
    /// model; `nil` when there is neither.
    func inspectedModel(url: URL, type: StoreType, metadata: [String: PropertyListValue]) throws
        -> (name: String, model: ManagedObjectModel, versionName: String?, fromStore: Bool)? {
        if let model {
            let (loaded, versionName) = try ModelOption.load(model, forStoreMetadata: metadata)
            return (model, loaded, versionName, false)
        }
        return try CompiledStoreModel.load(from: url, type: type, store: store).map { (CompiledStoreModel.name, $0, nil, true) }
    }
}
