import Foundation

/// The cascades a root context leaves to its store: deleting an object whose cascading to-many
/// was never loaded does not make its destinations objects when their deletion needs none (see
/// ``ManagedObjectContext/cascadesInStore(_:of:)``). The sources wait here; the save lists
/// their destinations in the store (their IDs and versions only), deletes as objects those
/// registered in the context and sends the others to the store as IDs.
struct StoreCascades {
    /// A cascading to-many of sources of one entity, deleted with their destinations unloaded.
    struct Group {
        let entity: String
        let relationship: RelationshipDescription
        var sources: [ManagedObjectID]
    }

    /// What ``ManagedObjectContext/cascadesInStore(_:of:)`` decided last, for the relationship of
    /// an entity in a store at a class generation: deletes come in runs of one entity, and a run's
    /// repeats compare names instead of building and hashing a key.
    struct Decision {
        let store: String
        let entity: String
        let relationship: String
        let generation: UInt64
        let eligible: Bool
        /// The destination entity and its descendants.
        let destinations: Set<String>
    }

    /// The waiting sources, grouped by their entity and relationship.
    private(set) var groups: [Group] = []
    /// The index in ``groups`` of each entity's relationship (`entity \0 relationship`).
    private var groupIndexes: [String: Int] = [:]
    /// The destinations listed by the last resolution that no object stands for: sent to the
    /// store as deleted IDs with the versions read.
    var unregistered: [StoreSaveRequest.DeletedObject] = []
    /// Whether each relationship (`store \0 entity \0 relationship`) may cascade in its store, at
    /// the coordinator's class generation `generation`.
    var eligibility: [String: Bool] = [:]
    var generation: UInt64 = .max
    /// The decision taken last.
    var lastDecision: Decision?
    /// Set while a save processes the pending changes, having just listed the destinations.
    var isSaving = false

    /// Whether no source waits.
    var isEmpty: Bool { groups.isEmpty }

    /// Lists `source` as deleted with its `relationship` left to the store.
    mutating func add(_ source: ManagedObjectID, relationship: RelationshipDescription, entity: String) {
        if let last = groups.indices.last, groups[last].entity == entity, groups[last].relationship.name == relationship.name {
            groups[last].sources.append(source)
            return
        }
        let key = entity + "\u{0}" + relationship.name
        if let index = groupIndexes[key] {
            groups[index].sources.append(source)
        } else {
            groupIndexes[key] = groups.count
            groups.append(Group(entity: entity, relationship: relationship, sources: [source]))
        }
    }

    /// Forgets every waiting source and listed destination (the eligibility answers stay).
    mutating func removeAll() {
        groups = []
        groupIndexes = [:]
        unregistered = []
    }
}

extension ManagedObjectContext {
    /// Whether the cascading to-many `relationship` of `object`, being deleted, is left to the
    /// store instead of being loaded: then `object` is listed for the save, and true returned.
    ///
    /// That is so only when nothing observable needs the destinations as objects: a root context
    /// without an undo manager; a saved source whose to-many is not loaded; a store that lists
    /// destinations by their foreign key (``CascadeListingStore``); destinations of
    /// `ManagedObject` itself (no `prepareForDeletion`, `willSave` or `didSave` of a subclass)
    /// whose entities have no relationship but the inverse to-one, with a nullify or no-action
    /// rule (nothing further to delete, deny or nullify); and no object of the destination
    /// entities registered in the context (those are found when the save lists the destinations).
    func cascadesInStore(_ relationship: RelationshipDescription, of object: ManagedObject) -> Bool {
        guard parent == nil, objectsLink.undoRecorder == nil, relationship.isToMany, object.committed != nil,
              let storeIdentifier = object.objectID.storeIdentifier,
              object.relationshipState?.toManyValues.index(of: relationship.name) == nil,
              object.relationshipState?.unresolvedToMany.index(of: relationship.name) == nil else { return false }
        let generation = persistentStoreCoordinator.objectClasses.generation.load(ordering: .acquiring)
        let decision: StoreCascades.Decision
        if let last = storeCascades.lastDecision, last.generation == generation, last.relationship == relationship.name,
           last.entity == object.entity.name, last.store == storeIdentifier {
            decision = last
        } else {
            if generation != storeCascades.generation {
                storeCascades.eligibility = [:]
                storeCascades.generation = generation
            }
            let key = storeIdentifier + "\u{0}" + object.entity.name + "\u{0}" + relationship.name
            let eligible: Bool
            if let known = storeCascades.eligibility[key] {
                eligible = known
            } else {
                eligible = cascadeIsEligible(relationship, storeIdentifier: storeIdentifier)
                storeCascades.eligibility[key] = eligible
            }
            decision = .init(store: storeIdentifier, entity: object.entity.name, relationship: relationship.name, generation: generation,
                             eligible: eligible, destinations: Set(model.entityAndDescendants(of: relationship.destinationEntityName)))
            storeCascades.lastDecision = decision
        }
        guard decision.eligible, !registry.mayHoldObjects(ofEntities: decision.destinations) else { return false }
        storeCascades.add(object.objectID, relationship: relationship, entity: object.entity.name)
        return true
    }

    /// The part of ``cascadesInStore(_:of:)`` that depends on the model, the classes and the
    /// store only.
    private func cascadeIsEligible(_ relationship: RelationshipDescription, storeIdentifier: String) -> Bool {
        guard let inverseName = relationship.inverseName,
              persistentStoreCoordinator.persistentStore(withIdentifier: storeIdentifier)?.listsCascadeDestinations == true
        else { return false }
        for name in model.entityAndDescendants(of: relationship.destinationEntityName) {
            guard let entity = model.entitiesByName[name],
                  persistentStoreCoordinator.objectClass(forEntity: name) == ManagedObject.self,
                  entity.relationships.count == 1, let only = entity.relationships.first,
                  only.name == inverseName, !only.isToMany, only.deleteRule == .nullify || only.deleteRule == .noAction
            else { return false }
        }
        return true
    }

    /// Lists the destinations of the waiting sources (those still deleted) in their store: each
    /// destination registered here that still belongs to a deleted source is deleted as an
    /// object, with its rules; the others are kept as IDs for the save
    /// (``StoreCascades/unregistered``), or with `makingObjects` made objects and deleted too
    /// (what a fetch needs, so that it leaves them out as it leaves out every pending delete).
    /// The sources stay listed until the save lands, so that a save tried again lists again.
    func resolveStoreCascades(makingObjects: Bool) throws {
        guard !storeCascades.isEmpty else { return }
        var unregistered: [StoreSaveRequest.DeletedObject] = []
        for group in storeCascades.groups {
            let sources = group.sources.filter { id in registry[id].map { $0.pendingChange == .deleted } ?? false }
            guard let first = sources.first, let inverseName = group.relationship.inverseName else { continue }
            guard let store = persistentStoreCoordinator.persistentStore(of: first),
                  let listed = try store.cascadeDestinationsInStore(of: sources, relationship: group.relationship.name) else {
                throw StoreError.missingObject(first)
            }
            var objects: [ManagedObject] = []
            for destination in listed {
                if let registered = registry[destination.objectID] {
                    objects.append(registered)
                } else if makingObjects {
                    objects.append(try object(with: destination.objectID))
                } else {
                    unregistered.append(destination)
                    pendingChanges.deletedIDs.insert(destination.objectID)
                }
            }
            guard !objects.isEmpty else { continue }
            // Deleted as objects while they still belong to a deleted source (a registered
            // destination may have been moved to another since).
            try fillFaults(objects)
            let deletedSources = Set(sources)
            for object in objects where !object.isFault {
                if let owner = object.toOneValues[inverseName], deletedSources.contains(owner.objectID) {
                    try deleteApplyingRules(object)
                }
            }
        }
        storeCascades.unregistered = unregistered
        if makingObjects { storeCascades.removeAll() }
    }
}
