/// Where a ``SnapshotView`` finds the objects its key paths lead to: an atomic store's image, or
/// an incremental store that reads rows on demand.
@_spi(StoreImplementation)
public protocol SnapshotSource {
    /// The snapshot of one object, or nil when there is none.
    func snapshot(for objectID: ManagedObjectID) throws -> ObjectSnapshot?
    /// The destinations of a to-many relationship of `snapshot`, in order.
    func toMany(of snapshot: ObjectSnapshot, relationship: String) throws -> [ManagedObjectID]
}

@_spi(StoreImplementation)
extension Dictionary: SnapshotSource where Key == ManagedObjectID, Value == ObjectSnapshot {
    /// The snapshot held under `objectID`.
    public func snapshot(for objectID: ManagedObjectID) throws -> ObjectSnapshot? { self[objectID] }
    /// The to-many as the snapshot holds it.
    public func toMany(of snapshot: ObjectSnapshot, relationship: String) throws -> [ManagedObjectID] {
        snapshot.toMany[relationship] ?? []
    }
}

/// A snapshot seen through the store that holds it, so that key paths walk across
/// relationships: what stores evaluate predicates and sort keys on.
@_spi(StoreImplementation)
public struct SnapshotView: IdentifiedKeyValue {
    /// The snapshot.
    public let snapshot: ObjectSnapshot
    /// Where related objects are found.
    public let source: any SnapshotSource
    /// The model.
    public let model: ManagedObjectModel

    /// A view of `snapshot` whose relationships lead into `source`.
    public init(snapshot: ObjectSnapshot, source: any SnapshotSource, model: ManagedObjectModel) {
        self.snapshot = snapshot
        self.source = source
        self.model = model
    }

    public var objectID: ManagedObjectID { snapshot.objectID }

    public func value(forKey key: String) throws -> Any? {
        let entityName = snapshot.objectID.entityName
        guard let property = model.entitiesByName[entityName]?.propertiesByName[key] else {
            if let entity = model.entitiesByName[entityName], entity.isCompositePath(key) {
                return try entity.compositeDictionary(key) { attribute in
                    try snapshot.attributes[attribute.name].map { try $0.swiftValue(for: attribute, entity: entityName) }
                }
            }
            throw ObjectError.unknownKey(entity: entityName, key: key)
        }
        switch property {
        case .attribute(let attribute):
            return try snapshot.attributes[key].map { try $0.swiftValue(for: attribute, entity: entityName) }
        case .relationship(let relationship):
            if relationship.isToMany {
                return try source.toMany(of: snapshot, relationship: key).compactMap { try source.snapshot(for: $0).map(view) } as [Any]
            }
            return try snapshot.toOne[key].flatMap { try source.snapshot(for: $0) }.map(view)
        case .fetchedProperty:
            return nil
        }
    }

    private func view(_ snapshot: ObjectSnapshot) -> SnapshotView {
        SnapshotView(snapshot: snapshot, source: source, model: model)
    }
}

/// A store request's condition, order and range applied in memory: how the atomic stores answer
/// fetches, and how an incremental store finishes what its query language cannot say, so that
/// every store gives the same answer.
@_spi(StoreImplementation)
public enum SnapshotQuery {
    /// The candidates of the request's entities that match its predicate, in its order (entity
    /// name and primary key when it has none, and to break ties), offset and limited.
    public static func apply(_ request: StoreFetchRequest, to candidates: [ObjectSnapshot],
                             source: any SnapshotSource, model: ManagedObjectModel) throws -> [ObjectSnapshot] {
        var matches = candidates.filter { request.entityNames.contains($0.objectID.entityName) }
        if let predicate = request.predicate {
            matches = try matches.filter { try predicate.evaluate(with: SnapshotView(snapshot: $0, source: source, model: model)) }
        }
        matches.sort { ManagedObjectID.storeOrder($0.objectID, $1.objectID) }
        if !request.sortDescriptors.isEmpty {
            matches = try request.sortDescriptors.sorted(matches) { SnapshotView(snapshot: $0, source: source, model: model) }
        }
        let start = min(request.fetchOffset, matches.count)
        let end = request.fetchLimit > 0 ? min(start + request.fetchLimit, matches.count) : matches.count
        return Array(matches[start..<end])
    }
}
