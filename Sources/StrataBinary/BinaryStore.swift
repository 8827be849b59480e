import Foundation
@_spi(StoreImplementation) import StrataCore

/// The compressed binary store: an `AtomicStore` that keeps its graph in one
/// `BinaryStoreFormat` file.
public enum BinaryStore: Sendable {
    /// Opens or creates a binary store.
    ///
    /// - Throws: ``StoreError/io(file:operation:reason:)`` without a URL, or what reading throws.
    @_spi(StoreImplementation) public static func make(_ description: StoreDescription) throws -> AtomicStore {
        guard description.url != nil else {
            throw StoreError.io(file: "", operation: "open", reason: "a binary store needs a file URL")
        }
        return try AtomicStore(description: description, format: BinaryStoreFormat())
    }

}

// StrataCore finds this conformance by the type's module and name (`LinkedModules`), so that
// the store type needs no registration call: a new name must be written there too.
@_spi(StoreImplementation)
extension BinaryStore: BuiltInStoreFamily {
    /// ``StoreType/binary``.
    public static var storeType: StoreType { .binary }

    /// Opens or creates a binary store (``make(_:)``).
    public static func makeStore(_ description: StoreDescription) throws -> any PersistentStore {
        try make(description)
    }

    /// Reads a binary store file's UUID and metadata without loading its objects.
    public static func readMetadata(at url: URL) throws -> [String: PropertyListValue] {
        try BinaryStoreFormat.readMetadata(from: url)
    }
}
