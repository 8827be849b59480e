@_spi(StoreImplementation) import StrataCore

// StrataCore finds this conformance by the type's module and name (`LinkedModules`): a new
// name must be written there too.
@_spi(StoreImplementation)
extension CompiledModel: BuiltInCompiledModelCoding {
    /// The coder with which the SQLite, XML and binary stores keep the model they were saved
    /// with: ``storeCache(of:)`` and ``model(fromStoreCache:)``. StrataCore finds it on its own
    /// when this module is linked.
    public static var compiledModelCoder: CompiledModelCoder {
        CompiledModelCoder(encode: { try storeCache(of: $0) }, decode: { try model(fromStoreCache: $0) })
    }
}
