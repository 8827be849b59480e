import Foundation
import OrderedCollections

/// A scratchpad of managed objects: it tracks inserts, changes and deletes, keeps one
/// instance per object ID (uniquing), fills faults, applies delete rules, validates, and saves
/// into its parent context or, at the root, through the coordinator into the stores.
///
/// A context and its objects are confined: they are not `Sendable`, so the compiler keeps
/// them on the task, actor or queue that made them. For work on a private queue use
/// ``BackgroundContext``; for the main thread, the `viewContext` of ``PersistentContainer``.
///
/// ```swift
/// let context = ManagedObjectContext(coordinator: coordinator)
/// let student = try context.insertNewObject(forEntityName: "Student")
/// try student.setValue(1, forKey: "id")
/// try context.save()
/// ```
public final class ManagedObjectContext {
    /// Where a context's work may run.
    public enum ConcurrencyType: Sendable, Hashable {
        /// Confined to whoever made it (the compiler checks it, as the context is not `Sendable`).
        case confined
        /// The main thread (the view context); checked at run time in debug builds.
        case mainQueue
        /// A private serial queue, reached through a ``BackgroundContext``.
        case privateQueue
    }

    /// Where this context's work runs.
    public let concurrencyType: ConcurrencyType
    /// The coordinator (a child context shares its parent's).
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    /// The parent context; nil for a root context, which saves into the stores.
    public let parent: ManagedObjectContext?
    /// A name for logs and debugging, recorded in persistent history with each save.
    public var name: String?
    /// The transaction author, query generation and merging from history
    /// (`ManagedObjectContext+History.swift`).
    var historyState = ContextHistoryState()
    /// How a save resolves conflicts: objects changed or deleted elsewhere since this context read
    /// them, and objects that would break a uniqueness constraint. ``MergePolicy/error`` (the
    /// save fails with the conflicts) unless set; a child context does not take its parent's.
    public var mergePolicy: MergePolicy = .error

    // The `@exclusivity(unchecked)` properties below are used on the context's queue only and
    // never while another access to the same one is open; each says what skipping the run-time
    // check saves.

    /// The registry, settled or not (``registry`` settles it).
    // Unchecked: looked up for every object a fetch makes and every to-one it resolves.
    @exclusivity(unchecked) private var settledRegistry = ObjectRegistry()
    /// The registered objects, each entry a live object: the entries of objects freed since the
    /// last use are taken out first (see ``freedObjects``).
    var registry: ObjectRegistry {
        _read {
            settleFreedObjects()
            yield settledRegistry
        }
        _modify {
            settleFreedObjects()
            yield &settledRegistry
        }
    }
    /// The objects inserted, changed and deleted since the last save, in the order they were.
    // Unchecked: written for every object inserted, changed or deleted, read for each one saved.
    @exclusivity(unchecked) var changeLists = ChangeLists()
    /// Objects inserted since the last save.
    public var insertedObjects: OrderedSet<ManagedObject> { OrderedSet(uncheckedUniqueElements: changeLists.inserted) }
    /// Objects changed since the last save.
    public var updatedObjects: OrderedSet<ManagedObject> { OrderedSet(uncheckedUniqueElements: changeLists.updated) }
    /// Objects deleted since the last save.
    public var deletedObjects: OrderedSet<ManagedObject> { OrderedSet(uncheckedUniqueElements: changeLists.deleted) }
    /// The IDs of the changes not yet announced.
    // Unchecked: an ID is added for every object inserted or first changed.
    @exclusivity(unchecked) var pendingChanges = ContextChanges()
    /// The entities this context made objects of, found by comparing names: every new object
    /// looks its entity up.
    private var entitiesSeen = NameMap<EntityDescription>()
    /// The entity and class of the last object made, with the coordinator's class generation
    /// then: fetches and inserts make objects in runs of one entity, and a run's repeats skip
    /// both lookups (the class one takes the coordinator's lock).
    /// The ID scope of the object is kept too: the next ID of that scope is told by one
    /// comparison of references, without reading its entity name.
    // Unchecked: read for every object a fetch or an insert makes.
    @exclusivity(unchecked) private var lastMade: MadeEntity?
    /// The one before ``lastMade``, of another entity: fetched objects and the faults of their
    /// to-ones alternate between two.
    // Unchecked: read for every fetched object's to-one fault, whose entity alternates with it.
    @exclusivity(unchecked) private var earlierMade: MadeEntity?

    /// An entity objects were made of, its class, the coordinator's class generation then, and
    /// the scope of the ID of the last object made of it.
    private struct MadeEntity {
        let entity: EntityDescription
        let type: ManagedObject.Type
        let generation: UInt64
        let scope: ObjectIDScope
    }
    var changeContinuations: [UUID: AsyncStream<ContextNotification>.Continuation] = [:]
    /// The fetched results controllers and live queries following this context, told of each
    /// notification as it is posted (nothing to do when there are none).
    var resultsObservers: [UUID: (Notification.Name, ContextChanges) -> Void] = [:]
    /// The objects freed while registered here, not yet taken out of the registry: a freed
    /// object only lists itself (``ManagedObject/listAsFreed()``), and the registry is settled
    /// before its next use (``registry``). A context that ends with only freed objects registered
    /// drops the list with the registry, unread.
    // Unchecked: appended to by every registered object freed, and checked before every use of
    // the registry; it is never accessed while another access to it is open.
    @exclusivity(unchecked) var freedObjects: [ObjectRegistry.FreedObject] = []

    /// The link every object registered here holds (a new one after each reset).
    private(set) var objectsLink = ContextLink()
    /// How the context follows saves made elsewhere, and how it fills faults whose row is stale
    /// or gone (see `ManagedObjectContext+Merging.swift`).
    var merging = MergingState()
    /// The deleted objects whose cascades the save leaves to the store
    /// (`ManagedObjectContext+StoreCascades.swift`).
    var storeCascades = StoreCascades()

    /// Creates a root context that saves through `coordinator`.
    public init(coordinator: PersistentStoreCoordinator, concurrencyType: ConcurrencyType = .confined) {
        self.persistentStoreCoordinator = coordinator
        self.parent = nil
        self.concurrencyType = concurrencyType
        objectsLink.context = self
    }

    /// Creates a child context whose saves go into `parent`.
    public init(parent: ManagedObjectContext) {
        self.persistentStoreCoordinator = parent.persistentStoreCoordinator
        self.parent = parent
        self.concurrencyType = parent.concurrencyType
        objectsLink.context = self
    }

    deinit {
        letGoOfObjects()
        for continuation in changeContinuations.values { continuation.finish() }
    }

    /// Lets go of every registered object, as the context goes or is reset.
    ///
    /// Ending the link is what cuts the objects loose: each then reads as invalidated, without a
    /// visit. Visited and cut loose one by one are only the changed objects (so that none keeps
    /// its change) and, of the entities that can close a cycle of strong references
    /// (``ManagedObjectModel/entitiesOnReferenceCycles``), the objects that hold others
    /// (``ManagedObject/holdsObjects``), so that no cycle outlives the context; the others free
    /// themselves and what they hold when their last user lets go. A fetch that loaded no
    /// relationship as objects leaves none to visit.
    func letGoOfObjects() {
        objectsLink.end()
        if settledRegistry.count == freedObjects.count {
            // Every registered object was freed: none to visit, none to look up.
            freedObjects = []
            settledRegistry.removeAll()
        }
        let changed = changeLists.all
        changeLists.forgetAll()   // cutting them loose below clears their pending changes
        // Retained while being cut loose: cutting one loose can free another.
        let cyclic = registry.objects(ofEntities: model.entitiesOnReferenceCycles, where: \.holdsObjects)
        registry.removeAll()
        for object in changed { object.detach() }
        for object in cyclic { object.detach() }
    }

    /// Takes the entries of the objects freed since the registry was last used out of it.
    @inline(__always)
    private func settleFreedObjects() {
        if !freedObjects.isEmpty { removeFreedObjects() }
    }

    private func removeFreedObjects() {
        // Taken off the list first: an object freed meanwhile lists itself anew.
        let freed = freedObjects
        freedObjects = []
        settledRegistry.remove(freed: freed)
    }

    /// Gives the objects registered from now on a new link, once the old one has ended.
    func renewObjectsLink() {
        let recorder = objectsLink.undoRecorder
        objectsLink = ContextLink()
        objectsLink.undoRecorder = recorder
        objectsLink.context = self
    }

    /// Every object this context holds.
    public var registeredObjects: Set<ManagedObject> { Set(registry.objects) }

    /// Whether anything was inserted, changed or deleted since the last save.
    public var hasChanges: Bool { !changeLists.isEmpty }

    var model: ManagedObjectModel { persistentStoreCoordinator.managedObjectModel }

    // MARK: Inserting

    /// Inserts a new object of `entityName`, with its default values, and returns it (an
    /// instance of the class registered for the entity, if any).
    ///
    /// - Throws: ``ObjectError/unknownEntity(_:)``, ``ObjectError/abstractEntity(_:)``.
    @discardableResult
    public func insertNewObject(forEntityName entityName: String) throws -> ManagedObject {
        checkQueue()
        let (entity, type) = try entityAndClass(named: entityName)
        guard !entity.isAbstract else { throw ObjectError.abstractEntity(entityName) }
        let object = type.init(entity: entity, objectID: .temporary(entityName: entityName))
        register(inserted: object)
        return object
    }

    /// Inserts a new object of a registered subclass.
    public func insertNewObject<T: ManagedObject>(_ type: T.Type, entityName: String? = nil) throws -> T {
        let name = entityName ?? T.entityName
        guard let entity = model.entitiesByName[name] else { throw ObjectError.unknownEntity(name) }
        guard !entity.isAbstract else { throw ObjectError.abstractEntity(name) }
        let object = T(entity: entity, objectID: .temporary(entityName: name))
        register(inserted: object)
        return object
    }

    func register(inserted object: ManagedObject) {
        let link = objectsLink
        object.contextLink = link
        object.isFault = false
        object.attributeValues = object.entity.defaultAttributeValues
        track(inserted: object)
        link.undoRecorder?.inserted(object)
        object.awakeFromInsert()
    }

    /// Registers a new object of this context by its temporary ID and lists it as inserted.
    func track(inserted object: ManagedObject) {
        registry.register(inserted: object)
        changeLists.set(.inserted, of: object)
        pendingChanges.insertedIDs.insert(object.objectID)
    }

    // MARK: Looking up objects

    /// The model's entity called `name`.
    private func entity(named name: String) -> EntityDescription? {
        if let seen = entitiesSeen[name] { return seen }
        guard let entity = model.entitiesByName[name] else { return nil }
        entitiesSeen[name] = entity
        return entity
    }

    /// The entity called `name` and the class its objects are made of.
    ///
    /// - Throws: ``ObjectError/unknownEntity(_:)``.
    private func entityAndClass(named name: String) throws -> (EntityDescription, ManagedObject.Type) {
        let generation = persistentStoreCoordinator.objectClasses.generation.load(ordering: .acquiring)
        if let made = recentlyMade(generation, where: { NameBits.same($0.entity.name, name) }) { return (made.entity, made.type) }
        return try entityAndClass(of: .named(name, in: nil))
    }

    /// The entity of the IDs of `scope` and the class its objects are made of.
    ///
    /// - Throws: ``ObjectError/unknownEntity(_:)``.
    private func entityAndClass(of scope: ObjectIDScope) throws -> (EntityDescription, ManagedObject.Type) {
        let generation = persistentStoreCoordinator.objectClasses.generation.load(ordering: .acquiring)
        if let made = recentlyMade(generation, where: { $0.scope === scope || NameBits.same($0.entity.name, scope.entityName) }) {
            return (made.entity, made.type)
        }
        guard let entity = entity(named: scope.entityName) else { throw ObjectError.unknownEntity(scope.entityName) }
        let type = persistentStoreCoordinator.objectClass(forEntity: entity.name)
        earlierMade = lastMade
        lastMade = MadeEntity(entity: entity, type: type, generation: generation, scope: scope)
        return (entity, type)
    }

    /// ``lastMade`` or ``earlierMade``, when `matches` accepts it and the coordinator's classes
    /// are still of `generation`.
    @inline(__always)
    private func recentlyMade(_ generation: UInt64, where matches: (MadeEntity) -> Bool) -> MadeEntity? {
        if let lastMade, lastMade.generation == generation, matches(lastMade) { return lastMade }
        if let earlierMade, earlierMade.generation == generation, matches(earlierMade) { return earlierMade }
        return nil
    }

    /// The object for `objectID`: the registered instance, or a fault that fills on first use
    /// (no store access until then).
    ///
    /// - Throws: ``ObjectError/unknownEntity(_:)`` when the model has no such entity.
    public func object(with objectID: ManagedObjectID) throws -> ManagedObject {
        try registry.object(for: objectID) {
            let (entity, type) = try entityAndClass(of: objectID.scope)
            let object = type.init(entity: entity, objectID: objectID)
            object.contextLink = objectsLink
            return object
        }
    }

    /// The object for `objectID`, loaded; throws when no store (or parent) has it.
    ///
    /// - Throws: ``ObjectError/objectNotFound(_:)``.
    /// An object whose row a merge reported deleted, or a fault that found no row and became a
    /// deleted object (``shouldDeleteInaccessibleFaults``), is not found either.
    public func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        if let object = registry[objectID], !object.isFault, !object.isDeletedInStore { return object }
        let object = try self.object(with: objectID)
        do {
            try object.fulfillFault()
        } catch {
            if registry[objectID] === object, object.isFault { registry[objectID] = nil }
            throw error
        }
        if object.isDeletedInStore { throw ObjectError.objectNotFound(objectID) }
        return object
    }

    /// The registered object for `objectID`, if this context holds one.
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        registry[objectID]
    }

    // MARK: Faults

    /// Fills a fault from the parent context or the stores. A fault whose row is gone becomes a
    /// deleted object with nil values (``shouldDeleteInaccessibleFaults``, the default), or throws.
    func fulfill(_ object: ManagedObject) throws {
        checkQueue()
        guard let snapshot = try sourceSnapshot(for: object.objectID) else {
            guard merging.deletesInaccessibleFaults else { throw ObjectError.objectNotFound(object.objectID) }
            try object.loadAsDeletedInStore(in: self)
            return
        }
        try object.load(snapshot, in: self)
    }

    /// The current state of an object as this context's source sees it: for a root context, a
    /// row of the coordinator's cache read from the store within ``stalenessInterval``, or the
    /// store's.
    func sourceSnapshot(for objectID: ManagedObjectID) throws -> ObjectSnapshot? {
        if let parent { return try parent.snapshotForChild(objectID) }
        return try readingCoordinator.snapshot(for: objectID, readSince: merging.cachedRowsReadSince())
    }

    /// The destinations of a to-many as this context's source sees them.
    func relatedObjectIDs(of object: ManagedObject, relationship: String) throws -> [ManagedObjectID] {
        if let parent {
            let parentObject = try parent.existingObject(with: object.objectID)
            return try parentObject.loadedToMany(relationship).map(\.objectID)
        }
        return try readingCoordinator.relatedObjectIDs(of: object.objectID, relationship: relationship)
    }

    /// This context's current state of an object, for a child context.
    func snapshotForChild(_ objectID: ManagedObjectID) throws -> ObjectSnapshot? {
        if let object = registry[objectID] {
            if object.pendingChange == .deleted || object.isDeletedInStore || object.isInvalidated { return nil }
            if object.isFault {
                guard (try? object.fulfillFault()) != nil else { return nil }
            }
            var snapshot = object.currentSnapshot(version: object.committed?.version ?? 0)
            for attribute in object.entity.attributes where attribute.isTransient {
                snapshot.attributes[attribute.name] = object.attributeValues[attribute.name]
            }
            return snapshot
        }
        return try sourceSnapshot(for: objectID)
    }

    // MARK: Change tracking

    /// Records that a registered, not inserted object changed.
    func markUpdated(_ object: ManagedObject) {
        guard object.pendingChange == .none else { return }
        changeLists.set(.updated, of: object)
        pendingChanges.updatedIDs.insert(object.objectID)
    }

    /// In debug builds, checks that a main-queue context is used on the main queue.
    ///
    /// The main queue, not the main thread: under `dispatchMain()` (an async `main` on Linux, the
    /// test runner) main-actor work runs on the main queue but on a thread other than the first.
    func checkQueue() {
        #if DEBUG
        if concurrencyType == .mainQueue {
            dispatchPrecondition(condition: .onQueue(.main))
        }
        #endif
    }
}

@available(*, unavailable, message: "A context is confined to its queue; pass object IDs between contexts.")
extension ManagedObjectContext: Sendable {}

extension ManagedObject {
    /// Cuts the object loose from its context, dropping references to other objects.
    func detach() {
        keepCommittedAttributes()
        attributeValues = AttributeValues()
        removeToOnes()
        toManyValues = NameMap()
        unresolvedToMany = NameMap()
        isDetached = true
        pendingChange = .none
        contextLink = nil
    }
}
