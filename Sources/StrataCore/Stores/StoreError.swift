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
    /// Objects changed or deleted elsewhere since the saving context read them (optimistic
    /// locking), and the context's ``ManagedObjectContext/mergePolicy`` did not resolve them.
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
    /// A save would give two objects the same values of a uniqueness constraint, and the
    /// context's ``ManagedObjectContext/mergePolicy`` did not resolve it.
    case constraintConflict([ConstraintConflict])
    /// The file is a store of another type than the one asked for (for example an XML store
    /// added as SQLite); nothing was read from or written to it.
    case storeTypeMismatch(file: String, expected: String, found: String)
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
        case let .storeTypeMismatch(file, expected, found):
            "\(file): the file is a \(found) store, not a \(expected) store as asked"
        case .readOnlyStore(let file): "\(file.isEmpty ? "the store" : file): opened read-only; nothing is written to it"
        case let .incompatibleModel(file, entities):
            "\(file): the model does not match the store, written with another model version (entities \(entities.joined(separator: ", ")) differ)"
        }
    }
}
