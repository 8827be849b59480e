import Foundation

/// One named version of a model: a step of a migration goes from one to the next.
public struct ModelVersion: Sendable {
    /// The version's name (`Model 2`).
    public var name: String
    /// The model.
    public var model: ManagedObjectModel

    /// Creates a named version.
    public init(name: String, model: ManagedObjectModel) {
        self.name = name
        self.model = model
    }
}

/// A migration step run by a mapping model: what a mapping-model engine (module
/// `StrataMigration`) or your own code gives a ``MigrationPlanner`` through a
/// ``MigrationMappingProvider``. It writes a complete destination store at a new file and never
/// writes to the source.
public struct MappedMigrationStep: Sendable {
    /// The mapping's name, for plans and errors.
    public var name: String
    /// One line per thing the mapping does, for a dry run.
    public var summary: [String]
    /// Writes the destination store from the source store.
    public var migrate: @Sendable (MappedMigrationRequest) throws -> Void

    /// Creates a mapped step.
    public init(name: String, summary: [String] = [], migrate: @escaping @Sendable (MappedMigrationRequest) throws -> Void) {
        self.name = name
        self.summary = summary
        self.migrate = migrate
    }
}

/// What a ``MappedMigrationStep`` is asked to do: read the source store, write the destination.
public struct MappedMigrationRequest: Sendable {
    /// The source store's file (not to be written).
    public var sourceURL: URL
    /// The source store's type.
    public var sourceType: StoreType
    /// The model the source store was written with.
    public var sourceModel: ManagedObjectModel
    /// Where to write the destination store (no file is there).
    public var destinationURL: URL
    /// The destination store's type.
    public var destinationType: StoreType
    /// The destination model.
    public var destinationModel: ManagedObjectModel
    /// Called with the fraction of the step done (0…1).
    public var progress: @Sendable (Double) -> Void
}

/// Finds the mapping model of a step between two model versions, when there is one.
public protocol MigrationMappingProvider: Sendable {
    /// The mapped step from `source` to `destination`, or nil to let the step be inferred.
    ///
    /// - Throws: when a mapping exists but cannot be used.
    func mappedStep(from source: ModelVersion, to destination: ModelVersion) throws -> MappedMigrationStep?
}

/// One step of a migration: from one model version to the next, inferred or by a mapping, with
/// the handlers of a custom stage.
public struct MigrationStep: Sendable {
    /// The version the step starts from.
    public var source: ModelVersion
    /// The version it ends at.
    public var destination: ModelVersion
    /// How the data moves.
    public var kind: Kind
    /// Runs on the store, opened with the source model, before the step (a custom stage's).
    public var willMigrate: (@Sendable (PersistentStoreCoordinator) throws -> Void)?
    /// Runs on the store, opened with the destination model, after the step (a custom stage's).
    public var didMigrate: (@Sendable (PersistentStoreCoordinator) throws -> Void)?

    /// How a step moves the data.
    public enum Kind: Sendable {
        /// An inferred (lightweight) mapping.
        case inferred(InferredMapping)
        /// A mapping model.
        case mapped(MappedMigrationStep)
    }

    /// Creates a step.
    public init(source: ModelVersion, destination: ModelVersion, kind: Kind,
                willMigrate: (@Sendable (PersistentStoreCoordinator) throws -> Void)? = nil,
                didMigrate: (@Sendable (PersistentStoreCoordinator) throws -> Void)? = nil) {
        self.source = source
        self.destination = destination
        self.kind = kind
        self.willMigrate = willMigrate
        self.didMigrate = didMigrate
    }

    /// `V1 → V2: inferred`, `V2 → V3: mapped (V2ToV3)`, followed by `, custom stage` for a
    /// step with handlers.
    public var title: String {
        let how = switch kind {
        case .inferred: "inferred"
        case .mapped(let mapping): "mapped (\(mapping.name))"
        }
        let custom = willMigrate != nil || didMigrate != nil ? ", custom stage" : ""
        return "\(source.name) → \(destination.name): \(how)\(custom)"
    }

    /// One line per change the step makes.
    public var summary: [String] {
        switch kind {
        case .inferred(let mapping): mapping.changes.isEmpty ? ["no stored data changes"] : mapping.changes.map(\.description)
        case .mapped(let mapping): mapping.summary
        }
    }

    /// The changes of an inferred step that drop stored data.
    public var droppedData: [MigrationChange] {
        if case .inferred(let mapping) = kind { return mapping.changes.filter(\.dropsData) }
        return []
    }
}

/// The steps that bring a store from its version to the model.
public struct MigrationPlan: Sendable {
    /// The version the store was written with.
    public var storeVersion: ModelVersion
    /// The steps, in order (none when the store matches the model).
    public var steps: [MigrationStep]

    /// Creates a plan.
    public init(storeVersion: ModelVersion, steps: [MigrationStep]) {
        self.storeVersion = storeVersion
        self.steps = steps
    }

    /// Every step's title followed by its changes, indented: what `strata migrate --dry-run` prints.
    public var description: String {
        guard !steps.isEmpty else { return "the store matches the model (version \(storeVersion.name)): nothing to migrate" }
        return steps.enumerated().map { index, step in
            (["\(index + 1). \(step.title)"] + step.summary.map { "   - " + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
