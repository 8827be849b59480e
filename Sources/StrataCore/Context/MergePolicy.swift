/// The built-in ways of resolving the conflicts of a save (Core Data's `NSMergePolicyType`).
public enum MergePolicyType: Sendable, Hashable, CaseIterable {
    /// The save fails with the conflicts (``StoreError/mergeConflict(_:)`` or
    /// ``StoreError/constraintConflict(_:)``) and writes nothing: the default.
    case error
    /// Property by property, the other side's changes win over this context's: a property this
    /// context changed keeps its value only where the other side did not change it.
    case mergeByPropertyStoreTrump
    /// Property by property, this context's changes win: the other side's changes survive in the
    /// properties this context did not change.
    case mergeByPropertyObjectTrump
    /// This context's state of each conflicting object is written whole.
    case overwrite
    /// This context's changes to each conflicting object are discarded: the object takes the
    /// other side's state.
    case rollback
}

/// How a context resolves the conflicts of a save (Core Data's `NSMergePolicy`): set it as a
/// context's ``ManagedObjectContext/mergePolicy``.
///
/// The five built-in policies are ``error`` (the default), ``mergeByPropertyStoreTrump``,
/// ``mergeByPropertyObjectTrump``, ``overwrite`` and ``rollback``. A policy of one's own is a
/// subclass that overrides ``resolve(optimisticLockingConflicts:in:)``,
/// ``resolve(constraintConflicts:in:)``, or the entry point a save calls with every conflict it
/// met, ``resolve(mergeConflicts:constraintConflicts:in:)`` (Core Data's
/// `resolve(mergeConflicts:)`), changing the conflicting objects of the context as it sees fit,
/// calling `super` or not, or throwing to fail the save:
///
/// ```swift
/// final class KeepLongerNames: MergePolicy {
///     init() { super.init(type: .mergeByPropertyObjectTrump) }
///     override func resolve(optimisticLockingConflicts conflicts: [MergeConflict], in context: ManagedObjectContext) throws {
///         for conflict in conflicts {
///             guard let object = context.registeredObject(for: conflict.objectID),
///                   case .string(let stored)? = conflict.currentSnapshot?.attributes["name"],
///                   let mine = try object.value(forKey: "name") as? String, stored.count > mine.count else { continue }
///             try object.setValue(stored, forKey: "name")
///         }
///     }
/// }
/// ```
///
/// Once a policy returns, each conflicting object it left with changes is saved as it stands,
/// on top of the state it conflicted with; the save then goes on and lands whole.
open class MergePolicy {
    /// The built-in policy this one is, or builds on.
    public let type: MergePolicyType

    /// Creates a policy of `type`; a subclass passes the built-in policy closest to its own.
    public init(type: MergePolicyType) {
        self.type = type
    }

    /// The save fails with its conflicts: the default policy.
    public static var error: MergePolicy { MergePolicy(type: .error) }
    /// The other side's changes win, property by property.
    public static var mergeByPropertyStoreTrump: MergePolicy { MergePolicy(type: .mergeByPropertyStoreTrump) }
    /// This context's changes win, property by property.
    public static var mergeByPropertyObjectTrump: MergePolicy { MergePolicy(type: .mergeByPropertyObjectTrump) }
    /// This context's state of each conflicting object is written whole.
    public static var overwrite: MergePolicy { MergePolicy(type: .overwrite) }
    /// This context's changes to conflicting objects are discarded.
    public static var rollback: MergePolicy { MergePolicy(type: .rollback) }

    /// Resolves every conflict a try of a save met (Core Data's `resolve(mergeConflicts:)`):
    /// what a save calls, before it tries again.
    ///
    /// The base class resolves the uniqueness-constraint conflicts with
    /// ``resolve(constraintConflicts:in:)``, then the optimistic-locking ones with
    /// ``resolve(optimisticLockingConflicts:in:)``, each only when its list is not empty. A
    /// subclass that overrides it and calls `super` keeps that; one that does not resolves both
    /// kinds itself.
    ///
    /// - Parameters:
    ///   - mergeConflicts: objects changed or deleted elsewhere since `context` read them.
    ///   - constraintConflicts: objects that would break a uniqueness constraint.
    ///   - context: the saving context, whose objects the resolution changes.
    /// - Throws: what the two methods throw; a throw fails the save.
    open func resolve(mergeConflicts: [MergeConflict], constraintConflicts: [ConstraintConflict],
                      in context: ManagedObjectContext) throws {
        if !constraintConflicts.isEmpty { try resolve(constraintConflicts: constraintConflicts, in: context) }
        if !mergeConflicts.isEmpty { try resolve(optimisticLockingConflicts: mergeConflicts, in: context) }
    }

    /// Resolves optimistic-locking conflicts: objects changed or deleted elsewhere since
    /// `context` read them.
    ///
    /// The built-in policies, on an object changed elsewhere:
    /// - ``MergePolicyType/mergeByPropertyStoreTrump``: the properties changed elsewhere take
    ///   their new values; this context's changes to the other properties are kept;
    /// - ``MergePolicyType/mergeByPropertyObjectTrump``: this context's changed properties keep
    ///   their values; the other properties take the values changed elsewhere;
    /// - ``MergePolicyType/overwrite``: this context's state is written whole;
    /// - ``MergePolicyType/rollback``: the object takes the state it has elsewhere, and has no
    ///   change left to save (a delete is undone).
    ///
    /// A delete of an object changed elsewhere is saved, except under rollback. An object deleted
    /// elsewhere stays deleted: this context's changes to it are dropped and it is forgotten.
    ///
    /// - Throws: ``StoreError/mergeConflict(_:)`` for ``MergePolicyType/error``; what a subclass
    ///   throws fails the save.
    open func resolve(optimisticLockingConflicts conflicts: [MergeConflict], in context: ManagedObjectContext) throws {
        guard type != .error else { throw StoreError.mergeConflict(conflicts) }
        try context.resolveByProperty(conflicts, as: type)
    }

    /// Resolves uniqueness-constraint conflicts.
    ///
    /// Every built-in policy but ``MergePolicyType/error`` merges the conflicting objects into
    /// one (an upsert): a new object that meets a stored row becomes that row (its ID becomes the
    /// row's; when this context already holds the row's object, that object takes the merge and
    /// the new one is dropped), and new objects that meet each other in one save become the first
    /// of them. The values of the merged object:
    /// - ``MergePolicyType/mergeByPropertyObjectTrump``: the new object's values, the stored
    ///   ones where the new object has none;
    /// - ``MergePolicyType/mergeByPropertyStoreTrump``: the stored values, the new object's where
    ///   the row has none;
    /// - ``MergePolicyType/overwrite``: the new object's values whole;
    /// - ``MergePolicyType/rollback``: the stored values whole.
    ///
    /// To-many relationships are joined: the merged object holds the destinations of both.
    ///
    /// A changed (not new) object that meets another row is merged into that row the same way
    /// (the row keeps its ID; the changed object is deleted by the save), as Core Data merges
    /// conflicting objects into the database object; under ``MergePolicyType/rollback`` its
    /// changes are discarded instead. Objects of different entities are not merged.
    ///
    /// - Throws: ``StoreError/constraintConflict(_:)`` for ``MergePolicyType/error`` and for
    ///   conflicts between objects of different entities; what a subclass throws fails the save.
    open func resolve(constraintConflicts conflicts: [ConstraintConflict], in context: ManagedObjectContext) throws {
        guard type != .error else { throw StoreError.constraintConflict(conflicts) }
        try context.mergeObjects(of: conflicts, as: type)
    }
}
