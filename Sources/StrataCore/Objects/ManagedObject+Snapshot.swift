import OrderedCollections

extension ManagedObject {
    /// Loads the object's values if it is a fault.
    ///
    /// - Throws: ``ObjectError/objectNotFound(_:)`` when the store no longer has the object and
    ///   ``ManagedObjectContext/shouldDeleteInaccessibleFaults`` is off (on, the object becomes a
    ///   deleted one with nil values),
    ///   ``ObjectError/objectDeleted(_:)`` when its delete was saved or its context is gone.
    public func fulfillFault() throws {
        guard isFault else { return }
        guard !isInvalidated, let context = managedObjectContext else { throw ObjectError.objectDeleted(objectID) }
        try context.fulfill(self)
    }

    /// Fills the object from a stored snapshot and tells it so (``awakeFromFetch()``).
    func load(_ snapshot: consuming ObjectSnapshot, in context: ManagedObjectContext) throws {
        try loadValues(snapshot, in: context)
        awakeFromFetch()
    }

    /// Fills the object from a stored snapshot without calling ``awakeFromFetch()``: the caller
    /// calls it once it runs no more under a store's lock.
    func loadValues(_ snapshot: consuming ObjectSnapshot, in context: ManagedObjectContext) throws {
        var toOnes = ToOneResolver()
        try loadValues(snapshot, in: context, resolvingToOnesWith: &toOnes, nextSharesThem: false)
    }

    /// Fills the object from a stored snapshot as ``loadValues(_:in:)`` does, its to-one
    /// destinations found by `toOnes`, which keeps them for the next snapshot loaded when
    /// `nextSharesThem` (``ToOneResolver``).
    func loadValues(_ snapshot: consuming ObjectSnapshot, in context: ManagedObjectContext,
                    resolvingToOnesWith toOnes: inout ToOneResolver, nextSharesThem: Bool) throws {
        // Maps that are and stay empty (a fault's, mostly) are left as they are.
        if !snapshot.toOne.isEmpty || hasToOnes {
            toOneValues = try toOnes.destinations(of: snapshot.toOne, in: context, nextSharesThem: nextSharesThem)
        }
        if let relationshipState {
            relationshipState.toManyValues = NameMap()
            relationshipState.unresolvedToMany = NameMap(snapshot.toMany)
        } else if !snapshot.toMany.isEmpty {
            relationships().unresolvedToMany = NameMap(snapshot.toMany)
        }
        // The values become the current ones and, until one changes, the saved ones too: the
        // saved state holds no second reference to them. They are swapped out of the snapshot,
        // not copied: the values the object had go with the snapshot.
        swap(&attributeValues, &snapshot.attributes)
        withAttributeLayout { layout in
            if !attributeValues.isLaidOut(as: layout) { attributeValues = attributeValues.laidOut(as: layout) }
        }
        commit(consume snapshot, attributesAreCurrent: true)
        isFault = false
    }

    /// The objects of `context` for the to-one destinations `ids` (a snapshot's). The IDs are
    /// read where the map keeps them, borrowed: a `for` loop over the map copied (retained and
    /// released) each name and ID on the way.
    static func toOneDestinations(of ids: borrowing NameMap<ManagedObjectID>, in context: ManagedObjectContext) throws -> ToOneDestinations {
        var destinations = ToOneDestinations()
        for index in ids.entries.indices {
            destinations[ids.entries[index].name] = try context.object(with: ids.entries[index].value)
        }
        return destinations
    }

    /// Drops the loaded values; the next access loads them again.
    func turnIntoFault() {
        if !isFault { willTurnIntoFault() }
        attributeValues = AttributeValues()
        dropRelationships()
        committed = nil
        isFault = true
        didTurnIntoFault()
    }

    /// The object's current state as a snapshot. Destinations are named by their objects' IDs;
    /// a temporary ID known only as an ID is named by its registered object's current ID (which
    /// differs while a save gives inserted objects permanent IDs).
    func currentSnapshot(version: Int64) -> ObjectSnapshot {
        // Nil only when leaving to-manys out.
        currentSnapshot(version: version, leavingOutHeldToManys: false)!
    }

    /// ``currentSnapshot(version:)`` for a part of a save (``PartedSaveStore``) with
    /// `leavingOutHeldToManys`: without each unordered to-many whose inverse is a stored to-one
    /// that every destination holds this object in and is saved with (its row carries the
    /// relationship); nil when such a to-many has a destination that does not, or is known by
    /// IDs only, and so must be written from this side.
    func currentSnapshot(version: Int64, leavingOutHeldToManys: Bool) -> ObjectSnapshot? {
        func current(_ ids: [ManagedObjectID]) -> [ManagedObjectID] {
            guard ids.contains(where: \.isTemporaryID), let context = managedObjectContext else { return ids }
            return ids.map { context.registry[$0]?.objectID ?? $0 }
        }
        // Parts first, the snapshot made whole at the end: one filled in place is copied on return.
        var attributes = attributeValues   // every stored value: shared, not copied
        if entity.hasTransientAttributes {
            for attribute in entity.attributes where attribute.isTransient { attributes[attribute.name] = nil }
        }
        var toMany: [String: [ManagedObjectID]] = [:]
        if relationshipState == nil, !hasCommittedState {
            // A new object that has loaded no to-many and knows none: each is empty, in the one
            // map the entity shares, not a map of its own per object (a large save holds them all).
            toMany = entity.emptyStoredToMany
        } else {
            for name in entity.storedToManyNames {
                let heldBy = leavingOutHeldToManys ? entity.inverseToOneHolding(name) : nil
                if let loaded = toManyValues[name] {
                    if let heldBy {
                        guard loaded.allSatisfy({ $0.holds(self, in: heldBy) }) else { return nil }
                        continue
                    }
                    toMany[name] = loaded.map { $0.objectID }
                } else if let known = unresolvedToMany[name] {
                    if heldBy != nil { return nil }
                    toMany[name] = current(known)
                } else if !hasCommittedState {
                    toMany[name] = []
                }
            }
        }
        return ObjectSnapshot(objectID: objectID, version: version, attributes: attributes, toOne: currentToOneIDs(), toMany: toMany)
    }

    /// Whether this object holds `owner` in its to-one `name` and is written by the save under
    /// way (inserted or updated), so that its row carries the relationship.
    private func holds(_ owner: ManagedObject, in name: String) -> Bool {
        (pendingChange == .inserted || pendingChange == .updated) && !isFault && toOne(named: name) === owner
    }

    /// The IDs of the object's stored to-one destinations.
    func currentToOneIDs() -> NameMap<ManagedObjectID> {
        var toOne = NameMap<ManagedObjectID>()
        for name in entity.storedToOneNames {
            if let destination = self.toOne(named: name) { toOne[name] = destination.objectID }
        }
        return toOne
    }

    /// Writes down the saved attribute values before the current ones change or are replaced,
    /// where they were kept only as the current values (``CommittedState/savedAttributes``).
    /// Every write of ``attributeValues`` calls this first.
    @inline(__always)
    func keepCommittedAttributes() {
        guard hasCommittedState else { return }
        if let relationshipState {
            if relationshipState.savedAttributes == nil { relationshipState.savedAttributes = attributeValues }
        } else {
            relationships().savedAttributes = attributeValues
        }
    }

    /// Writes down the saved to-ones before one of them changes, where they were kept only as
    /// the current destinations (``committedToOneIsCurrent``).
    func keepCommittedToOnes() {
        guard committedToOneIsCurrent else { return }
        relationships().savedToOne = currentToOneIDs()
        committedToOneIsCurrent = false
    }

    /// The stored attributes and to-ones whose values in `snapshot`, this object's current state,
    /// differ from the last saved state; nil when there is no saved state to compare with.
    func changedStoredProperties(in snapshot: ObjectSnapshot) -> [String]? {
        guard let committed else { return nil }
        let layout = entity.attributeLayout
        var changed = snapshot.attributes.positionsDiffering(from: committed.attributes(current: attributeValues), in: layout)
            .map { layout.names[$0] }
        if !committedToOneIsCurrent {
            let savedToOne = relationshipState?.savedToOne ?? NameMap()
            for name in entity.storedToOneNames where snapshot.toOne[name] != savedToOne[name] { changed.append(name) }
        }
        return changed
    }

    /// The properties whose values differ from the last saved state, with their new values
    /// (nil for a value that was cleared). An inserted object reports every value it has; an
    /// object with no tracked change (values set only by ``setPrimitiveValue(_:forKey:)``, which
    /// is not tracked) reports none.
    public func changedValues() -> [String: Any?] {
        guard !isFault, pendingChange != .none else { return [:] }
        let now = currentSnapshot(version: 0)
        let before = committedSnapshot ?? ObjectSnapshot(objectID: objectID)
        var changes: [String: Any?] = [:]
        for attribute in entity.attributes where !attribute.isTransient {
            let key = attribute.name
            guard now.attributes[key] != before.attributes[key] else { continue }
            changes[key] = try? value(forKey: key)
        }
        for relationship in entity.relationships where !relationship.isTransient {
            let key = relationship.name
            if relationship.isToMany {
                guard let current = now.toMany[key] else { continue }
                // A saved object's to-many that its saved state leaves out (a parted save's new
                // object's) is as its store holds it.
                let previous = before.toMany[key]
                    ?? (hasCommittedState ? (try? managedObjectContext?.relatedObjectIDs(of: self, relationship: key)) ?? [] : [])
                let differs = relationship.isOrdered ? current != previous : Set(current) != Set(previous)
                if differs, !(current.isEmpty && !hasCommittedState) { changes[key] = try? value(forKey: key) }
            } else if now.toOne[key] != before.toOne[key] {
                // updateValue keeps a cleared to-one as a nil entry (assigning nil would drop the key).
                changes.updateValue(toOne(named: key), forKey: key)
            }
        }
        return changes
    }

    /// The last saved values of `keys` (every property when nil); empty for an inserted object.
    public func committedValues(forKeys keys: [String]? = nil) throws -> [String: Any?] {
        try fulfillFault()
        guard let committed = committedSnapshot, let context = managedObjectContext else { return [:] }
        var values: [String: Any?] = [:]
        for key in keys ?? entity.properties.filter({ !$0.isTransient }).map(\.name) {
            switch try propertyDescription(forKey: key) {
            case .attribute(let attribute):
                values.updateValue(try committed.attributes[key].map { try $0.swiftValue(for: attribute, entity: entity.name) }, forKey: key)
            case .relationship(let relationship):
                if relationship.isToMany {
                    let ids = try committed.toMany[key] ?? context.relatedObjectIDs(of: self, relationship: key)
                    let objects = try ids.map { try context.object(with: $0) }
                    values[key] = relationship.isOrdered ? objects as Any : Set(objects) as Any
                } else {
                    values.updateValue(try committed.toOne[key].map { try context.object(with: $0) }, forKey: key)
                }
            case .fetchedProperty:
                continue
            }
        }
        return values
    }
}
