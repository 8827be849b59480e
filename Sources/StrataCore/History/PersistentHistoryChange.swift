import Foundation

/// One object's change within a ``PersistentHistoryTransaction``. Core Data's
/// `NSPersistentHistoryChange`.
public struct PersistentHistoryChange: Sendable, Hashable {
    /// What happened to the object.
    public enum ChangeType: Int64, Sendable, Hashable, Codable {
        /// The object was inserted.
        case insert = 0
        /// The object's stored properties changed.
        case update = 1
        /// The object was deleted.
        case delete = 2
    }

    /// The change's number, unique in its store and increasing with each change recorded.
    public var changeID: Int64
    /// The object that changed.
    public var changedObjectID: ManagedObjectID
    /// Insert, update or delete.
    public var changeType: ChangeType
    /// For an update, the names of the stored properties (attributes and to-ones) whose values
    /// changed; nil for inserts, deletes and updates whose changed properties were not known.
    public var updatedProperties: Set<String>?
    /// For a delete, the values of the attributes the model marks
    /// ``AttributeDescription/preservesValueInHistoryOnDeletion`` (a nil value is left out); nil
    /// otherwise.
    public var tombstone: [String: AttributeValue]?
    /// For an update recorded with ``StoreOption/persistentHistoryValues``, the values the
    /// ``updatedProperties`` had before the save (nil values are left out; a to-one's value is
    /// its destination's ID). Beyond Core Data, whose history lists changed properties only.
    public var oldValues: [String: AttributeValue]?
    /// For an update recorded with ``StoreOption/persistentHistoryValues``, the values the
    /// ``updatedProperties`` have after it.
    public var newValues: [String: AttributeValue]?
    /// The number of the transaction the change belongs to.
    public var transactionNumber: Int64

    /// Creates a change.
    public init(changeID: Int64, changedObjectID: ManagedObjectID, changeType: ChangeType,
                updatedProperties: Set<String>? = nil, tombstone: [String: AttributeValue]? = nil,
                oldValues: [String: AttributeValue]? = nil, newValues: [String: AttributeValue]? = nil,
                transactionNumber: Int64) {
        self.changeID = changeID
        self.changedObjectID = changedObjectID
        self.changeType = changeType
        self.updatedProperties = updatedProperties
        self.tombstone = tombstone
        self.oldValues = oldValues
        self.newValues = newValues
        self.transactionNumber = transactionNumber
    }
}
