import Synchronization

/// The table of ``ManagedObject`` subclasses registered per entity, one per coordinator.
final class ObjectClassTable: Sendable {
    let classes = Mutex<[String: ManagedObject.Type]>([:])
}

extension PersistentStoreCoordinator {
    /// Makes instances of `type` stand for objects of `entityName` (and of its sub-entities
    /// that have no class of their own) in every context of this coordinator.
    public func register(_ type: ManagedObject.Type, forEntityName entityName: String? = nil) {
        let name = entityName ?? type.entityName
        objectClasses.classes.withLock { $0[name] = type }
    }

    /// The class registered for `entity` or its nearest ancestor; `ManagedObject` otherwise.
    public func objectClass(forEntity entity: String) -> ManagedObject.Type {
        let table = objectClasses.classes.withLock { $0 }
        var current: String? = entity
        while let name = current {
            if let type = table[name] { return type }
            current = managedObjectModel.entitiesByName[name]?.superentityName
        }
        return ManagedObject.self
    }
}
