import Foundation

/// How stores write the model they were saved with beside their data (and read it back), so
/// that every store Strata writes can be opened without its model file.
///
/// The format is Core Data's compiled model (`Z_MODELCACHE.Z_CONTENT`: raw DEFLATE of a keyed
/// archive of `NSManagedObjectModel`, see `docs/formats/model-cache.md`). The code that writes
/// it lives in module `StrataModelFiles`, which the store modules do not depend on: when that
/// module is linked (`import Strata` links it), its coder is the installed one from the start
/// (see ``BuiltInCompiledModelCoding``), and a store finds it here. Without it and until one is
/// installed, stores write no compiled model. To install another coder:
///
/// ```swift
/// CompiledModelCoder.install(CompiledModelCoder(encode: { try CompiledModel.storeCache(of: $0) },
///                                               decode: { try CompiledModel.model(fromStoreCache: $0) }))
/// ```
@_spi(StoreImplementation)
public struct CompiledModelCoder: Sendable {
    /// The compiled model of a model.
    public var encode: @Sendable (ManagedObjectModel) throws -> Data
    /// The model of a compiled model.
    public var decode: @Sendable (Data) throws -> ManagedObjectModel

    /// A coder made of the two functions.
    public init(encode: @escaping @Sendable (ManagedObjectModel) throws -> Data,
                decode: @escaping @Sendable (Data) throws -> ManagedObjectModel) {
        self.encode = encode
        self.decode = decode
    }

    /// The installed coder, and the last model it encoded with its bytes: atomic stores write
    /// their whole file on every save, and the model rarely changes between two saves.
    private struct Installed {
        var coder: CompiledModelCoder?
        var lastModel: ManagedObjectModel?
        var lastData: Data?
    }

    /// Starts with the coder of the linked `StrataModelFiles`, if it is linked.
    private static let state = LockedValue(Installed(coder: LinkedModules.compiledModelCoder()))

    /// Installs `coder` for every store made from now on.
    public static func install(_ coder: CompiledModelCoder) {
        state.withLock { $0 = Installed(coder: coder) }
    }

    /// The installed coder, if any.
    public static var installed: CompiledModelCoder? {
        state.withLock { $0.coder }
    }

    /// The compiled model of `model` with the installed coder; `nil` when none is installed.
    ///
    /// - Throws: what the coder throws.
    public static func encoded(_ model: ManagedObjectModel) throws -> Data? {
        let (coder, cached) = state.withLock { state in
            (state.coder, state.lastModel === model ? state.lastData : nil)
        }
        guard let coder else { return nil }
        if let cached { return cached }
        let data = try coder.encode(model)
        state.withLock { state in
            state.lastModel = model
            state.lastData = data
        }
        return data
    }

    /// The model in `data` with the installed coder; `nil` when none is installed.
    ///
    /// - Throws: what the coder throws for damaged data.
    public static func decoded(_ data: Data) throws -> ManagedObjectModel? {
        guard let coder = installed else { return nil }
        return try coder.decode(data)
    }
}

extension StoreMetadataKey {
    /// The compiled model an XML or binary store keeps in its metadata (data: raw DEFLATE of a
    /// keyed archive of the model, as in an SQLite store's `Z_MODELCACHE`). Core Data ignores
    /// metadata keys it does not know.
    public static let compiledModel = "StrataCompiledModel"
}
