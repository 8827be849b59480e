import Foundation

/// Checks an object graph held as snapshots: every relationship with an inverse is mirrored by
/// it (A.rel names B iff B.inverse names A), and every destination is an object of the graph.
@_spi(StoreImplementation)
public struct ObjectGraphCheck: Sendable {
    /// The model the snapshots follow.
    public let model: ManagedObjectModel
    /// The store file, for the problems' `file`.
    public let file: String

    /// Creates a check.
    public init(model: ManagedObjectModel, file: String) {
        self.model = model
        self.file = file
    }

    /// The destinations of `snapshot`'s `relationship` (nil: none or not loaded).
    private func destinations(_ snapshot: ObjectSnapshot, _ relationship: RelationshipDescription) -> [ManagedObjectID] {
        if relationship.isToMany { return snapshot.toMany[relationship.name] ?? [] }
        return snapshot.toOne[relationship.name].map { [$0] } ?? []
    }

    /// The references to objects `objects` does not hold, in store order.
    public func danglingReferences(in objects: [ManagedObjectID: ObjectSnapshot]) -> [DanglingReference] {
        var found: [DanglingReference] = []
        for snapshot in objects.values.sorted(by: { ManagedObjectID.storeOrder($0.objectID, $1.objectID) }) {
            guard let entity = model.entity(named: snapshot.objectID.entityName) else { continue }
            for relationship in entity.relationships where !relationship.isTransient {
                for destination in destinations(snapshot, relationship) where objects[destination] == nil {
                    found.append(DanglingReference(source: snapshot.objectID, relationship: relationship.name,
                                                   destinationEntityName: destination.entityName,
                                                   destinationPrimaryKey: destination.primaryKey))
                }
            }
        }
        return found
    }

    /// The relationships whose inverse does not mirror them, in store order: one problem per
    /// object, relationship and destination, from the side that names the destination.
    public func brokenInverses(in objects: [ManagedObjectID: ObjectSnapshot]) -> [IntegrityProblem] {
        var problems: [IntegrityProblem] = []
        for snapshot in objects.values.sorted(by: { ManagedObjectID.storeOrder($0.objectID, $1.objectID) }) {
            guard let entity = model.entity(named: snapshot.objectID.entityName) else { continue }
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) where !relationship.isTransient {
                guard let inverseName = relationship.inverseName,
                      let inverse = model.entity(named: relationship.destinationEntityName)?.relationship(named: inverseName),
                      !inverse.isTransient else { continue }
                for destination in destinations(snapshot, relationship) {
                    // A destination the store does not hold is a dangling reference, reported as such.
                    guard let other = objects[destination] else { continue }
                    if inverse.isToMany, other.toMany[inverseName] == nil { continue }   // not loaded: nothing to compare
                    guard !self.destinations(other, inverse).contains(snapshot.objectID) else { continue }
                    problems.append(IntegrityProblem(file: file, objectID: snapshot.objectID,
                                                     kind: .brokenInverse(relationship: relationship.name, destination: destination,
                                                                          inverse: inverseName)))
                }
            }
        }
        return problems
    }
}
