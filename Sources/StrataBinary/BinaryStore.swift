import Foundation
@_spi(StoreImplementation) import StrataCore

/// The compressed binary store: an ``AtomicStore`` that keeps its graph in one
/// ``BinaryStoreFormat`` file.
public enum BinaryStore {
    /// Opens or creates a binary store.
    ///
    /// - Throws: ``StoreError/io(file:operation:reason:)`` without a URL, or what reading throws.
    @_spi(StoreImplementation) public static func make(_ description: StoreDescription) throws -> AtomicStore {
        guard description.url != nil else {
            throw StoreError.io(file: "", operation: "open", reason: "a binary store needs a file URL")
        }
        return try AtomicStore(description: description, format: BinaryStoreFormat())
    }

    /// Registers ``StoreType/binary``.
    public static func register() {
        StoreType.register(.binary, factory: { try make($0) }, metadataReader: { try BinaryStoreFormat.readMetadata(from: $0) })
    }
}
