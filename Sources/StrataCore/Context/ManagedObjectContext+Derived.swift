import Foundation

extension ManagedObjectContext {
    /// After a save landed in the stores, the objects whose derived attributes the stores may
    /// have recomputed turn into faults, so that their next use reads the computed values (Core
    /// Data's triggers tell it the same objects): the saved objects with derived attributes, and,
    /// when a derivation reads other objects, every unchanged registered object with such a
    /// derivation.
    func refaultDerivedObjects(saved lists: [ManagedObject]...) {
        let model = persistentStoreCoordinator.managedObjectModel
        let derived = model.derivedAttributesByEntity
        guard !derived.isEmpty else { return }
        for list in lists {
            for object in list where !object.isFault && derived[object.objectID.entityName] != nil { object.turnIntoFault() }
        }
        guard model.hasDerivationsThroughRelationships else { return }
        let readers = Set(derived.filter { $0.value.contains { !$0.derivation.relationshipPath.isEmpty } }.keys)
        for object in registry.objects(ofEntities: readers) where !object.isFault && object.pendingChange == .none
            && readers.contains(object.objectID.entityName) {
            object.turnIntoFault()
        }
    }
}
