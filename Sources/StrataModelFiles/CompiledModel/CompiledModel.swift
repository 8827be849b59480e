import Foundation
import StrataCore

/// Reads the compiled model Apple's Core Data keeps in an SQLite store, so that a store can be
/// opened without its model file.
///
/// Core Data stores the model a store was written with in table `Z_MODELCACHE` (one row, one
/// column `Z_CONTENT`): raw DEFLATE of an `NSKeyedArchiver` binary property list of the
/// `NSManagedObjectModel`. `docs/formats/model-cache.md` lists what is read from it. The model
/// read gives the same entity version hashes as the model file it was compiled from.
///
/// ```swift
/// if let content = try SQLiteStore.compiledModelData(at: storeURL) {
///     let model = try CompiledModel.model(fromStoreCache: content)
/// }
/// ```
public enum CompiledModel {
    /// The model in a store's `Z_MODELCACHE.Z_CONTENT`: raw DEFLATE of a keyed archive.
    ///
    /// - Throws: ``CompiledModelError`` naming what is wrong: damaged compression, no keyed
    ///   archive, an archived object of the wrong class or without a key it needs, or a model
    ///   that does not hold together.
    public static func model(fromStoreCache content: Data) throws(CompiledModelError) -> ManagedObjectModel {
        try model(fromArchive: RawInflate.inflate(content))
    }

    /// The model in an `NSKeyedArchiver` binary property list of an `NSManagedObjectModel`
    /// (the inflated form of a store's model cache).
    ///
    /// - Throws: ``CompiledModelError`` as ``model(fromStoreCache:)`` does, except for compression.
    public static func model(fromArchive archive: Data) throws(CompiledModelError) -> ManagedObjectModel {
        let keyedArchive: KeyedArchive
        do {
            keyedArchive = try KeyedArchive(archive)
        } catch {
            throw .invalidArchive(reason: error.description)
        }
        return try CompiledModelReader(archive: keyedArchive).model()
    }

    /// The model as Core Data keeps it in an SQLite store's `Z_MODELCACHE.Z_CONTENT`: raw DEFLATE
    /// of a keyed archive of the `NSManagedObjectModel` (``archive(of:)``).
    /// ``model(fromStoreCache:)`` reads it back as an equal model, with the same version hashes.
    ///
    /// - Throws: ``CompiledModelError/damagedCompression(reason:)`` only when zlib fails.
    public static func storeCache(of model: ManagedObjectModel) throws(CompiledModelError) -> Data {
        try RawDeflate.deflate(archive(of: model))
    }

    /// The model as an `NSKeyedArchiver` binary property list of an `NSManagedObjectModel`, in
    /// the classes, keys and value encodings of Core Data's own compiled models.
    public static func archive(of model: ManagedObjectModel) -> Data {
        var writer = CompiledModelWriter(model: model)
        return writer.write()
    }
}
