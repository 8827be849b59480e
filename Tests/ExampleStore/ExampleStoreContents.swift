import Foundation
@_spi(StoreImplementation) import StrataCore

/// What an ``ExampleStore`` holds: its UUID, metadata, every object's snapshot and the next
/// primary key of each inheritance root.
struct ExampleStoreContents: Sendable {
    /// The store's UUID.
    var identifier: String
    /// The store's metadata, program-defined keys and the store's own.
    var metadata: [String: PropertyListValue] = [:]
    /// Every object by ID.
    var objects: [ManagedObjectID: ObjectSnapshot] = [:]
    /// The next primary key to hand out, by inheritance root entity.
    var nextPrimaryKeys: [String: Int64] = [:]

    /// Writes the store-owned metadata keys (UUID, type, the model's version hashes) over
    /// whatever the program set.
    mutating func stampMetadata(type: StoreType, model: ManagedObjectModel) {
        metadata.merge(model.versionMetadata) { _, new in new }
        metadata[StoreMetadataKey.storeUUID] = .string(identifier)
        metadata[StoreMetadataKey.storeType] = .string(type.rawValue)
    }
}
