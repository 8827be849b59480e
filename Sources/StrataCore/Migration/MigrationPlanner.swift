import Foundation

/// Plans how a store is brought forward to a model: finds the store's version among known model
/// versions by its version hashes (or uses the model the store keeps), then goes through the
/// chain up to the model's version step by step, each step by a mapping model when a provider
/// has one, else inferred. A model that is not among the versions is reached in one step.
///
/// ```swift
/// var planner = MigrationPlanner(versions: [v1, v2, v3])
/// let plan = try planner.plan(storeMetadata: metadata, storedModel: nil, to: v3.model, file: path)
/// print(plan.description)
/// ```
public struct MigrationPlanner: Sendable {
    /// The known versions, oldest first.
    public var versions: [ModelVersion]
    /// Where mapping models come from, asked in order for each step.
    public var mappingProviders: [any MigrationMappingProvider]
    /// Whether a step without a mapping model is inferred.
    public var infersMappings: Bool
    /// The custom stages of a staged migration.
    public var customStages: [CustomMigrationStage]

    /// A planner over `versions`, oldest first.
    public init(versions: [ModelVersion] = [], mappingProviders: [any MigrationMappingProvider] = [], infersMappings: Bool = true) {
        self.versions = versions
        self.mappingProviders = mappingProviders
        self.infersMappings = infersMappings
        self.customStages = []
    }

    /// A planner over the versions and custom stages of a staged migration.
    public init(stagedMigration manager: StagedMigrationManager, mappingProviders: [any MigrationMappingProvider] = []) {
        self.init(versions: manager.versions, mappingProviders: mappingProviders)
        self.customStages = manager.customStages
    }

    /// The names of the known versions whose hashes are `hashes`.
    public func matchingVersions(forVersionHashes hashes: [String: Data]) -> [String] {
        versions.filter { $0.model.isCompatible(withVersionHashes: hashes) }.map(\.name)
    }

    /// What differs between a store with `metadata` and `model`.
    public func incompatibility(storeMetadata metadata: [String: PropertyListValue], storedModel: ManagedObjectModel?,
                                model: ManagedObjectModel, file: String) -> StoreIncompatibility {
        let hashes = StoreMetadataKey.versionHashes(in: metadata)
        let sourceModel = versions.first { $0.model.isCompatible(withVersionHashes: hashes) }?.model
            ?? storedModel.flatMap { $0.isCompatible(withVersionHashes: hashes) ? $0 : nil }
        return StoreIncompatibility(file: file, entities: model.entitiesDiffering(fromVersionHashes: hashes),
                                    firstChange: sourceModel.flatMap { InferredMapping.changes(from: $0, to: model).first },
                                    matchingVersions: matchingVersions(forVersionHashes: hashes))
    }

    /// The plan that brings a store with `metadata` to `model`.
    ///
    /// - Parameters:
    ///   - metadata: the store's metadata, whose version hashes name its model.
    ///   - storedModel: the model the store keeps (used when no known version matches it).
    ///   - model: the model the store is brought to.
    ///   - file: the store's path, for errors.
    /// - Throws: ``MigrationError/noMigrationPath(_:reason:)`` when the store's version is not
    ///   known, or is newer than the model, or a step has no mapping and inferring is off;
    ///   ``MigrationError/cannotInfer(_:reason:)`` for a step that cannot be inferred.
    public func plan(storeMetadata metadata: [String: PropertyListValue], storedModel: ManagedObjectModel?,
                     to model: ManagedObjectModel, file: String) throws(MigrationError) -> MigrationPlan {
        let hashes = StoreMetadataKey.versionHashes(in: metadata)
        let target = versions.last { $0.model.isCompatible(withVersionHashes: model.entityVersionHashesByName) }
            ?? ModelVersion(name: "current model", model: model)
        if model.isCompatible(withVersionHashes: hashes) { return MigrationPlan(storeVersion: target, steps: []) }
        func noPath(_ reason: String) -> MigrationError {
            .noMigrationPath(incompatibility(storeMetadata: metadata, storedModel: storedModel, model: model, file: file), reason: reason)
        }
        var chain: [ModelVersion]
        if let start = versions.firstIndex(where: { $0.model.isCompatible(withVersionHashes: hashes) }) {
            if let end = versions.lastIndex(where: { $0.model.isCompatible(withVersionHashes: model.entityVersionHashesByName) }) {
                guard end > start else { throw noPath("the store was written with \(versions[start].name), a version after the model's") }
                chain = Array(versions[start...end])
            } else {
                chain = [versions[start], target]
            }
        } else if let storedModel, storedModel.isCompatible(withVersionHashes: hashes) {
            chain = [ModelVersion(name: "the store's model", model: storedModel), target]
        } else {
            throw noPath("no known model version matches the store, and the store keeps no model of its own")
        }
        var steps: [MigrationStep] = []
        for index in chain.indices.dropLast() {
            steps.append(try step(from: chain[index], to: chain[index + 1], noPath: noPath))
        }
        return MigrationPlan(storeVersion: chain[0], steps: steps)
    }

    /// One step: mapped when a provider has a mapping, else inferred when allowed.
    private func step(from source: ModelVersion, to destination: ModelVersion,
                      noPath: (String) -> MigrationError) throws(MigrationError) -> MigrationStep {
        let stage = customStages.first {
            $0.source.model.isCompatible(withVersionHashes: source.model.entityVersionHashesByName)
                && $0.destination.model.isCompatible(withVersionHashes: destination.model.entityVersionHashesByName)
        }
        for provider in mappingProviders {
            let mapped: MappedMigrationStep?
            do {
                mapped = try provider.mappedStep(from: source, to: destination)
            } catch let error as MigrationError {
                throw error
            } catch {
                throw .stepFailed(step: "\(source.name) → \(destination.name)", reason: "\(error)")
            }
            if let mapped {
                return MigrationStep(source: source, destination: destination, kind: .mapped(mapped),
                                     willMigrate: stage?.willMigrate, didMigrate: stage?.didMigrate)
            }
        }
        guard infersMappings || stage != nil else {
            throw noPath("no mapping model for \(source.name) → \(destination.name), and inferring mapping models is off")
        }
        return MigrationStep(source: source, destination: destination,
                             kind: .inferred(try InferredMapping(source: source.model, destination: destination.model)),
                             willMigrate: stage?.willMigrate, didMigrate: stage?.didMigrate)
    }
}
