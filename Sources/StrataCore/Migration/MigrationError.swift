import Foundation

/// Why a store could not be migrated, or was refused because it needs a migration.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store was written with another model version, and migration was not asked for
    /// (``StoreOption/shouldMigrateStoreAutomatically`` off).
    case incompatibleStore(StoreIncompatibility)
    /// The store needs a migration, but no way leads from its version to the model: its model is
    /// among no known versions, or a step has no mapping model and inferring is off.
    case noMigrationPath(StoreIncompatibility, reason: String)
    /// A change between two model versions that an inferred migration cannot make.
    case cannotInfer(MigrationChange, reason: String)
    /// A migration step failed; the store is as it was before the migration began.
    case stepFailed(step: String, reason: String)

    /// One line that says what and where.
    public var description: String {
        switch self {
        case .incompatibleStore(let incompatibility):
            "\(incompatibility) (automatic migration is off: set \(StoreOption.shouldMigrateStoreAutomatically))"
        case let .noMigrationPath(incompatibility, reason): "\(incompatibility); no migration path: \(reason)"
        case let .cannotInfer(change, reason): "cannot infer a migration for \(change): \(reason)"
        case let .stepFailed(step, reason): "migration step \(step) failed: \(reason)"
        }
    }
}

/// What differs between a store and the model it was opened with.
public struct StoreIncompatibility: Sendable, Hashable, CustomStringConvertible {
    /// The store's file.
    public var file: String
    /// The entities, in name order, whose version hash differs (or that only one side has).
    public var entities: [String]
    /// The first change found, when the store's own model is known (from its compiled model or a
    /// matching model version); nil when only the version hashes are.
    public var firstChange: MigrationChange?
    /// The names of the known model versions whose hashes match the store (empty when none does,
    /// or no versions are known).
    public var matchingVersions: [String]

    /// Creates a description of an incompatible store.
    public init(file: String, entities: [String], firstChange: MigrationChange?, matchingVersions: [String]) {
        self.file = file
        self.entities = entities
        self.firstChange = firstChange
        self.matchingVersions = matchingVersions
    }

    /// `file: written with another model version: <first change>; versions matching the store: …`.
    public var description: String {
        var text = "\(file): the store was written with another model version"
        if let firstChange {
            text += " (first change: \(firstChange))"
        } else if let first = entities.first {
            text += " (entity '\(first)' differs" + (entities.count > 1 ? ", and \(entities.count - 1) more)" : ")")
        }
        text += matchingVersions.isEmpty ? "; no known model version matches it"
            : "; model versions matching the store: \(matchingVersions.joined(separator: ", "))"
        return text
    }
}
