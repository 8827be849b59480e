import Foundation
@_spi(StoreImplementation) import StrataCore

/// The XML store: an `AtomicStore` that keeps its graph in one file of Core Data's XML store
/// layout (`XMLStoreFormat`).
public enum XMLStore: Sendable {
    /// Opens or creates an XML store.
    @_spi(StoreImplementation) public static func make(_ description: StoreDescription) throws -> AtomicStore {
        guard description.url != nil else {
            throw StoreError.io(file: "", operation: "open", reason: "an XML store needs a file URL")
        }
        return try AtomicStore(description: description, format: XMLStoreFormat())
    }

}

// StrataCore finds this conformance by the type's module and name (`LinkedModules`), so that
// the store type needs no registration call: a new name must be written there too.
@_spi(StoreImplementation)
extension XMLStore: BuiltInStoreFamily {
    /// ``StoreType/xml``.
    public static var storeType: StoreType { .xml }

    /// Opens or creates an XML store (``make(_:)``).
    public static func makeStore(_ description: StoreDescription) throws -> any PersistentStore {
        try make(description)
    }

    /// Reads an XML store file's UUID and metadata without loading its objects.
    public static func readMetadata(at url: URL) throws -> [String: PropertyListValue] {
        try XMLStoreFormat.readMetadata(from: url)
    }
}
