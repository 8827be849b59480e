import Foundation

/// Why a store or the coordinator refused an operation.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No store type is registered under the name.
    case unknownStoreType(String)
    /// No loaded store can hold objects of the entity.
    case noStoreForEntity(String)
    /// The store is not loaded in this coordinator.
    case storeNotLoaded(String)
    /// A store with the same UUID or file is already loaded.
    case storeAlreadyLoaded(String)
    /// The configuration is not in the model.
    case unknownConfiguration(String)
    /// The store's data changed since the saver read it.
    case mergeConflict([MergeConflict])
    /// A save would insert an object whose ID the store already holds.
    case duplicateObject(ManagedObjectID)
    /// A save would change or delete an object the store does not hold.
    case missingObject(ManagedObjectID)
    /// Reading or writing the store's file failed.
    case io(file: String, operation: String, reason: String)
    /// The store's file is damaged or not of the expected format.
    case corruptStore(file: String, offset: Int?, reason: String)
    /// The store was written with a model whose version hashes differ.
    case incompatibleModel(file: String, entities: [String])
    /// A save would give two objects the same values of a uniqueness constraint.
    case constraintConflict([ConstraintConflict])
    /// The store was opened with ``StoreOption/readOnly``, and something asked it to write.
    case readOnlyStore(file: String)
    /// A name in the model that the store cannot use as a table, column or index name (the SQLite
    /// store takes names made of letters, digits and underscores, not starting with a digit).
    case unusableName(file: String, name: String)
    /// A stored value its attribute cannot hold (out of the type's range, or of another type):
    /// the store refuses to read it, naming the file, the object, the attribute and the value.
    case invalidStoredValue(StoredValueProblem)

    /// One line that says what failed and where.
    public var description: String {
        switch self {
        case .unknownStoreType(let name):
            "no store type is registered under the name '\(name)' (StoreType.register(_:factory:metadataReader:) registers a store type)"
        case .noStoreForEntity(let entity): "no loaded store can hold objects of entity '\(entity)'"
        case .storeNotLoaded(let id): "store \(id) is not loaded in this coordinator"
        case .storeAlreadyLoaded(let id): "store \(id) is already loaded"
        case .unknownConfiguration(let name): "the model has no configuration '\(name)'"
        case .mergeConflict(let conflicts):
            "merge conflict on \(conflicts.count) object(s): " + conflicts.map(\.description).joined(separator: "; ")
        case .duplicateObject(let id): "the store already holds \(id)"
        case .missingObject(let id): "the store holds no object \(id)"
        case let .io(file, operation, reason): "\(file): \(operation) failed: \(reason)"
        case let .corruptStore(file, offset, reason):
            "\(file)\(offset.map { " at offset \($0)" } ?? ""): \(reason)"
        case .constraintConflict(let conflicts):
            "uniqueness constraint violated: " + conflicts.map(\.description).joined(separator: "; ")
        case let .unusableName(file, name):
            "\(file): the model's name '\(name)' cannot name a table, column or index (letters, digits and underscores only, not starting with a digit)"
        case .invalidStoredValue(let problem): problem.description
        case .readOnlyStore(let file): "\(file.isEmpty ? "the store" : file): opened read-only; nothing is written to it"
        case let .incompatibleModel(file, entities):
            "\(file): the model does not match the store, written with another model version (entities \(entities.joined(separator: ", ")) differ)"
        }
    }
}

/// One object whose stored state moved on between a context reading it and saving it.
public struct MergeConflict: Sendable, Hashable, CustomStringConvertible {
    /// The object.
    public var objectID: ManagedObjectID
    /// The version the saving context read.
    public var cachedVersion: Int64
    /// The version the store holds now (nil: deleted meanwhile).
    public var databaseVersion: Int64?
    /// The store's current snapshot (nil: deleted meanwhile).
    public var databaseSnapshot: ObjectSnapshot?
    /// The snapshot the context tried to save (nil for a delete).
    public var objectSnapshot: ObjectSnapshot?

    /// Creates a conflict record.
    public init(objectID: ManagedObjectID, cachedVersion: Int64, databaseVersion: Int64?,
                databaseSnapshot: ObjectSnapshot?, objectSnapshot: ObjectSnapshot?) {
        self.objectID = objectID
        self.cachedVersion = cachedVersion
        self.databaseVersion = databaseVersion
        self.databaseSnapshot = databaseSnapshot
        self.objectSnapshot = objectSnapshot
    }

    /// The object and both versions.
    public var description: String {
        "\(objectID) (read version \(cachedVersion), store \(databaseVersion.map(String.init) ?? "deleted"))"
    }
}

/// One object whose values of a uniqueness constraint another object already holds (Core Data's
/// `NSConstraintConflict`).
public struct ConstraintConflict: Sendable, Hashable, CustomStringConvertible {
    /// The entity that declares the constraint.
    public var entityName: String
    /// The constrained properties.
    public var properties: [String]
    /// The object being saved.
    public var objectID: ManagedObjectID
    /// The stored object that already holds the values, when the store can tell.
    public var databaseObjectID: ManagedObjectID?

    /// Creates a conflict.
    public init(entityName: String, properties: [String], objectID: ManagedObjectID, databaseObjectID: ManagedObjectID?) {
        self.entityName = entityName
        self.properties = properties
        self.objectID = objectID
        self.databaseObjectID = databaseObjectID
    }

    /// `Entity(a, b) of <object> already held by <object>`.
    public var description: String {
        "\(entityName)(\(properties.joined(separator: ", "))) of \(objectID)"
            + (databaseObjectID.map { " is already held by \($0)" } ?? " is already held by another object")
    }
}
