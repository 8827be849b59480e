import Foundation

/// Everything an atomic store holds: its UUID, metadata, every object's snapshot and the next
/// primary key of each inheritance root. File formats read and write exactly this.
@_spi(StoreImplementation)
public struct StoreImage: Sendable, Hashable {
    /// The store's UUID.
    public var identifier: String
    /// The store's metadata.
    public var metadata: [String: PropertyListValue]
    /// Every object by ID.
    public var objects: [ManagedObjectID: ObjectSnapshot]
    /// The next primary key to hand out, by inheritance root entity.
    public var nextPrimaryKeys: [String: Int64]
    /// The references the file held to objects it does not hold, as a format's reader found
    /// them (left out of ``objects``: such a relationship reads as nil). Never written: a save
    /// writes the objects as they are.
    public var danglingReferences: [DanglingReference] = []
    /// The store's persistent history (empty when it keeps none): see ``PersistentHistoryLog``.
    public var history = PersistentHistoryLog()

    /// Creates an image.
    public init(identifier: String, metadata: [String: PropertyListValue] = [:],
                objects: [ManagedObjectID: ObjectSnapshot] = [:], nextPrimaryKeys: [String: Int64] = [:]) {
        self.identifier = identifier
        self.metadata = metadata
        self.objects = objects
        self.nextPrimaryKeys = nextPrimaryKeys
    }

    /// An empty image with a new UUID and the metadata of `type` and `model`.
    public static func empty(type: StoreType, model: ManagedObjectModel) -> StoreImage {
        var image = StoreImage(identifier: UUID().uuidString)
        image.stampMetadata(type: type, model: model)
        return image
    }

    /// Writes the store-owned metadata keys: UUID, type and the model's version hashes. The
    /// compiled model a file keeps (``StoreMetadataKey/compiledModel``) is left out: a store
    /// writes the one of its own model when it writes its file (``metadata(withCompiledModelOf:)``).
    public mutating func stampMetadata(type: StoreType, model: ManagedObjectModel) {
        metadata[StoreMetadataKey.compiledModel] = nil
        metadata.merge(model.versionMetadata) { _, new in new }
        metadata[StoreMetadataKey.storeUUID] = .string(identifier)
        metadata[StoreMetadataKey.storeType] = .string(type.rawValue)
    }

    /// The metadata a file store writes: this image's, with the compiled model of `model`
    /// under ``StoreMetadataKey/compiledModel`` when a ``CompiledModelCoder`` is installed
    /// (and without one otherwise).
    ///
    /// - Throws: what the coder throws.
    public func metadata(withCompiledModelOf model: ManagedObjectModel) throws -> [String: PropertyListValue] {
        var written = metadata
        written[StoreMetadataKey.compiledModel] = try CompiledModelCoder.encoded(model).map(PropertyListValue.data)
        return written
    }

    /// The snapshots ordered by entity name then primary key: the order files are written in.
    public var orderedObjects: [ObjectSnapshot] {
        objects.values.sorted { ManagedObjectID.storeOrder($0.objectID, $1.objectID) }
    }
}

/// Reads and writes a whole ``StoreImage`` in one file format (XML, binary, …).
@_spi(StoreImplementation)
public protocol AtomicStoreFormat: Sendable {
    /// Reads the image from `url`.
    func read(from url: URL, model: ManagedObjectModel) throws -> StoreImage
    /// Writes the image to `url` whole and crash-safely (temporary file, fsync, rename).
    func write(_ image: StoreImage, to url: URL, model: ManagedObjectModel) throws
}
