import OrderedCollections

/// What a context with an ``ObjectUndoManager`` registers for each change it records: the
/// object, the key and the value the change replaced, never a copy of the object.
///
/// The context's objects reach the recorder through the link they share with the context
/// (``ContextLink/undoRecorder``): without a manager the link holds none, and recording a change
/// costs one nil check. Reverting a step goes through the object's setters, which record the
/// opposite step, so an undo registers its redo.
final class ContextUndoRecorder {
    /// The manager the steps are registered with.
    let manager: ObjectUndoManager
    /// The context whose changes are recorded.
    weak var context: ManagedObjectContext?
    /// How many times recording was suspended (merges, refreshes) and not resumed again.
    var suspensions = 0
    /// The slots (object and key) whose value at the start of the open group is recorded already:
    /// a key changed again in the same group needs no second step, as undoing the first restores
    /// the value the group started with. Emptied once another group is open
    /// (``ObjectUndoManager/groupSerial`` moved on).
    private var recordedSlots: Set<Slot> = []
    /// The manager's ``ObjectUndoManager/groupSerial`` when ``recordedSlots`` was last written.
    private var slotsSerial = 0

    /// An object's property, as a key of ``recordedSlots``.
    private struct Slot: Hashable {
        let object: ObjectIdentifier
        let key: String
    }

    /// A recorder registering the changes of `context` with `manager`.
    init(manager: ObjectUndoManager, context: ManagedObjectContext) {
        self.manager = manager
        self.context = context
    }

    /// Whether a change made now is to be registered.
    private var isRecording: Bool { suspensions == 0 && manager.isUndoRegistrationEnabled }

    /// Whether the slot `key` of `object` still needs its value at the start of the group
    /// recorded. While undoing or redoing every revert is recorded: each one restores a slot once.
    private func needsRecording(_ object: ManagedObject, _ key: String) -> Bool {
        guard isRecording else { return false }
        if manager.isUndoing || manager.isRedoing { return true }
        if slotsSerial != manager.groupSerial { return true }
        return !recordedSlots.contains(Slot(object: ObjectIdentifier(object), key: key))
    }

    /// Registers `step`, to be reverted when the group is undone; `key` names the slot it
    /// restores, written down once the group it joins is open.
    private func register(_ step: ContextUndoStep, slot key: String? = nil) {
        // Only misuse throws (no group open with grouping by event off); the step is dropped then.
        try? manager.registerUndo(withTarget: self, payload: step) { recorder in recorder.revert(step) }
        if let key, !manager.isUndoing, !manager.isRedoing {
            if slotsSerial != manager.groupSerial {
                recordedSlots.removeAll(keepingCapacity: true)
                slotsSerial = manager.groupSerial
            }
            recordedSlots.insert(Slot(object: ObjectIdentifier(step.object), key: key))
        }
    }

    // MARK: Recording

    /// Records that the attribute `key` of `object` is about to change from `old`.
    func attributeWillChange(_ object: ManagedObject, _ key: String, from old: AttributeValue?) {
        guard needsRecording(object, key) else { return }
        register(.attribute(object, key, old), slot: key)
    }

    /// Records that the attribute at `position` of `layout` is about to change: reads the value
    /// it has now.
    func attributeWillChange(_ object: ManagedObject, at position: Int, of layout: AttributeLayout) {
        let key = layout.names[position]
        guard needsRecording(object, key) else { return }
        let old = object.attributeValues.isLaidOut(as: layout)
            ? object.attributeValues[position: position] : object.attributeValues[key]
        register(.attribute(object, key, old), slot: key)
    }

    /// Records that the to-one `key` of `object` is about to change from `old`.
    func toOneWillChange(_ object: ManagedObject, _ key: String, from old: ManagedObject?) {
        guard needsRecording(object, key) else { return }
        register(.toOne(object, key, old), slot: key)
    }

    /// Records that the loaded to-many `key` of `object` is about to become `new`: the
    /// destinations added and removed for an unordered one, the destinations it had for an
    /// ordered one (whose order changes too).
    func toManyWillChange(_ object: ManagedObject, _ key: String, to new: OrderedSet<ManagedObject>) {
        guard isRecording else { return }
        let old = object.toManyValues[key] ?? []
        if object.entity.relationship(named: key)?.isOrdered == true {
            guard needsRecording(object, key) else { return }
            register(.orderedToMany(object, key, old), slot: key)
            return
        }
        let added = Array(new.filter { !old.contains($0) })
        let removed = Array(old.filter { !new.contains($0) })
        guard !added.isEmpty || !removed.isEmpty else { return }
        register(.toMany(object, key, added: added, removed: removed))
    }

    /// Records that `destination` is about to be added to (or, when not `adding`, removed from)
    /// the loaded to-many `key` of `object`.
    func toManyWillChange(_ object: ManagedObject, _ key: String, _ destination: ManagedObject, adding: Bool) {
        guard isRecording else { return }
        let old = object.toManyValues[key] ?? []
        guard old.contains(destination) != adding else { return }
        if object.entity.relationship(named: key)?.isOrdered == true {
            guard needsRecording(object, key) else { return }
            register(.orderedToMany(object, key, old), slot: key)
            return
        }
        register(.toMany(object, key, added: adding ? [destination] : [], removed: adding ? [] : [destination]))
    }

    /// Records that `object` was inserted: undoing it takes the object out again.
    func inserted(_ object: ManagedObject) {
        guard isRecording else { return }
        register(.existence(object, exists: false, values: nil, listing: .none))
    }

    /// Records that `object`, listed as `listing` before, was deleted and its delete rules
    /// applied: undoing it brings the object back with its values (which the step holds, as a
    /// saved delete or the delete of an unsaved insert drops them from the object).
    func deleted(_ object: ManagedObject, listedBefore listing: PendingChange) {
        guard isRecording else { return }
        register(.existence(object, exists: true, values: ObjectValues(of: object), listing: listing))
    }

    /// Records that an undo or redo changed whether `object` exists: the opposite step.
    func existenceChanged(_ object: ManagedObject, existed: Bool, values: ObjectValues?, listing: PendingChange) {
        guard isRecording else { return }
        register(.existence(object, exists: existed, values: values, listing: listing))
    }

    // MARK: Reverting

    /// Applies `step` through the object's setters (which record the opposite step). A step on
    /// an object no longer usable (cut loose by a merge of its delete) is skipped.
    func revert(_ step: ContextUndoStep) {
        guard let context else { return }
        switch step {
        case .attribute(let object, let key, let value):
            try? object.restoreAttribute(key, to: value)
        case .toOne(let object, let key, let destination):
            guard !object.isInvalidated else { return }
            try? object.primitiveSetToOne(key, destination)
        case .toMany(let object, let key, let added, let removed):
            guard !object.isInvalidated, var current = try? object.loadedToMany(key) else { return }
            for destination in added { current.remove(destination) }
            for destination in removed { current.append(destination) }
            try? object.primitiveSetToMany(key, current)
        case .orderedToMany(let object, let key, let destinations):
            guard !object.isInvalidated else { return }
            try? object.primitiveSetToMany(key, destinations)
        case .existence(let object, let exists, let values, let listing):
            context.setExistence(of: object, exists: exists, values: values, listing: listing)
        }
    }
}

/// One recorded change, holding what it replaced: the old value of one attribute or to-one,
/// the destinations added to and removed from an unordered to-many, the destinations of an
/// ordered to-many, or whether an object exists (with its values when it is to come back).
enum ContextUndoStep {
    /// Set attribute `key` of the object back to the value.
    case attribute(ManagedObject, String, AttributeValue?)
    /// Set to-one `key` of the object back to the destination.
    case toOne(ManagedObject, String, ManagedObject?)
    /// Take `added` out of the unordered to-many `key` of the object and put `removed` back.
    case toMany(ManagedObject, String, added: [ManagedObject], removed: [ManagedObject])
    /// Set the ordered to-many `key` of the object back to the destinations.
    case orderedToMany(ManagedObject, String, OrderedSet<ManagedObject>)
    /// Make the object exist (again, with `values` and as `listing` when it is still listed as
    /// deleted) or not.
    case existence(ManagedObject, exists: Bool, values: ObjectValues?, listing: PendingChange)

    /// The object the step changes.
    var object: ManagedObject {
        switch self {
        case .attribute(let object, _, _), .toOne(let object, _, _), .toMany(let object, _, _, _),
             .orderedToMany(let object, _, _), .existence(let object, _, _, _): object
        }
    }

    /// How many values and destinations the step holds: what its memory grows with.
    var heldValueCount: Int {
        switch self {
        case .attribute, .toOne: 1
        case .toMany(_, _, let added, let removed): added.count + removed.count
        case .orderedToMany(_, _, let destinations): destinations.count
        case .existence(_, _, let values, _): values?.count ?? 0
        }
    }
}

/// The values of an object whose delete drops them: attributes, to-one destinations and loaded
/// to-many destinations, shared with the object (copied only if either changes).
struct ObjectValues {
    let attributes: AttributeValues
    let toOnes: ToOneDestinations
    let toManys: NameMap<OrderedSet<ManagedObject>>

    /// The values `object` has now, its to-manys loaded first.
    init(of object: ManagedObject) {
        for relationship in object.entity.relationships where relationship.isToMany {
            try? object.loadToMany(relationship.name)
        }
        attributes = object.attributeValues
        toOnes = object.toOneValues
        toManys = object.toManyValues
    }

    /// How many values and destinations are held.
    var count: Int {
        attributes.count + toOnes.values.count + toManys.values.reduce(0) { $0 + $1.count }
    }
}
