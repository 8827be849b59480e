/// The stored state of one object: what a store keeps and hands out, and what a save sends.
///
/// Attributes and to-one relationships that are nil are absent. A to-many relationship that is
/// absent has not been loaded (an incremental store answers it on demand); an empty array means
/// no destinations.
public struct ObjectSnapshot: Sendable, Hashable {
    /// The object's ID.
    public var objectID: ManagedObjectID
    /// The optimistic-locking version, raised by every save of the object.
    public var version: Int64
    /// Non-nil attribute values by name (kept in the entity's ``AttributeLayout`` when a store
    /// made the snapshot for an entity).
    public var attributes: AttributeValues
    /// Non-nil to-one destinations by relationship name (a ``NameMap``: a dictionary literal, or
    /// `NameMap(dictionary)`, makes one).
    public var toOne: NameMap<ManagedObjectID>
    /// To-many destinations by relationship name, in order for ordered relationships.
    public var toMany: [String: [ManagedObjectID]]

    /// Creates a snapshot.
    public init(
        objectID: ManagedObjectID,
        version: Int64 = 1,
        attributes: AttributeValues = AttributeValues(),
        toOne: NameMap<ManagedObjectID> = NameMap(),
        // `Dictionary()`, not `[:]`: a store makes a snapshot per row, and the literal is a call.
        toMany: [String: [ManagedObjectID]] = Dictionary()
    ) {
        self.objectID = objectID
        self.version = version
        self.attributes = attributes
        self.toOne = toOne
        self.toMany = toMany
    }
}
