/// An object's last saved state: its ``ObjectSnapshot`` without the ID, which the object holds
/// already (a copy of it in every object would be 56 bytes and a reference count more).
struct CommittedState {
    /// The optimistic-locking version of the row as read.
    var version: Int64
    /// The attribute values as saved.
    var attributes: AttributeValues
    /// The to-one destinations as saved.
    var toOne: NameMap<ManagedObjectID>
    /// The to-many destinations known as saved.
    var toMany: [String: [ManagedObjectID]]

    /// The state `snapshot` describes.
    init(_ snapshot: consuming ObjectSnapshot) {
        version = snapshot.version
        attributes = snapshot.attributes
        toOne = snapshot.toOne
        toMany = snapshot.toMany
    }

    /// The state as the snapshot of the object `objectID`.
    func snapshot(of objectID: ManagedObjectID) -> ObjectSnapshot {
        ObjectSnapshot(objectID: objectID, version: version, attributes: attributes, toOne: toOne, toMany: toMany)
    }
}
