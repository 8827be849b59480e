import StrataCore

/// The stage of a mapping-model migration, in Core Data's order: every entity mapping creates
/// its destination instances, then every entity mapping creates their relationships, then the
/// destination is validated.
public enum MappingStage: String, Sendable, Hashable, CustomStringConvertible {
    /// Opening the stores and resolving the mapping model.
    case preparation
    /// `createDestinationInstances(forSource:in:manager:)` for every source object.
    case instanceCreation
    /// `createRelationships(forDestination:in:manager:)` for every destination object.
    case relationshipCreation
    /// `performCustomValidation(forMapping:manager:)` and the validation of every destination object.
    case validation
    /// Writing the destination store.
    case writing

    /// The stage in words (`instance creation`).
    public var description: String {
        switch self {
        case .preparation: "preparation"
        case .instanceCreation: "instance creation"
        case .relationshipCreation: "relationship creation"
        case .validation: "validation"
        case .writing: "writing"
        }
    }
}

/// Why a mapping-model migration failed. Whatever the case, the source store is as it was and
/// no destination file is left behind.
public enum MappingMigrationError: Error, CustomStringConvertible {
    /// The mapping model does not fit the two models (see ``MappingModel/resolved(source:destination:)``).
    case mapping(MappingModelError)
    /// The source store cannot be opened with the source model: missing, damaged, or of
    /// another model version.
    case sourceUnreadable(file: String, underlying: any Error)
    /// Something is in the way at the destination URL; a migration never overwrites a file.
    case destinationExists(file: String)
    /// The destination store could not be made or written.
    case destinationUnwritable(file: String, underlying: any Error)
    /// An entity mapping names a migration policy class that no one registered with
    /// ``EntityMigrationPolicy/register(_:forName:)``.
    case unregisteredPolicy(className: String, entityMapping: String)
    /// An expression of the mapping model cannot be evaluated: an unknown variable, function
    /// or selector, a key the object lacks, a value of the wrong type.
    case expression(entityMapping: String, property: String?, expression: String, reason: String)
    /// A policy hook, or a value it set, failed.
    case stageFailed(stage: MappingStage, entityMapping: String, underlying: any Error)
    /// The destination objects do not validate against the destination model.
    case validation(ValidationError)
    /// ``MigrationManager/cancelMigration(with:)`` was called; `reason` is the error it was given.
    case cancelled(reason: any Error)

    /// One line that says what failed and where.
    public var description: String {
        switch self {
        case .mapping(let error): "\(error)"
        case let .sourceUnreadable(file, underlying): "\(file): cannot read the source store: \(underlying)"
        case .destinationExists(let file): "\(file): a file is in the way; a migration writes a new store only"
        case let .destinationUnwritable(file, underlying): "\(file): cannot write the destination store: \(underlying)"
        case let .unregisteredPolicy(className, entityMapping):
            "entity mapping \(entityMapping): no migration policy is registered as '\(className)' "
                + "(register it with EntityMigrationPolicy.register(_:forName:))"
        case let .expression(entityMapping, property, expression, reason):
            "entity mapping \(entityMapping)\(property.map { ", property \($0)" } ?? ""): \(expression): \(reason)"
        case let .stageFailed(stage, entityMapping, underlying):
            "entity mapping \(entityMapping), \(stage): \(underlying)"
        case .validation(let error): "the migrated objects do not validate: \(error)"
        case .cancelled(let reason): "migration cancelled: \(reason)"
        }
    }
}
