import Foundation
import StrataCore

extension MappingModel {
    /// The name of the mapping model: its `.xcmappingmodel` bundle's name without the extension
    /// (`Moody 2-Moody 3`), its file's name, or, for one made in code, its entity mappings'
    /// names.
    public var displayName: String {
        guard let file else { return entityMappings.map(\.name).joined(separator: ", ") }
        let url = URL(fileURLWithPath: file)
        let bundle = url.deletingLastPathComponent()
        return bundle.pathExtension == "xcmappingmodel" ? bundle.deletingPathExtension().lastPathComponent
            : url.deletingPathExtension().lastPathComponent
    }

    /// Whether every entity mapping carries the version hashes of its entities (a mapping model
    /// made by ``resolved(source:destination:)``, or given them in code).
    public var hasVersionHashes: Bool {
        !entityMappings.isEmpty && entityMappings.allSatisfy { mapping in
            (mapping.sourceEntityName == nil || mapping.sourceEntityVersionHash != nil)
                && (mapping.destinationEntityName == nil || mapping.destinationEntityVersionHash != nil)
        }
    }

    /// Whether the mapping model is the one from `source` to `destination`, as Core Data finds a
    /// mapping model for two models:
    ///
    /// - when its entity mappings carry version hashes (``hasVersionHashes``), every source
    ///   entity's hash equals the hash of that entity in `source`, and every destination
    ///   entity's the hash of that entity in `destination`;
    /// - when they do not (an `.xcmappingmodel` as Xcode saves it: its compiler adds the hashes),
    ///   Xcode's copies of the two models it keeps in the file have the outlines of `source` and
    ///   `destination` (``sourceModelOutline``, ``destinationModelOutline``); resolving it then
    ///   gives the hashes.
    ///
    /// A mapping model made in code without hashes matches no models: make it with
    /// ``resolved(source:destination:)`` against the versions it is for.
    public func matches(source: ManagedObjectModel, destination: ManagedObjectModel) -> Bool {
        if hasVersionHashes {
            let sourceHashes = source.entityVersionHashesByName
            let destinationHashes = destination.entityVersionHashesByName
            return entityMappings.allSatisfy { mapping in
                mapping.sourceEntityName.map { sourceHashes[$0] != nil && sourceHashes[$0] == mapping.sourceEntityVersionHash } ?? true
                    && mapping.destinationEntityName.map {
                        destinationHashes[$0] != nil && destinationHashes[$0] == mapping.destinationEntityVersionHash
                    } ?? true
            }
        }
        guard let sourceModelOutline, let destinationModelOutline else { return false }
        return sourceModelOutline == ModelOutline(source) && destinationModelOutline == ModelOutline(destination)
    }

    /// The first mapping model of `mappingModels` that is the one from `source` to
    /// `destination` (``matches(source:destination:)``), resolved against the two models; nil
    /// when none is (Core Data's `NSMappingModel(from:forSourceModel:destinationModel:)`).
    ///
    /// - Throws: ``MappingModelError/mismatch(file:entityMapping:reason:)`` when the mapping
    ///   model found does not resolve against the two models.
    public static func find(in mappingModels: [MappingModel], source: ManagedObjectModel,
                            destination: ManagedObjectModel) throws(MappingModelError) -> MappingModel? {
        guard let found = mappingModels.first(where: { $0.matches(source: source, destination: destination) }) else { return nil }
        return try found.resolved(source: source, destination: destination)
    }

    /// One line per entity mapping: what it does (`MoodToMood: Mood → Mood, transform, policy
    /// P, filter F`, or `source fetch Mood where F` for a custom source fetch), what a dry run of
    /// a mapped step lists.
    public var summary: [String] {
        entityMappings.map { mapping in
            var line = "\(mapping.name): \(mapping.sourceEntityName ?? "(none)") → \(mapping.destinationEntityName ?? "(none)")"
            line += ", \(mapping.mappingType.xcodeName.lowercased())"
            if let policy = mapping.entityMigrationPolicyClassName { line += ", policy \(policy)" }
            if let expression = mapping.sourceExpression, !mapping.generatesSourceExpression {
                if let fetch = expression.sourceFetch {
                    line += ", source fetch \(fetch.entityName)" + (fetch.predicate.map { " where \($0)" } ?? "")
                } else {
                    line += ", source \(expression.format)"
                }
            } else if let filter = mapping.filterPredicate {
                line += ", filter \(filter)"
            }
            return line
        }
    }
}
