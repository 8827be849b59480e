/// One object whose state moved on between a context reading it and saving it: an
/// optimistic-locking conflict (Core Data's `NSMergeConflict`).
///
/// A conflict arises in one of two places, and its snapshots say which:
///
/// - between the saving context and the layer it reads from: the coordinator's row cache for a
///   root context (the cache already holds the newer row), the parent for a child context.
///   ``cachedSnapshot`` is that layer's current state and ``persistedSnapshot`` is nil;
/// - between the coordinator and the store (another coordinator or process wrote the row).
///   ``cachedSnapshot`` is the state the coordinator last knew (the one the context read) and
///   ``persistedSnapshot`` is the store's row.
///
/// ``newVersion`` is 0 when the object was deleted meanwhile; the snapshot of the layer that
/// deleted it is then nil. Snapshots hold attributes and to-ones; to-manys only where the layer
/// keeps them (the atomic stores and parent contexts do, the SQLite store does not).
///
/// A conflict names its source object by ID, since errors cross threads and objects may not:
/// ``ManagedObjectContext/registeredObject(for:)`` of the saving context gives the object.
public struct MergeConflict: Sendable, Hashable, CustomStringConvertible {
    /// The ID of the source object: the object the context tried to save.
    public var objectID: ManagedObjectID
    /// The source object's values as the saving context last read them (its last saved state),
    /// at ``oldVersion``.
    public var objectSnapshot: ObjectSnapshot?
    /// The object's state in the layer the context saves through: the coordinator's (the row
    /// cache, or the state the context read when the cache holds no newer one) or, for a child
    /// context, the parent's.
    public var cachedSnapshot: ObjectSnapshot?
    /// The store's row, when the conflict is between the coordinator and the store; nil when it
    /// is between the context and the coordinator or its parent, or the row was deleted.
    public var persistedSnapshot: ObjectSnapshot?
    /// The version the saving context read.
    public var oldVersion: Int64
    /// The version the object has now in the layer that refused the save; 0 when it was deleted.
    public var newVersion: Int64

    /// Creates a conflict record.
    public init(objectID: ManagedObjectID, oldVersion: Int64, newVersion: Int64, objectSnapshot: ObjectSnapshot? = nil,
                cachedSnapshot: ObjectSnapshot? = nil, persistedSnapshot: ObjectSnapshot? = nil) {
        self.objectID = objectID
        self.oldVersion = oldVersion
        self.newVersion = newVersion
        self.objectSnapshot = objectSnapshot
        self.cachedSnapshot = cachedSnapshot
        self.persistedSnapshot = persistedSnapshot
    }

    /// Whether the object was deleted meanwhile.
    public var isDeletion: Bool { newVersion == 0 }

    /// The object's current state where the save was refused (the persisted snapshot, else the
    /// cached one); nil when it was deleted.
    public var currentSnapshot: ObjectSnapshot? {
        isDeletion ? nil : persistedSnapshot ?? cachedSnapshot
    }

    /// The object and both versions.
    public var description: String {
        "\(objectID) (read version \(oldVersion), now \(isDeletion ? "deleted" : String(newVersion)))"
    }
}
