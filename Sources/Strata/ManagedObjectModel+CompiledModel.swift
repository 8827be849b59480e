import Foundation
import StrataCore
import StrataModelFiles
import StrataSQLite

extension ManagedObjectModel {
    /// The model an Apple-written SQLite store keeps of itself (its compiled-model cache), so
    /// that the store can be opened without its model file.
    ///
    /// ```swift
    /// if let model = try ManagedObjectModel.compiledModel(inStoreAt: storeURL) {
    ///     let store = try StoreType.sqlite.makeStore(StoreDescription(type: .sqlite, url: storeURL, model: model))
    /// }
    /// ```
    ///
    /// The store file is only read. The model's entity version hashes are those the store
    /// recorded when it was saved with that model.
    ///
    /// - Parameter url: An SQLite store file.
    /// - Returns: The model, or `nil` when the store keeps none (stores written by Strata or by
    ///   Core Data before it kept one).
    /// - Throws: `StoreError` when the file is no readable SQLite database, or
    ///   `CompiledModelError` naming what is wrong with the compiled model.
    public static func compiledModel(inStoreAt url: URL) throws -> ManagedObjectModel? {
        guard let content = try SQLiteStore.compiledModelData(at: url) else { return nil }
        return try CompiledModel.model(fromStoreCache: content)
    }
}
