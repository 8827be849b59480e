import StrataBinary
import StrataCore
import StrataSQLite
import StrataXML

extension StoreType {
    /// Registers every store type that ships with Strata (SQLite, XML, binary; in-memory is always
    /// registered), so that ``StoreType/named(_:)`` and
    /// ``PersistentStoreCoordinator/addPersistentStore(type:configuration:at:options:)`` find
    /// them by name. Calling it again does no harm.
    public static func registerBuiltInTypes() {
        XMLStore.register()
        BinaryStore.register()
        SQLiteStore.register()
    }
}
