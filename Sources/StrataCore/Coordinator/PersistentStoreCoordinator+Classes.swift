import Synchronization

/// The table of ``ManagedObject`` subclasses registered per entity, one per coordinator, with the
/// class each entity resolved to (its own, its nearest ancestor's, or `ManagedObject`) once asked.
final class ObjectClassTable: Sendable {
    struct Classes {
        /// The classes registered, by entity name.
        var registered: [String: ManagedObject.Type] = [:]
        /// The class each entity asked for resolved to; emptied by every registration. Found by
        /// comparing names: every new object asks.
        var resolved = NameMap<ManagedObject.Type>()
    }

    let classes = LockedValue(Classes())
    /// Raised by every registration: a context that remembers the class it resolved for an
    /// entity uses it while the generation has not moved.
    let generation = Atomic<UInt64>(0)
}

extension PersistentStoreCoordinator {
    /// Makes instances of `type` stand for objects of `entityName` (and of its sub-entities
    /// that have no class of their own) in every context of this coordinator.
    public func register(_ type: ManagedObject.Type, forEntityName entityName: String? = nil) {
        let name = entityName ?? type.entityName
        objectClasses.classes.withLock { classes in
            classes.registered[name] = type
            classes.resolved = NameMap()
            objectClasses.generation.add(1, ordering: .releasing)
        }
    }

    /// The class registered for `entity` or its nearest ancestor; `ManagedObject` otherwise.
    public func objectClass(forEntity entity: String) -> ManagedObject.Type {
        objectClasses.classes.withLock { classes in
            if let known = classes.resolved[entity] { return known }
            var resolved: ManagedObject.Type = ManagedObject.self
            var current: String? = entity
            while let name = current {
                if let type = classes.registered[name] {
                    resolved = type
                    break
                }
                current = managedObjectModel.entitiesByName[name]?.superentityName
            }
            classes.resolved[entity] = resolved
            return resolved
        }
    }
}
