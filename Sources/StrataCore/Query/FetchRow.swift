/// One object a fetch matched, before it becomes a result: a stored snapshot not yet turned into
/// an object, or an object of the context (an unsaved insert or change, or, in a child context,
/// an object the parent holds).
enum FetchRow {
    case snapshot(ObjectSnapshot)
    case object(ManagedObject)

    var objectID: ManagedObjectID {
        switch self {
        case .snapshot(let snapshot): snapshot.objectID
        case .object(let object): object.objectID
        }
    }
}

/// Reads values of rows for sorting and for dictionaries.
///
/// A row's own values come from its snapshot or object. Relationships of a stored row lead to
/// the context's objects, which hold the context's unsaved changes; when the fetch leaves pending
/// changes out, they lead to the stored snapshots instead, so that nothing unsaved is seen.
struct RowReader {
    let context: ManagedObjectContext
    /// Stored snapshots read so far; nil when relationships lead to the context's objects.
    let stored: StoredSnapshots?

    init(context: ManagedObjectContext, includesPendingChanges: Bool) {
        self.context = context
        self.stored = includesPendingChanges || context.parent != nil
            ? nil : StoredSnapshots(coordinator: context.readingCoordinator)
    }

    /// The row as key-value values: an object as itself, a snapshot through a view.
    func keyValue(_ row: FetchRow) throws -> any KeyValueCoding {
        switch row {
        case .object(let object): return object
        case .snapshot(let snapshot): return try view(snapshot)
        }
    }

    func view(_ snapshot: ObjectSnapshot) throws -> StoredRowView {
        guard let entity = context.persistentStoreCoordinator.managedObjectModel.entitiesByName[snapshot.objectID.entityName] else {
            throw ObjectError.unknownEntity(snapshot.objectID.entityName)
        }
        return StoredRowView(snapshot: snapshot, entity: entity, reader: self)
    }

    /// The stored form of the value at a resolved key path: an attribute's value, a to-one's
    /// destination ID, or the row's own ID; nil when a to-one on the way is nil.
    func storedValue(_ row: FetchRow, at path: ResolvedKeyPath) throws -> AttributeValue? {
        var hops = path.hops[...]
        var object: ManagedObject
        switch row {
        case .object(let rowObject):
            object = rowObject
        case .snapshot(var snapshot):
            if let stored {
                for hop in hops {
                    guard let id = snapshot.toOne[hop], let next = try stored.snapshot(for: id) else { return nil }
                    snapshot = next
                }
                hops = []
            }
            guard let first = hops.first else {
                switch path.target {
                case .attribute(let attribute): return snapshot.attributes[attribute.name]
                case .toOne(let name): return snapshot.toOne[name].map(AttributeValue.objectID)
                case .evaluatedObject: return .objectID(snapshot.objectID)
                }
            }
            guard let destination = snapshot.toOne[first] else { return nil }
            object = try context.object(with: destination)
            hops = hops.dropFirst()
        }
        for hop in hops {
            guard let next = try object.value(forKey: hop) as? ManagedObject else { return nil }
            object = next
        }
        switch path.target {
        case .attribute(let attribute): return try object.primitiveValue(forKey: attribute.name)
        case .toOne(let name): return (try object.value(forKey: name) as? ManagedObject).map { .objectID($0.objectID) }
        case .evaluatedObject: return .objectID(object.objectID)
        }
    }
}

/// The stored snapshots one fetch has read, each read once.
final class StoredSnapshots {
    private let coordinator: PersistentStoreCoordinator
    private var cache: [ManagedObjectID: ObjectSnapshot?] = [:]

    init(coordinator: PersistentStoreCoordinator) { self.coordinator = coordinator }

    func snapshot(for id: ManagedObjectID) throws -> ObjectSnapshot? {
        if let known = cache[id] { return known }
        let snapshot = try coordinator.snapshot(for: id)
        cache[id] = .some(snapshot)
        return snapshot
    }
}

/// A stored snapshot seen from a context: its attributes come from the snapshot, its
/// relationships lead to the context's objects (faults that fill on first use), or to further
/// stored snapshots when the reader leaves pending changes out.
struct StoredRowView: IdentifiedKeyValue {
    let snapshot: ObjectSnapshot
    let entity: EntityDescription
    let reader: RowReader

    var objectID: ManagedObjectID { snapshot.objectID }

    func value(forKey key: String) throws -> Any? {
        guard let property = entity.propertiesByName[key] else {
            throw ObjectError.unknownKey(entity: entity.name, key: key)
        }
        let context = reader.context
        switch property {
        case .attribute(let attribute):
            return try snapshot.attributes[key].map { try $0.swiftValue(for: attribute, entity: entity.name) }
        case .relationship(let relationship):
            if let stored = reader.stored {
                guard relationship.isToMany else {
                    return try snapshot.toOne[key].flatMap { try stored.snapshot(for: $0) }.map { try reader.view($0) }
                }
                let ids = try snapshot.toMany[key]
                    ?? context.readingCoordinator.relatedObjectIDs(of: snapshot.objectID, relationship: key)
                return try ids.compactMap { try stored.snapshot(for: $0) }.map { try reader.view($0) } as [Any]
            }
            guard relationship.isToMany else {
                return try snapshot.toOne[key].map { try context.object(with: $0) }
            }
            let ids = try snapshot.toMany[key]
                ?? context.readingCoordinator.relatedObjectIDs(of: snapshot.objectID, relationship: key)
            let objects = try ids.map { try context.object(with: $0) }
            return relationship.isOrdered ? objects as Any : Set(objects) as Any
        case .fetchedProperty:
            return try context.object(with: snapshot.objectID).value(forKey: key)
        }
    }
}

/// A key path of `propertiesToFetch` or `propertiesToGroupBy`, checked against the model: the
/// to-one relationships it walks and what it reads at the end.
struct ResolvedKeyPath: Hashable {
    enum Target: Hashable {
        /// A stored attribute.
        case attribute(AttributeDescription)
        /// A to-one relationship, read as the destination's ID.
        case toOne(String)
        /// The object itself, read as its ID.
        case evaluatedObject
    }

    let path: String
    let hops: [String]
    let target: Target

    /// The type of the value read.
    var valueType: AttributeType {
        switch target {
        case .attribute(let attribute): attribute.type
        case .toOne, .evaluatedObject: .objectID
        }
    }

    /// How the value is typed in a result dictionary under `name`.
    func resultAttribute(named name: String) -> AttributeDescription {
        switch target {
        case .attribute(var attribute):
            attribute.name = name
            return attribute
        case .toOne, .evaluatedObject:
            return AttributeDescription(name: name, type: .objectID)
        }
    }

    static let evaluatedObject = ResolvedKeyPath(path: "SELF", hops: [], target: .evaluatedObject)

    /// The attribute or to-one of the fetched entity itself that the path reads: what a store
    /// reads from the row's own column. Nil through a relationship, or for the object itself.
    var ownKey: String? {
        guard hops.isEmpty else { return nil }
        return switch target {
        case .attribute(let attribute): attribute.name
        case .toOne(let name): name
        case .evaluatedObject: nil
        }
    }

    /// Resolves `path` from `entity`: every part but the last must be a to-one relationship; the
    /// last a stored attribute or a to-one relationship.
    static func resolve(_ path: String, from entity: EntityDescription, in model: ManagedObjectModel) throws -> ResolvedKeyPath {
        func invalid(_ reason: String) -> FetchRequestError {
            .invalidProperty(entity: entity.name, property: path, reason: reason)
        }
        let split = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !path.isEmpty, split.allSatisfy({ !$0.isEmpty }) else { throw invalid("empty key path component") }
        let parts = entity.joiningCompositePaths(split, model: model)
        var current = entity
        var hops: [String] = []
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard let property = current.propertiesByName[part] else {
                throw invalid("entity '\(current.name)' has no property '\(part)'")
            }
            switch property {
            case .attribute(let attribute):
                guard isLast else { throw invalid("'\(part)' is an attribute, not a relationship to walk through") }
                guard !attribute.isTransient else { throw invalid("'\(part)' is transient and not stored") }
                return ResolvedKeyPath(path: path, hops: hops, target: .attribute(attribute))
            case .relationship(let relationship):
                guard !relationship.isToMany else {
                    throw invalid("'\(part)' is a to-many relationship; fetch its values with an aggregate or fetch the other entity")
                }
                if isLast { return ResolvedKeyPath(path: path, hops: hops, target: .toOne(part)) }
                guard let destination = model.entitiesByName[relationship.destinationEntityName] else {
                    throw invalid("unknown destination entity '\(relationship.destinationEntityName)'")
                }
                hops.append(part)
                current = destination
            case .fetchedProperty:
                throw invalid("'\(part)' is a fetched property")
            }
        }
        throw invalid("empty key path")
    }
}
