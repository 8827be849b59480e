import Foundation

extension InferredMapping {
    /// `image`, written with ``source``, as a store of ``destination`` holds it: every object of a
    /// kept entity with its primary key (so URIs of objects whose entity kept its name stay
    /// valid), renamed entities and properties, converted values, defaults for new attributes and
    /// for missing values of attributes made required, to-ones made to-many.
    ///
    /// - Throws: ``MigrationError/stepFailed(step:reason:)`` when two objects would share an ID.
    @_spi(StoreImplementation)
    public func migrate(_ image: StoreImage) throws(MigrationError) -> StoreImage {
        let targets = Dictionary(entitySources.map { ($1, $0) }) { first, _ in first }
        func moved(_ id: ManagedObjectID) -> ManagedObjectID? {
            guard let entity = targets[id.entityName], let key = id.primaryKey else { return nil }
            if entity == id.entityName { return id }
            return ManagedObjectID(entityName: entity, storeIdentifier: id.storeIdentifier ?? image.identifier, primaryKey: key)
        }
        var result = StoreImage(identifier: image.identifier, metadata: image.metadata)
        result.objects.reserveCapacity(image.objects.count)
        for snapshot in image.objects.values {
            guard let newID = moved(snapshot.objectID), let entity = destination.entity(named: newID.entityName),
                  let oldEntity = source.entity(named: snapshot.objectID.entityName) else { continue }
            let sources = propertySources[entity.name] ?? [:]
            var attributes = AttributeValues()
            var toOne = NameMap<ManagedObjectID>()
            var toMany: [String: [ManagedObjectID]] = [:]
            for attribute in entity.attributes where !attribute.isTransient {
                var value: AttributeValue?
                if let name = sources[attribute.name], let old = oldEntity.attribute(named: name) {
                    value = snapshot.attributes[name].map { Self.convert($0, from: old.type, to: attribute.type) }
                    if value == nil, !attribute.isOptional { value = attribute.defaultValue }
                } else {
                    value = attribute.defaultValue
                }
                if let value { _ = attributes.updateValue(value, forKey: attribute.name) }
            }
            for relationship in entity.relationships where !relationship.isTransient {
                guard let name = sources[relationship.name], let old = oldEntity.relationship(named: name) else {
                    if relationship.isToMany { toMany[relationship.name] = [] }
                    continue
                }
                let destinations: [ManagedObjectID] = old.isToMany
                    ? (snapshot.toMany[name] ?? []).compactMap(moved)
                    : (snapshot.toOne[name].flatMap(moved).map { [$0] } ?? [])
                if relationship.isToMany {
                    toMany[relationship.name] = destinations
                } else if let first = destinations.first {
                    toOne[relationship.name] = first
                }
            }
            guard result.objects[newID] == nil else {
                throw .stepFailed(step: "inferred", reason: "two objects would both be \(newID)")
            }
            result.objects[newID] = ObjectSnapshot(objectID: newID, version: snapshot.version, attributes: attributes,
                                                   toOne: toOne, toMany: toMany)
        }
        for entity in destination.entities where entity.superentityName == nil {
            let sourceRoots = destination.entityAndDescendants(of: entity.name).compactMap { entitySources[$0] }
                .compactMap { source.entity(named: $0)?.rootEntityName }
            let next = sourceRoots.compactMap { image.nextPrimaryKeys[$0] }.max()
            let highest = result.objects.keys.filter { destination.entity(named: $0.entityName)?.rootEntityName == entity.name }
                .compactMap(\.primaryKey).max().map { $0 + 1 }
            if let key = [next, highest].compactMap({ $0 }).max() { result.nextPrimaryKeys[entity.name] = key }
        }
        return result
    }
}
