import Foundation
@_spi(StoreImplementation) import StrataCore

/// The XML store: an ``AtomicStore`` that keeps its graph in one file of Core Data's XML store
/// layout (``XMLStoreFormat``).
public enum XMLStore {
    /// Opens or creates an XML store.
    @_spi(StoreImplementation) public static func make(_ description: StoreDescription) throws -> AtomicStore {
        guard description.url != nil else {
            throw StoreError.io(file: "", operation: "open", reason: "an XML store needs a file URL")
        }
        return try AtomicStore(description: description, format: XMLStoreFormat())
    }

    /// Registers ``StoreType/xml``.
    public static func register() {
        StoreType.register(.xml, factory: { try make($0) }, metadataReader: { try XMLStoreFormat.readMetadata(from: $0) })
    }
}
