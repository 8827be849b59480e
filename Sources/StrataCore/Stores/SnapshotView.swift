/// A snapshot seen through the image that holds it, so that key paths walk across
/// relationships: what atomic stores evaluate predicates and sort keys on.
struct SnapshotView: IdentifiedKeyValue {
    let snapshot: ObjectSnapshot
    let objects: [ManagedObjectID: ObjectSnapshot]
    let model: ManagedObjectModel

    var objectID: ManagedObjectID { snapshot.objectID }

    func value(forKey key: String) throws -> Any? {
        let entityName = snapshot.objectID.entityName
        guard let property = model.entitiesByName[entityName]?.propertiesByName[key] else {
            throw ObjectError.unknownKey(entity: entityName, key: key)
        }
        switch property {
        case .attribute(let attribute):
            return try snapshot.attributes[key].map { try $0.swiftValue(for: attribute, entity: entityName) }
        case .relationship(let relationship):
            if relationship.isToMany {
                return (snapshot.toMany[key] ?? []).compactMap { id in objects[id].map(view) } as [Any]
            }
            return snapshot.toOne[key].flatMap { objects[$0] }.map(view)
        case .fetchedProperty:
            return nil
        }
    }

    private func view(_ snapshot: ObjectSnapshot) -> SnapshotView {
        SnapshotView(snapshot: snapshot, objects: objects, model: model)
    }
}
