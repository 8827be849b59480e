/// Objects that would share the values of a uniqueness constraint (Core Data's
/// `NSConstraintConflict`).
///
/// A conflict arises in one of two places:
///
/// - within one save: several objects of the save hold the values. ``databaseObjectID`` and
///   ``databaseSnapshot`` are nil and ``conflictingObjectIDs`` lists them all;
/// - between an object of the save and a stored row: ``databaseObjectID`` names the row,
///   ``databaseSnapshot`` is its stored state, and ``conflictingObjectIDs`` lists the one object.
///
/// ``conflictingSnapshots`` hold each conflicting object's last saved state, as its context read
/// it: nil for an object inserted by the save. Objects are named by ID, since errors cross
/// threads and objects may not: ``ManagedObjectContext/registeredObject(for:)`` of the saving
/// context gives them.
public struct ConstraintConflict: Sendable, Hashable, CustomStringConvertible {
    /// The entity that declares the constraint.
    public var entityName: String
    /// The constrained properties (Core Data's `constraint`).
    public var properties: [String]
    /// The object of the save that broke the constraint.
    public var objectID: ManagedObjectID
    /// The stored object that already holds the values; nil for a conflict within one save, or
    /// when the store cannot tell.
    public var databaseObjectID: ManagedObjectID?
    /// Every object of the save in the conflict, in the order of the save.
    public var conflictingObjectIDs: [ManagedObjectID]
    /// The last saved state of each of ``conflictingObjectIDs`` (nil for a new object).
    public var conflictingSnapshots: [ObjectSnapshot?]
    /// The stored row of ``databaseObjectID``.
    public var databaseSnapshot: ObjectSnapshot?
    /// The constrained values the objects share, by property (a to-one as its destination's ID).
    public var constraintValues: [String: AttributeValue]

    /// Creates a conflict.
    public init(entityName: String, properties: [String], objectID: ManagedObjectID, databaseObjectID: ManagedObjectID?,
                conflictingObjectIDs: [ManagedObjectID]? = nil, conflictingSnapshots: [ObjectSnapshot?]? = nil,
                databaseSnapshot: ObjectSnapshot? = nil, constraintValues: [String: AttributeValue] = [:]) {
        self.entityName = entityName
        self.properties = properties
        self.objectID = objectID
        self.databaseObjectID = databaseObjectID
        let conflicting = conflictingObjectIDs ?? [objectID]
        self.conflictingObjectIDs = conflicting
        self.conflictingSnapshots = conflictingSnapshots ?? conflicting.map { _ in nil }
        self.databaseSnapshot = databaseSnapshot
        self.constraintValues = constraintValues
    }

    /// Whether the conflict is within one save (no stored row is involved).
    public var isWithinSave: Bool { databaseObjectID == nil && conflictingObjectIDs.count > 1 }

    /// `Entity(a, b) of <object> already held by <object>`.
    public var description: String {
        if isWithinSave {
            return "\(entityName)(\(properties.joined(separator: ", "))) shared by "
                + conflictingObjectIDs.map(\.description).joined(separator: " and ")
        }
        return "\(entityName)(\(properties.joined(separator: ", "))) of \(objectID)"
            + (databaseObjectID.map { " is already held by \($0)" } ?? " is already held by another object")
    }
}
