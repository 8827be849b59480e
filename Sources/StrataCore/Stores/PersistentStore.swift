import Foundation

/// A place objects are kept: what every store type (SQLite, XML, binary, in-memory, or one of
/// your own) implements, and all the coordinator needs.
///
/// Stores are `Sendable` and thread-safe. They speak in ``ObjectSnapshot``s and
/// ``ManagedObjectID``s, never in managed objects.
///
/// The requirements below are the whole of what a store must do; they are enough for every
/// behaviour of a context. A store that can do more declares optional capabilities
/// (`StreamingFetchStore`, `RowCacheFetchStore`, `ObjectIDFetchStore`,
/// `ObjectCountStore`, `GroupingStore`, `RowValuesStore`, `SnapshotBatchStore`,
/// `BatchExecutingStore`), which the coordinator detects; without one the coordinator does the
/// same work with the requirements below. See `docs/store-implementation.md`.
public protocol PersistentStore: AnyObject, Sendable {
    /// The store's UUID, recorded in its file; part of every object URI.
    var identifier: String { get }
    /// The store's type.
    var type: StoreType { get }
    /// The store's file, if it has one.
    var url: URL? { get }
    /// The configuration whose entities the store holds (nil: every entity).
    var configurationName: String? { get }
    /// The model the store was opened with.
    var model: ManagedObjectModel { get }
    /// The store's metadata (UUID, type, version hashes and anything a program added).
    var metadata: [String: PropertyListValue] { get }

    /// Replaces the program-defined metadata; written with the next save.
    func setMetadata(_ metadata: [String: PropertyListValue]) throws
    /// The snapshots of the objects a request matches, ordered and ranged as it asks.
    @_spi(StoreImplementation) func fetch(_ request: StoreFetchRequest) throws -> [ObjectSnapshot]
    /// The snapshot of one object, or nil when the store has no such object.
    @_spi(StoreImplementation) func snapshot(for objectID: ManagedObjectID) throws -> ObjectSnapshot?
    /// The destinations of a to-many relationship of one object, in order.
    @_spi(StoreImplementation) func relatedObjectIDs(of objectID: ManagedObjectID, relationship: String) throws -> [ManagedObjectID]
    /// Reserves `count` new primary keys for objects under the inheritance root `rootEntity`.
    @_spi(StoreImplementation) func allocatePrimaryKeys(rootEntity: String, count: Int) throws -> [Int64]
    /// Applies a save whole, or throws and changes nothing.
    @_spi(StoreImplementation) func save(_ request: StoreSaveRequest) throws

    /// Everything the store holds as one image (UUID, metadata, every object with every to-many
    /// loaded, next primary keys): what converting a store to another format reads.
    @_spi(StoreImplementation) func contentsImage() throws -> StoreImage
    /// Replaces everything the store holds with `image`, whole or not at all. The store takes the
    /// image's UUID, objects and primary keys and its program-defined metadata; the store-owned
    /// metadata keys (type, version hashes) are written afresh for this store.
    @_spi(StoreImplementation) func replaceContents(with image: StoreImage) throws
}

/// What a store is asked to fetch: concrete entities, a condition, an order and a range.
@_spi(StoreImplementation)
public struct StoreFetchRequest: Sendable, Hashable {
    /// The entities whose objects match (a requested entity and, usually, its sub-entities).
    public var entityNames: Set<String>
    /// The condition; nil matches every object.
    public var predicate: ObjectPredicate?
    /// The order.
    public var sortDescriptors: [ObjectSortDescriptor]
    /// How many to skip.
    public var fetchOffset: Int
    /// The most to return; 0 means no limit.
    public var fetchLimit: Int
    /// A hint: when false the caller uses only the snapshots' IDs, so a store may leave the values
    /// out (an incremental store then reads only primary keys). A store may always return them.
    public var includesPropertyValues: Bool

    /// Creates a store request.
    public init(entityNames: Set<String>, predicate: ObjectPredicate? = nil,
                sortDescriptors: [ObjectSortDescriptor] = [], fetchOffset: Int = 0, fetchLimit: Int = 0,
                includesPropertyValues: Bool = true) {
        self.entityNames = entityNames
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchOffset = fetchOffset
        self.fetchLimit = fetchLimit
        self.includesPropertyValues = includesPropertyValues
    }
}

/// One save for one store: new objects, changed objects and deleted objects.
@_spi(StoreImplementation)
public struct StoreSaveRequest: Sendable, Hashable {
    /// New objects with their permanent IDs.
    public var inserted: [ObjectSnapshot]
    /// Changed objects. `version` is the version the saver read; the store raises a merge
    /// conflict if it has moved on. A to-many absent from the snapshot is unchanged.
    public var updated: [ObjectSnapshot]
    /// Deleted objects with the version the saver read.
    public var deleted: [DeletedObject]
    /// For each snapshot of ``updated``, in order, the stored attributes and to-ones whose values
    /// differ from the version the saver read, or nil when not known. A store may write only
    /// these (the SQLite store does: its row is the read version's, or the save fails as a merge
    /// conflict). Empty, or of another length than ``updated``, when the saver does not say: any
    /// property may have changed.
    public var changedProperties: [[String]?] = []
    /// Who saved (the context's transaction author and name), for the store's persistent
    /// history; nil when the saver does not say.
    public var transactionInfo: HistoryTransactionInfo?

    /// The changed properties of `updated[index]` as ``changedProperties`` gives them; nil when not
    /// known.
    public func changedProperties(ofUpdated index: Int) -> [String]? {
        changedProperties.count == updated.count ? changedProperties[index] : nil
    }

    /// A deleted object and the version its deleter saw.
    public struct DeletedObject: Sendable, Hashable {
        /// The object's ID.
        public var objectID: ManagedObjectID
        /// The version the deleter read.
        public var version: Int64

        /// Creates a deletion.
        public init(objectID: ManagedObjectID, version: Int64) {
            self.objectID = objectID
            self.version = version
        }
    }

    /// Creates a save request.
    public init(inserted: [ObjectSnapshot] = [], updated: [ObjectSnapshot] = [], deleted: [DeletedObject] = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether the request changes nothing.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
