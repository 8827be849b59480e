/// An object's last saved state: its ``ObjectSnapshot`` without the ID, which the object holds
/// already (a copy of it in every object would be 56 bytes and a reference count more).
struct CommittedState {
    /// The optimistic-locking version of the row as read.
    var version: Int64
    /// The attribute values as saved, unless they are the object's current values (nil): a
    /// loaded object shares one storage of its values until the first change, which writes them
    /// down here first (``ManagedObject/keepCommittedAttributes()``). Read them through
    /// ``attributes(current:)``.
    var savedAttributes: AttributeValues?
    /// The to-one destinations as saved, unless ``toOneIsCurrent``.
    var toOne: NameMap<ManagedObjectID>
    /// The to-many destinations known as saved.
    var toMany: [String: [ManagedObjectID]]
    /// Whether the saved to-ones are the object's current to-one destinations, which then are
    /// the only record of them until one changes (``ManagedObject/keepCommittedToOnes()``): a
    /// loaded object keeps no map of its own for them. Last, so that no padding follows it.
    var toOneIsCurrent: Bool

    /// The state `snapshot` describes; with `toOneIsCurrent`, the object's to-one destinations
    /// are those of the snapshot, and the snapshot's map of them is not kept; with
    /// `attributesAreCurrent`, the object's attribute values are the snapshot's, and the
    /// snapshot's are not kept either.
    init(_ snapshot: consuming ObjectSnapshot, toOneIsCurrent: Bool = false, attributesAreCurrent: Bool = false) {
        version = snapshot.version
        savedAttributes = attributesAreCurrent ? nil : snapshot.attributes
        toOne = toOneIsCurrent ? NameMap() : snapshot.toOne
        toMany = snapshot.toMany
        self.toOneIsCurrent = toOneIsCurrent
    }

    /// The attribute values as saved, for an object whose current values are `current`.
    func attributes(current: AttributeValues) -> AttributeValues {
        savedAttributes ?? current
    }

    /// The state as the snapshot of the object `objectID`, whose current attribute values are
    /// `current`.
    func snapshot(of objectID: ManagedObjectID, current: AttributeValues) -> ObjectSnapshot {
        ObjectSnapshot(objectID: objectID, version: version, attributes: attributes(current: current), toOne: toOne, toMany: toMany)
    }
}
