import Foundation
import StrataCore

/// Migrates a store from one model version to another with a mapping model (Core Data's
/// `NSMigrationManager`), in Core Data's three stages, in batches.
///
/// ```swift
/// let manager = MigrationManager(sourceModel: v2, destinationModel: v3)
/// manager.progressHandler = { print("\(Int($0 * 100)) %") }
/// try manager.migrateStore(from: oldURL, type: .sqlite, mapping: mapping,
///                          to: newURL, type: .sqlite)
/// ```
///
/// The source store is opened read-only and never written. The destination is a new store at
/// a URL where nothing is; when the migration fails or is cancelled it is removed. Memory is
/// bounded by a batch (``batchSize``), not by the store: source objects are read a batch at a
/// time, destination objects saved a batch at a time, both contexts emptied between batches,
/// and which source object became which destination object is kept as primary keys. A
/// destination of an atomic store type (XML, binary), which its format writes whole, is staged
/// in a temporary SQLite store beside it and written once at the end: memory is then bounded by
/// a batch until that last write, which holds the destination's whole image.
///
/// The manager and its contexts are confined to the thread that runs the migration.
public final class MigrationManager {
    /// The model of the source store.
    public let sourceModel: ManagedObjectModel
    /// The model of the destination store.
    public let destinationModel: ManagedObjectModel
    /// The mapping model of the migration running (or last run), resolved against the two
    /// models; empty before the first migration.
    public internal(set) var mappingModel = MappingModel(entityMappings: [])
    /// The context on the source store (read-only) while a migration runs.
    public internal(set) var sourceContext: ManagedObjectContext
    /// The context on the destination store while a migration runs: policies insert the
    /// destination objects here.
    public internal(set) var destinationContext: ManagedObjectContext
    /// Anything the policies want to share during a migration.
    public var userInfo: [String: Any] = [:]
    /// How far the migration is, from 0 to 1.
    public internal(set) var migrationProgress: Float = 0
    /// Called on the migration's thread whenever ``migrationProgress`` moves (at most once per
    /// batch and at the end of each stage).
    public var progressHandler: ((Float) -> Void)?
    /// How many objects are read, made and saved at a time (at least 1).
    public var batchSize = 5_000
    /// The entity mapping being carried out.
    public internal(set) var currentEntityMapping: EntityMapping?
    /// The stage the migration is in.
    public internal(set) var stage = MappingStage.preparation

    /// The associations of each entity mapping, by name.
    var tables: [String: AssociationTable] = [:]
    /// The error ``cancelMigration(with:)`` was given.
    var cancellation: (any Error)?
    /// The UUID of the source store.
    var sourceStoreIdentifier = ""
    /// The UUID of the destination store (the store the destination context saves into).
    var destinationStoreIdentifier = ""
    /// While relationships are created: the source object of each destination object of the batch.
    var batchSources: [ManagedObjectID: ManagedObjectID] = [:]
    /// Whether the destination store keeps a many-to-one relationship as the foreign key of its
    /// to-one side alone (SQLite), so that setting the to-one need not load the inverse to-many.
    var writesForeignKeysAlone = false
    /// Whether the source store, and the store the destination context saves into, read a batch
    /// of objects one ID at a time (atomic stores, which look an ID up at once but go over every
    /// object for a fetch) rather than with one fetch per entity.
    var sourceLoadsByID = false
    var destinationLoadsByID = false
    /// Units of work done and to do, for ``migrationProgress``.
    var progressDone = 0
    var progressTotal = 1

    /// Creates a manager for migrations from `sourceModel` to `destinationModel`.
    public init(sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        sourceContext = ManagedObjectContext(coordinator: PersistentStoreCoordinator(managedObjectModel: sourceModel))
        destinationContext = ManagedObjectContext(coordinator: PersistentStoreCoordinator(managedObjectModel: destinationModel))
    }

    /// Stops the migration: the manager throws ``MappingMigrationError/cancelled(reason:)`` with `error`
    /// as soon as the hook that called this returns, and removes the destination.
    public func cancelMigration(with error: any Error) {
        if cancellation == nil { cancellation = error }
    }

    /// Records that `destination` was made from `source` by `entityMapping`; the default
    /// ``EntityMigrationPolicy/createDestinationInstances(forSource:in:manager:)`` calls it, and
    /// so should a policy that makes destination objects itself.
    public func associate(sourceInstance source: ManagedObject, withDestinationInstance destination: ManagedObject,
                          for entityMapping: EntityMapping) {
        tables[entityMapping.name, default: AssociationTable(sourceEntity: entityMapping.sourceEntityName,
                                                             destinationEntity: entityMapping.destinationEntityName)]
            .associate(source.objectID, with: destination)
    }

    /// The destination objects that the entity mapping `name` made from `sources`, in the
    /// destination context, in the order of `sources`.
    ///
    /// A source object that the mapping did not take (a subentity's object, which a mapping of
    /// its own entity took) gives what the mapping of its own entity made, when that mapping's
    /// destination entity is the named mapping's or a subentity of it.
    ///
    /// - Throws: ``MappingMigrationError/expression(entityMapping:property:expression:reason:)`` when
    ///   no entity mapping is named `name`; what the destination store throws.
    public func destinationInstances(forEntityMappingName name: String, sourceInstances sources: [ManagedObject]) throws -> [ManagedObject] {
        guard let table = tables[name] else { throw unknownMapping(name, "destinationInstances(forEntityMappingName:sourceInstances:)") }
        var result: [ManagedObject] = []
        for source in sources {
            var found = try destinations(of: source.objectID, in: table)
            if found.isEmpty, source.entity.name != table.sourceEntity, let other = fallbackTable(for: source, instead: table) {
                found = try destinations(of: source.objectID, in: other)
            }
            result += found
        }
        return result
    }

    /// The source objects from which the entity mapping `name` made `destinations`, in the
    /// source context.
    ///
    /// - Throws: as ``destinationInstances(forEntityMappingName:sourceInstances:)``.
    public func sourceInstances(forEntityMappingName name: String, destinationInstances destinations: [ManagedObject]) throws -> [ManagedObject] {
        guard tables[name] != nil else { throw unknownMapping(name, "sourceInstances(forEntityMappingName:destinationInstances:)") }
        var result: [ManagedObject] = []
        for destination in destinations {
            let id = destination.objectID
            if let source = batchSources[id] {
                result.append(try sourceContext.object(with: source))
                continue
            }
            var ids = tables[name]?.pendingSources(of: destination) ?? []
            if !id.isTemporaryID {
                ids += tables[name]?.savedSources(of: id, store: sourceStoreIdentifier) ?? []
            }
            result += try ids.map { try sourceContext.object(with: $0) }
        }
        return result
    }

    private func destinations(of source: ManagedObjectID, in table: AssociationTable) throws -> [ManagedObject] {
        let saved = try table.savedDestinations(of: source, store: destinationStoreIdentifier).map { try destinationContext.object(with: $0) }
        return table.pendingDestinations(of: source) + saved
    }

    /// The table of the mapping of `source`'s own entity whose destination entity is, or
    /// inherits from, `table`'s.
    private func fallbackTable(for source: ManagedObject, instead table: AssociationTable) -> AssociationTable? {
        for mapping in mappingModel.entityMappings where mapping.sourceEntityName == source.entity.name {
            guard let destination = mapping.destinationEntityName, let wanted = table.destinationEntity,
                  destinationModel.entity(named: destination).map({ isKind($0, of: wanted) }) == true else { continue }
            return tables[mapping.name]
        }
        return nil
    }

    private func isKind(_ entity: EntityDescription, of name: String) -> Bool {
        var current: EntityDescription? = entity
        while let entity = current {
            if entity.name == name { return true }
            current = entity.superentityName.flatMap { destinationModel.entity(named: $0) }
        }
        return false
    }

    private func unknownMapping(_ name: String, _ call: String) -> MappingMigrationError {
        .expression(entityMapping: currentEntityMapping?.name ?? name, property: nil, expression: call,
                    reason: "no entity mapping is named '\(name)'")
    }

    /// Counts `units` of work done and tells the progress handler.
    func advance(by units: Int) {
        progressDone += units
        report(Float(min(progressDone, progressTotal)) / Float(max(progressTotal, 1)))
    }

    func report(_ progress: Float) {
        guard progress != migrationProgress else { return }
        migrationProgress = progress
        progressHandler?(progress)
    }
}

@available(*, unavailable, message: "A migration manager is confined to the thread that runs the migration.")
extension MigrationManager: Sendable {}
