import Foundation

/// Migration in stages, in the manner of Core Data's `NSStagedMigrationManager`: lightweight
/// stages list model versions that follow each other by inferred steps; a custom stage goes from
/// one version to the next with code run before the step (on the store opened with the older
/// model) and after it (with the newer one).
///
/// ```swift
/// let manager = StagedMigrationManager([
///     .lightweight([v1, v2]),
///     .custom(CustomMigrationStage(from: v2, to: v3, didMigrate: { coordinator in
///         let context = ManagedObjectContext(coordinator: coordinator)
///         // fill the new attribute from the old ones, then save
///         try context.save()
///     })),
/// ])
/// coordinator.migrationPlanner = MigrationPlanner(stagedMigration: manager)
/// ```
public final class StagedMigrationManager: Sendable {
    /// The stages, oldest first.
    public let stages: [MigrationStage]

    /// Creates a manager for `stages`, oldest first.
    public init(_ stages: [MigrationStage]) {
        self.stages = stages
    }

    /// Every version the stages name, oldest first, each once.
    public var versions: [ModelVersion] {
        var chain: [ModelVersion] = []
        for stage in stages {
            let versions: [ModelVersion] = switch stage {
            case .lightweight(let versions): versions
            case .custom(let custom): [custom.source, custom.destination]
            }
            for version in versions where chain.last?.model.entityVersionHashesByName != version.model.entityVersionHashesByName {
                chain.append(version)
            }
        }
        return chain
    }

    /// The custom stages.
    var customStages: [CustomMigrationStage] {
        stages.compactMap { if case .custom(let stage) = $0 { stage } else { nil } }
    }
}

/// One stage of a ``StagedMigrationManager``.
public enum MigrationStage: Sendable {
    /// Versions, oldest first, each reached from the one before by an inferred step (Core Data's
    /// `NSLightweightMigrationStage`).
    case lightweight([ModelVersion])
    /// One step with handlers (Core Data's `NSCustomMigrationStage`).
    case custom(CustomMigrationStage)
}

/// A step from one model version to the next with code around it: `willMigrate` runs on the
/// store opened with the source model, then the step runs (a mapping model when a provider has
/// one, else inferred), then `didMigrate` runs on the store opened with the destination model.
/// Both get a coordinator with the store loaded; what they save is part of the migration.
public struct CustomMigrationStage: Sendable {
    /// The version the stage starts from.
    public var source: ModelVersion
    /// The version it ends at.
    public var destination: ModelVersion
    /// Runs before the step.
    public var willMigrate: (@Sendable (PersistentStoreCoordinator) throws -> Void)?
    /// Runs after the step.
    public var didMigrate: (@Sendable (PersistentStoreCoordinator) throws -> Void)?

    /// Creates a custom stage.
    public init(from source: ModelVersion, to destination: ModelVersion,
                willMigrate: (@Sendable (PersistentStoreCoordinator) throws -> Void)? = nil,
                didMigrate: (@Sendable (PersistentStoreCoordinator) throws -> Void)? = nil) {
        self.source = source
        self.destination = destination
        self.willMigrate = willMigrate
        self.didMigrate = didMigrate
    }
}
