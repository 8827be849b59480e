import Foundation

/// The object IDs a change touched: the payload of every context notification.
public struct ContextChanges: Sendable, Hashable {
    /// The IDs behind ``inserted``, ``updated`` and ``deleted``, hashed into sets only when read.
    var insertedIDs: ObjectIDSet
    var updatedIDs: ObjectIDSet
    var deletedIDs: ObjectIDSet

    /// Objects inserted (after a save: their permanent IDs).
    public var inserted: Set<ManagedObjectID> {
        get { insertedIDs.set }
        set { insertedIDs = ObjectIDSet(newValue) }
    }
    /// Objects changed.
    public var updated: Set<ManagedObjectID> {
        get { updatedIDs.set }
        set { updatedIDs = ObjectIDSet(newValue) }
    }
    /// Objects deleted.
    public var deleted: Set<ManagedObjectID> {
        get { deletedIDs.set }
        set { deletedIDs = ObjectIDSet(newValue) }
    }

    /// Creates a change set.
    public init(inserted: Set<ManagedObjectID> = [], updated: Set<ManagedObjectID> = [], deleted: Set<ManagedObjectID> = []) {
        insertedIDs = ObjectIDSet(inserted)
        updatedIDs = ObjectIDSet(updated)
        deletedIDs = ObjectIDSet(deleted)
    }

    /// Three lists of IDs, hashed into sets only if someone reads them.
    init(insertedIDs: [ManagedObjectID], updatedIDs: [ManagedObjectID], deletedIDs: [ManagedObjectID]) {
        self.insertedIDs = ObjectIDSet(insertedIDs)
        self.updatedIDs = ObjectIDSet(updatedIDs)
        self.deletedIDs = ObjectIDSet(deletedIDs)
    }

    /// Moves the IDs added one by one into the shared storage of each set (see
    /// ``ObjectIDSet/settle()``), before the changes are posted.
    mutating func settle() {
        insertedIDs.settle()
        updatedIDs.settle()
        deletedIDs.settle()
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { insertedIDs.isEmpty && updatedIDs.isEmpty && deletedIDs.isEmpty }
}

/// One notification of a context, as delivered by ``ManagedObjectContext/notifications()``.
public struct ContextNotification: Sendable, Hashable {
    /// Which notification (``ManagedObjectContext/objectsDidChangeNotification``, …).
    public var name: Notification.Name
    /// The IDs involved.
    public var changes: ContextChanges
}

extension ManagedObjectContext {
    /// Posted when objects were inserted, changed or deleted in the context (by
    /// ``processPendingChanges()``, which saves and fetches call).
    public static let objectsDidChangeNotification = Notification.Name("StrataManagedObjectContextObjectsDidChange")
    /// Posted before a save.
    public static let willSaveNotification = Notification.Name("StrataManagedObjectContextWillSave")
    /// Posted after a save, with the permanent IDs of inserted objects.
    public static let didSaveNotification = Notification.Name("StrataManagedObjectContextDidSave")
    /// Posted after the context merged changes saved elsewhere, with every ID merged (Core Data's
    /// `didMergeChangesObjectIDsNotification`); ``objectsDidChangeNotification``, posted just
    /// before it, names the objects the merge touched here.
    public static let didMergeChangesNotification = Notification.Name("StrataManagedObjectContextDidMergeChanges")
    /// The `userInfo` key under which each notification carries its ``ContextChanges``.
    public static let changesUserInfoKey = "changes"

    /// The context's notifications as an asynchronous sequence.
    ///
    /// ```swift
    /// for await note in context.notifications() where note.name == ManagedObjectContext.didSaveNotification {
    ///     print(note.changes.inserted)
    /// }
    /// ```
    public func notifications() -> AsyncStream<ContextNotification> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<ContextNotification>.makeStream()
        changeContinuations[id] = continuation
        return stream
    }

    /// Posts `name` with `changes` through `NotificationCenter.default` (object: this context,
    /// `userInfo[changesUserInfoKey]`: the changes) and to every ``notifications()`` sequence.
    func post(_ name: Notification.Name, _ changes: ContextChanges) {
        NotificationCenter.default.post(name: name, object: self, userInfo: [Self.changesUserInfoKey: changes])
        let notification = ContextNotification(name: name, changes: changes)
        for continuation in changeContinuations.values { continuation.yield(notification) }
        if !resultsObservers.isEmpty {
            for observer in resultsObservers.values { observer(name, changes) }
        }
    }

    /// Posts ``objectsDidChangeNotification`` for the changes made since the last time, then
    /// merges the saves of other contexts that arrived since, when the context merges them
    /// automatically (``automaticallyMergesChangesFromParent``).
    public func processPendingChanges() {
        if historyState.remoteChanges != nil { mergeRemoteChangesIfAny() }
        // Cascades left to the store are applied to objects here, as Core Data propagates
        // deletes at the end of an event; a save lists them in the store first. Should the store
        // fail to list them, the save does it again and reports the error.
        if !storeCascades.isEmpty, !storeCascades.isSaving { try? resolveStoreCascades(makingObjects: true) }
        endUndoEvent()
        postPendingChanges()
        mergeArrivedSaves()
    }

    /// Posts ``objectsDidChangeNotification`` for the changes made since the last time.
    func postPendingChanges() {
        guard !pendingChanges.isEmpty else { return }
        var changes = pendingChanges
        pendingChanges = ContextChanges()
        changes.settle()
        post(Self.objectsDidChangeNotification, changes)
    }
}

extension Notification {
    /// The ``ContextChanges`` a Strata context notification carries.
    public var contextChanges: ContextChanges? {
        userInfo?[ManagedObjectContext.changesUserInfoKey] as? ContextChanges
    }
}
