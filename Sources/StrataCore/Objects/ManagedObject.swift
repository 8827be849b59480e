import Foundation
import OrderedCollections

/// An object of the graph: an instance of an entity, living in one context.
///
/// Read and write properties by name (`value(forKey:)`, `setValue(_:forKey:)`), by key path,
/// or through the typed properties of a subclass registered for the entity. An object is a
/// fault until first used; it fills itself from its store on first access.
///
/// Objects are confined to their context: they are not `Sendable`. Pass
/// ``objectID`` between contexts instead.
open class ManagedObject: KeyValueCoding, IdentifiedKeyValue, Hashable, CustomStringConvertible {
    /// The object's ID; temporary until the first save.
    public final internal(set) var objectID: ManagedObjectID {
        _read { yield storedObjectID }
        set { storedObjectID = newValue }
    }
    /// Whether the object's values have not been loaded yet.
    public final internal(set) var isFault: Bool {
        get { storedIsFault }
        set { storedIsFault = newValue }
    }
    // The public properties above are computed: another module reads a public stored property
    // of a class in place, with a run-time exclusivity check that costs several times the call.
    // The ID is yielded: a caller in another module that reads one of its parts copies it (a
    // retain and a release), which costs less than the check.

    // The `@exclusivity(unchecked)` state below is used on the context's queue only, and never
    // while another access to the same property is open; each says what skipping the run-time
    // check saves. The flags, the to-one position and the version come first, in the 7 bytes the
    // ID leaves before the next word: an object is 72 bytes, in glibc's 80-byte block, where
    // with them among the references it took 96 or 112.

    /// The storage of ``objectID``.
    // Unchecked: read for every registry lookup, comparison and snapshot of the object.
    @exclusivity(unchecked) private final var storedObjectID: ManagedObjectID
    /// The storage of ``isFault``.
    // Unchecked: read for every value read or set.
    @exclusivity(unchecked) private final var storedIsFault = true
    /// The position of ``firstToOne``'s relationship among the entity's to-ones
    /// (`EntityDescription/toOneNames`); meaningful while ``firstToOne`` is not nil.
    // Unchecked: read for every to-one read.
    @exclusivity(unchecked) final var firstToOnePosition: UInt8 = 0
    /// ``isDetached``, ``isRegistered`` and ``isDeletedInStore`` (bits 0 to 2),
    /// ``pendingChange`` (bits 3 and 4) and ``committedKind`` (bits 5 and 6), in one byte.
    // Unchecked: read for every value read or set, written for every object a fetch registers.
    @exclusivity(unchecked) private final var stateBits: UInt8 = 0
    /// ``committedVersion`` when it is at least 0 and below `UInt32.max`; otherwise `UInt32.max`,
    /// and the version is ``RelationshipState/largeVersion``.
    // Unchecked: written for every fetched row, read for every save of the object.
    @exclusivity(unchecked) private final var compactVersion: UInt32 = 0
    /// The object's entity.
    public final let entity: EntityDescription
    /// The context the object lives in; nil once deleted and saved, after a reset, or once the
    /// context is gone.
    public final internal(set) var managedObjectContext: ManagedObjectContext? {
        get {
            guard let contextLink, !contextLink.isEnded else { return nil }
            return contextLink.context
        }
        set { contextLink = newValue?.objectsLink }
    }

    /// The link to the context the object was registered in, shared by all its objects.
    // Unchecked: read for every value read or set (``isInvalidated``).
    @exclusivity(unchecked) final var contextLink: ContextLink?
    /// Whether the object can no longer be used: cut loose, or its context reset or gone.
    final var isInvalidated: Bool { isDetached || contextLink?.isEnded == true }

    /// The attribute values, in the entity's layout once the object is loaded or inserted.
    // Unchecked: read for every attribute read, written for every attribute set and fetched row.
    @exclusivity(unchecked) var attributeValues = AttributeValues()
    /// The object's one to-one destination, or the state most loaded objects never need
    /// (``relationshipState``), in one reference.
    // Unchecked: read for every to-one read and fetched row, written for every fetched row that has to-ones.
    @exclusivity(unchecked) final var links = ObjectLinks.none

    /// Whether the object was cut loose from its context (deleted and saved, rolled back as an
    /// insert, or cut loose as its context went).
    final var isDetached: Bool {
        @inline(__always) get { stateBits & 0b1 != 0 }
        set { stateBits = newValue ? stateBits | 0b1 : stateBits & ~0b1 }
    }
    /// Whether the registry of the context of ``contextLink`` holds this object: set and
    /// cleared by ``ObjectRegistry`` only, so that a freed object lists itself with its context
    /// exactly when it has an entry there to take out.
    final var isRegistered: Bool {
        @inline(__always) get { stateBits & 0b10 != 0 }
        set { stateBits = newValue ? stateBits | 0b10 : stateBits & ~0b10 }
    }
    /// Whether a merge (or a fault that found no row) told the context that the object's row is
    /// gone from its store: the object stays registered with its last values and reads as
    /// deleted (``isDeleted``), though no save of this context deleted it.
    final var isDeletedInStore: Bool {
        @inline(__always) get { stateBits & 0b100 != 0 }
        set { stateBits = newValue ? stateBits | 0b100 : stateBits & ~0b100 }
    }
    /// Which change list of its context holds the object.
    final var pendingChange: PendingChange {
        @inline(__always) get { PendingChange(rawValue: (stateBits >> 3) & 0b11) ?? .none }
        set { stateBits = (stateBits & ~0b1_1000) | newValue.rawValue << 3 }
    }
    /// Whether the object has a last saved state (``committed``) and, if so, whether its saved
    /// to-ones are its current to-one destinations (``committedToOneIsCurrent``).
    final var committedKind: CommittedKind {
        @inline(__always) get { CommittedKind(rawValue: (stateBits >> 5) & 0b11) ?? .none }
        set { stateBits = (stateBits & ~0b110_0000) | newValue.rawValue << 5 }
    }

    /// The row version of the last saved state the object knows, while ``committedKind`` is not
    /// `none` (``committed``): kept in the object's four bytes unless it is negative or does not
    /// fit them (a file may hold any 64-bit version), then in ``relationshipState``.
    final var committedVersion: Int64 {
        @inline(__always) get {
            compactVersion != .max ? Int64(compactVersion) : relationshipState?.largeVersion ?? Int64(UInt32.max)
        }
        set {
            if newValue >= 0, newValue < Int64(UInt32.max) {
                compactVersion = UInt32(truncatingIfNeeded: newValue)
            } else {
                compactVersion = .max
                relationships().largeVersion = newValue
            }
        }
    }

    /// The destination of one to-one, the one at ``firstToOnePosition`` among the entity's
    /// to-ones, while the object has no ``relationshipState``; once it has one, every to-one is
    /// there (``ManagedObject/toOne(named:)`` reads both).
    final var firstToOne: ManagedObject? {
        @inline(__always) get { if case .toOne(let destination) = links { destination } else { nil } }
    }

    /// The to-manys, the saved relationships, the to-ones and the saved attribute values once
    /// they differ from the current ones, once the object has any (``relationships()`` makes it).
    final var relationshipState: RelationshipState? {
        @inline(__always) get { if case .state(let state) = links { state } else { nil } }
    }

    /// Whether the saved to-ones are the object's current to-one destinations, which then are
    /// the only record of them until one changes (``keepCommittedToOnes()``): a loaded object
    /// keeps no map of its own for them. Meaningful while ``committed`` is not nil; setting it
    /// while there is none does nothing.
    final var committedToOneIsCurrent: Bool {
        @inline(__always) get { committedKind == .toOnesCurrent }
        set { if committedKind != .none { committedKind = newValue ? .toOnesCurrent : .toOnesSaved } }
    }

    /// Whether the object has a last saved state: ``committed`` is not nil.
    final var hasCommittedState: Bool {
        @inline(__always) get { committedKind != .none }
    }

    /// The version and attribute values of the last saved state the object knows; nil for an
    /// inserted object. Kept as ``committedVersion`` and, once they differ from the current
    /// ones, the saved attribute values in ``relationshipState``; the saved relationships are
    /// there too. Setting a state where there was none leaves ``committedToOneIsCurrent`` false.
    var committed: CommittedState? {
        get {
            guard committedKind != .none else { return nil }
            return CommittedState(version: committedVersion, savedAttributes: relationshipState?.savedAttributes)
        }
        set {
            guard let newValue else {
                committedKind = .none
                relationshipState?.savedAttributes = nil
                return
            }
            if committedKind == .none { committedKind = .toOnesSaved }
            committedVersion = newValue.version
            if let saved = newValue.savedAttributes {
                relationships().savedAttributes = saved
            } else {
                relationshipState?.savedAttributes = nil
            }
        }
    }

    /// The destinations of the to-ones that have one, as one value: what a snapshot, an undo
    /// or a fault takes or sets whole. Reading or setting one to-one goes through
    /// ``toOne(named:)`` and ``setToOne(_:named:)``, which copy nothing.
    var toOneValues: ToOneDestinations {
        get {
            var destinations = ToOneDestinations()
            switch links {
            case .none: break
            case .toOne(let destination): destinations[entity.toOneNames[Int(firstToOnePosition)]] = destination
            case .state(let state): for (name, object) in state.toOnes { destinations[name] = object }
            }
            return destinations
        }
        set { setToOnes(newValue) }
    }

    /// The destinations of the to-manys loaded as objects.
    var toManyValues: NameMap<OrderedSet<ManagedObject>> {
        get { relationshipState?.toManyValues ?? NameMap() }
        set { if relationshipState != nil || !newValue.isEmpty { relationships().toManyValues = newValue } }
        _modify { yield &relationships().toManyValues }
    }

    /// The destinations of to-manys known by ID and not loaded as objects yet.
    var unresolvedToMany: NameMap<[ManagedObjectID]> {
        get { relationshipState?.unresolvedToMany ?? NameMap() }
        set { if relationshipState != nil || !newValue.isEmpty { relationships().unresolvedToMany = newValue } }
        _modify { yield &relationships().unresolvedToMany }
    }

    /// Whether the object holds other objects (a to-one destination or a to-many loaded as
    /// objects): only such an object can be part of a cycle of strong references.
    final var holdsObjects: Bool {
        hasToOnes || relationshipState?.toManyValues.isEmpty == false
    }

    /// The object's ``relationshipState``, made if it has none yet.
    /// A to-one kept in the object moves into it.
    @inline(__always)
    final func relationships() -> RelationshipState {
        switch links {
        case .state(let state):
            return state
        case .toOne(let destination):
            let state = RelationshipState()
            state.toOnes[entity.toOneNames[Int(firstToOnePosition)]] = destination
            links = .state(state)
            return state
        case .none:
            let state = RelationshipState()
            links = .state(state)
            return state
        }
    }

    /// Drops the object's ``relationshipState`` and its to-ones: what turning into a fault or
    /// becoming new again does before setting them anew.
    final func dropRelationships() {
        links = .none
    }

    /// ``committed`` and the saved relationships as a snapshot of this object.
    var committedSnapshot: ObjectSnapshot? {
        guard let committed else { return nil }
        let toOne = committedToOneIsCurrent ? currentToOneIDs() : relationshipState?.savedToOne ?? NameMap()
        return ObjectSnapshot(objectID: objectID, version: committed.version, attributes: committed.attributes(current: attributeValues),
                              toOne: toOne, toMany: relationshipState?.savedToMany ?? [:])
    }

    /// Takes `snapshot`, the object's state as just read or saved, as its last saved state. Its
    /// to-ones are the object's current destinations; with `attributesAreCurrent`, so are its
    /// attribute values, and the snapshot's are not kept.
    final func commit(_ snapshot: consuming ObjectSnapshot, attributesAreCurrent: Bool = false) {
        committedVersion = snapshot.version
        committedKind = .toOnesCurrent
        if let relationshipState {
            relationshipState.savedAttributes = attributesAreCurrent ? nil : snapshot.attributes
            relationshipState.savedToOne = NameMap()
            relationshipState.savedToMany = snapshot.toMany
        } else if !attributesAreCurrent || snapshot.toMany.contains(where: { !$0.value.isEmpty }) {
            // To-manys all empty are not kept as saved for an object with no state: they are
            // what the store holds (as for a to-many never loaded), not worth a state each.
            let state = relationships()
            if !attributesAreCurrent { state.savedAttributes = snapshot.attributes }
            state.savedToMany = snapshot.toMany
        }
    }

    /// Creates an object of `entity` with `objectID`. Contexts call this; to make a new object
    /// use ``ManagedObjectContext/insertNewObject(forEntityName:)`` or ``init(context:)``.
    public required init(entity: EntityDescription, objectID: ManagedObjectID) {
        self.entity = entity
        self.storedObjectID = objectID
    }

    deinit {
        // A loaded object of a subclass that goes while its context lives turns into a fault
        // first, as Core Data's objects do when they are released.
        if !isFault, type(of: self) != ManagedObject.self, isRegistered, contextLink?.isEnded == false {
            willTurnIntoFault()
            didTurnIntoFault()
        }
        // The context holds its objects unretained: a registered object lists itself with it as
        // it goes (the registry's rules are in ObjectRegistry.swift).
        listAsFreed()
    }

    /// The entity name a subclass stands for; by default the class's own name.
    open class var entityName: String { String(describing: self) }

    /// Inserts a new object of this class's entity (``entityName``) into `context`.
    ///
    /// - Throws: ``ObjectError/unknownEntity(_:)`` or ``ObjectError/abstractEntity(_:)``.
    public convenience init(context: ManagedObjectContext) throws {
        let model = context.persistentStoreCoordinator.managedObjectModel
        let name = Self.entityName
        guard let entity = model.entitiesByName[name] else { throw ObjectError.unknownEntity(name) }
        guard !entity.isAbstract else { throw ObjectError.abstractEntity(name) }
        self.init(entity: entity, objectID: .temporary(entityName: name))
        context.register(inserted: self)
    }

    // MARK: State

    /// Whether the object was inserted and not yet saved.
    public var isInserted: Bool { pendingChange == .inserted && managedObjectContext != nil }
    /// Whether the object has unsaved changes.
    public var isUpdated: Bool { pendingChange == .updated && managedObjectContext != nil }
    /// Whether the object was deleted and the delete is not yet saved, or a merge (or a fault
    /// that found no row, see ``ManagedObjectContext/shouldDeleteInaccessibleFaults``) reported
    /// its row deleted from the store.
    public var isDeleted: Bool { (pendingChange == .deleted || isDeletedInStore) && managedObjectContext != nil }
    /// Whether the object was inserted, changed or deleted since the last save.
    public var hasChanges: Bool { pendingChange != .none && managedObjectContext != nil }

    // MARK: Lifecycle hooks

    /// Called once, when the object is first inserted. Set initial values here.
    open func awakeFromInsert() {}
    /// Called when the object's values are loaded from its store.
    open func awakeFromFetch() {}
    /// Called once before the object's changes are saved. What it changes — values of this or
    /// other objects, objects it inserts or deletes — is saved with the rest (an object it
    /// inserts gets its own `willSave()` call).
    open func willSave() {}
    /// Called after the object's changes were saved, a saved delete included (as in Core Data).
    open func didSave() {}
    /// Called on every ``ManagedObjectContext/delete(_:)`` of the object, before its delete rules
    /// apply (and again, with nothing else done, when an object already deleted is deleted again).
    open func prepareForDeletion() {}
    /// Called before the object turns into a fault, its values still loaded: by
    /// `refresh(_:mergeChanges:)`, by a merge that reloads it, and when a loaded object that
    /// nothing else holds is freed while its context lives (then the object is going: the hook
    /// must not keep it, change it or hand it on).
    open func willTurnIntoFault() {}
    /// Called after the object turned into a fault (the same occasions as ``willTurnIntoFault()``).
    open func didTurnIntoFault() {}

    // MARK: Validation (the model's rules are in ManagedObject+Validation.swift)

    /// Checks `value` as a value of the property `key` against the model's rules: required,
    /// range, length, regular expression, relationship counts. The value given is checked, not
    /// the object's current one, and the object is not changed (so a value can be checked before
    /// it is set). Override to add rules of your own, call `super`, and throw a ``ValidationError``.
    open func validateValue(_ value: Any?, forKey key: String) throws {
        try validateAgainstModel(value, forKey: key)
    }

    /// Checks every property before an insert is saved.
    open func validateForInsert() throws { try validateAllProperties() }

    /// Checks every property before an update is saved.
    open func validateForUpdate() throws { try validateAllProperties() }

    /// Checks that delete rules allow the delete (`deny` with destinations left fails).
    open func validateForDelete() throws { try validateDeleteRules() }

    // MARK: Identity

    /// Objects are equal only to themselves.
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The entity, the ID and, unless a fault, the attribute values.
    open var description: String {
        guard !isFault else { return "<\(entity.name) \(objectID)> (fault)" }
        let values = entity.attributes.map { attribute in
            "\(attribute.name) = \(attributeValues[attribute.name].map { "\($0.untypedSwiftValue)" } ?? "nil")"
        }
        return "<\(entity.name) \(objectID)> { \(values.joined(separator: "; ")) }"
    }
}

@available(*, unavailable, message: "A managed object is confined to its context; pass its objectID instead.")
extension ManagedObject: Sendable {}
