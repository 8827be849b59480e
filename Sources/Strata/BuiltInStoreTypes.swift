import StrataBinary
@_spi(StoreImplementation) import StrataCore
import StrataModelFiles
import StrataSQLite
import StrataXML

extension StoreType {
    /// Registers every store type that ships with Strata (SQLite, XML, binary; in-memory is always
    /// registered), so that ``StoreType/named(_:)`` and
    /// ``PersistentStoreCoordinator/addPersistentStore(type:configuration:at:options:)`` find
    /// them by name, and installs the ``CompiledModelCoder`` with which the SQLite, binary and
    /// XML stores keep the model they were saved with (Core Data's compiled model). Calling it
    /// again does no harm.
    public static func registerBuiltInTypes() {
        CompiledModelCoder.install(CompiledModelCoder(encode: { try CompiledModel.storeCache(of: $0) },
                                                      decode: { try CompiledModel.model(fromStoreCache: $0) }))
        XMLStore.register()
        BinaryStore.register()
        SQLiteStore.register()
    }
}
