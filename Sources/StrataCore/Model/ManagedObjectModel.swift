import Foundation

/// A checked, immutable object model: entities with inheritance resolved, relationships and
/// inverses verified, configurations, stored fetch requests and version hashes.
///
/// ```swift
/// let model = try ManagedObjectModel {
///     EntityDescription("Student") {
///         Attribute("id", .integer64, optional: false)
///         Attribute("name", .string)
///         Attribute("age", .integer16)
///     }
/// }
/// ```
public final class ManagedObjectModel: Sendable, Equatable, CustomStringConvertible {
    /// The name of the configuration that holds every entity.
    public static let defaultConfigurationName = "Default"

    /// Every entity, in the order given.
    public let entities: [EntityDescription]
    /// Every entity by name.
    public let entitiesByName: [String: EntityDescription]
    /// Named subsets of entities; a store added with a configuration holds exactly those.
    public let configurations: [String: [String]]
    /// Fetch requests stored in the model, by name.
    public let fetchRequestTemplates: [String: FetchRequestTemplate]
    /// Free-form version identifiers.
    public let versionIdentifiers: Set<String>
    /// Entity name → 32-byte version hash.
    public let entityVersionHashesByName: [String: Data]
    /// The entities whose objects may close a cycle of strong references between objects: what
    /// a context cuts loose when it goes or is reset (see ``ReferenceCycles``).
    let entitiesOnReferenceCycles: Set<String>
    /// The derived attributes of each entity that has any (inherited ones included), parsed.
    public let derivedAttributesByEntity: [String: [DerivedAttribute]]

    /// Creates a model from entity descriptions, checking the whole graph.
    ///
    /// - Throws: ``ModelError`` naming the entity and property at fault.
    public init(
        entities: [EntityDescription],
        configurations: [String: [String]] = [:],
        fetchRequestTemplates: [String: FetchRequestTemplate] = [:],
        versionIdentifiers: Set<String> = []
    ) throws {
        let resolved = try ModelResolver(entities: entities).resolve()
        for (configuration, members) in configurations {
            for member in members where resolved.byName[member] == nil {
                throw ModelError.unknownConfigurationEntity(configuration: configuration, entity: member)
            }
        }
        for template in fetchRequestTemplates.values where resolved.byName[template.entityName] == nil {
            throw ModelError.unknownDestination(entity: template.entityName, property: template.name, destination: template.entityName)
        }
        self.entities = resolved.ordered
        self.entitiesByName = resolved.byName
        self.configurations = configurations
        self.fetchRequestTemplates = fetchRequestTemplates
        self.versionIdentifiers = versionIdentifiers
        self.entityVersionHashesByName = resolved.byName.mapValues(\.versionHash)
        self.entitiesOnReferenceCycles = ReferenceCycles.entities(in: resolved.byName)
        self.derivedAttributesByEntity = try Self.derivedAttributes(of: resolved.ordered, byName: resolved.byName)
    }

    /// Parses every derived attribute's derivation, or throws
    /// ``ModelError/unsupportedDerivation(entity:attribute:expression:reason:)`` naming the first
    /// one Strata cannot compute.
    private static func derivedAttributes(of entities: [EntityDescription],
                                          byName: [String: EntityDescription]) throws -> [String: [DerivedAttribute]] {
        var result: [String: [DerivedAttribute]] = [:]
        for entity in entities {
            for attribute in entity.attributes {
                guard let text = attribute.derivationExpression else { continue }
                switch Derivation.parse(text, attribute: attribute, entity: entity, entities: byName) {
                case .success(let derivation):
                    result[entity.name, default: []].append(DerivedAttribute(entityName: entity.name, attribute: attribute, derivation: derivation))
                case .failure(let problem):
                    throw ModelError.unsupportedDerivation(entity: entity.name, attribute: attribute.name, expression: text, reason: problem)
                }
            }
        }
        return result
    }

    /// Creates a model with the builder DSL.
    public convenience init(
        configurations: [String: [String]] = [:],
        @EntitiesBuilder _ entities: () -> [EntityDescription]
    ) throws {
        try self.init(entities: entities(), configurations: configurations)
    }

    /// The entity called `name`.
    public func entity(named name: String) -> EntityDescription? { entitiesByName[name] }

    /// The names of the entities in `configuration` (every entity for `nil` or ``defaultConfigurationName``).
    public func entityNames(forConfiguration configuration: String?) -> [String] {
        guard let configuration, configuration != Self.defaultConfigurationName,
              let members = configurations[configuration] else {
            return entities.map(\.name)
        }
        return members
    }

    /// `entity` followed by every entity that inherits from it, depth first.
    public func entityAndDescendants(of name: String) -> [String] {
        Self.entityAndDescendants(of: name, in: entitiesByName)
    }

    /// `name` followed by every entity of `entitiesByName` that inherits from it, depth first:
    /// for the model's own initialiser, before the model exists.
    static func entityAndDescendants(of name: String, in entitiesByName: [String: EntityDescription]) -> [String] {
        guard let entity = entitiesByName[name] else { return [] }
        return [name] + entity.subentityNames.flatMap { entityAndDescendants(of: $0, in: entitiesByName) }
    }

    /// Whether `name` is `ancestor` or inherits from it.
    public func entity(_ name: String, isKindOf ancestor: String) -> Bool {
        var current: String? = name
        while let each = current {
            if each == ancestor { return true }
            current = entitiesByName[each]?.superentityName
        }
        return false
    }

    /// Whether a store that recorded `hashes` holds data this model can read unchanged.
    public func isCompatible(withVersionHashes hashes: [String: Data]) -> Bool {
        hashes == entityVersionHashesByName
    }

    /// The entities, in name order, whose hash in `hashes` differs from this model's (or that
    /// only one of the two has).
    public func entitiesDiffering(fromVersionHashes hashes: [String: Data]) -> [String] {
        Set(hashes.keys).union(entityVersionHashesByName.keys).filter { hashes[$0] != entityVersionHashesByName[$0] }.sorted()
    }

    /// Refuses store metadata recorded with another model version; metadata without version
    /// hashes is accepted.
    ///
    /// - Throws: ``StoreError/incompatibleModel(file:entities:)`` naming `file` and the entities
    ///   that differ.
    public func checkCompatibility(withStoreMetadata metadata: [String: PropertyListValue], file: String) throws {
        guard metadata[StoreMetadataKey.modelVersionHashes]?.dictionaryValue != nil else { return }
        let hashes = StoreMetadataKey.versionHashes(in: metadata)
        guard !isCompatible(withVersionHashes: hashes) else { return }
        throw StoreError.incompatibleModel(file: file, entities: entitiesDiffering(fromVersionHashes: hashes))
    }

    /// Core Data's `NSStoreModelVersionHashesDigest`: SHA-512 over each entity's name and hash,
    /// in name order.
    public var versionHashesDigest: Data {
        var bytes: [UInt8] = []
        for name in entityVersionHashesByName.keys.sorted() {
            bytes += Array(name.utf8) + Array(entityVersionHashesByName[name] ?? Data())
        }
        return Data(SHA2.sha512(bytes))
    }

    /// Core Data's `NSStoreModelVersionChecksumKey`: SHA-256 over the hashes in name order.
    public var versionChecksum: Data {
        var bytes: [UInt8] = []
        for name in entityVersionHashesByName.keys.sorted() {
            bytes += Array(entityVersionHashesByName[name] ?? Data())
        }
        return Data(SHA2.sha256(bytes))
    }

    /// The version-hash entries a store writes into its metadata.
    public var versionMetadata: [String: PropertyListValue] {
        [
            StoreMetadataKey.modelVersionHashes: .dictionary(entityVersionHashesByName.mapValues { .data($0) }),
            StoreMetadataKey.modelVersionHashesVersion: .integer(3),
            StoreMetadataKey.modelVersionHashesDigest: .data(versionHashesDigest),
            StoreMetadataKey.modelVersionChecksum: .data(versionChecksum),
            StoreMetadataKey.modelVersionIdentifiers: .array(versionIdentifiers.sorted().map { .string($0) }),
        ]
    }

    /// Two models are equal when their entities, configurations, templates and identifiers are.
    public static func == (lhs: ManagedObjectModel, rhs: ManagedObjectModel) -> Bool {
        lhs === rhs
            || (lhs.entitiesByName == rhs.entitiesByName && lhs.configurations == rhs.configurations
                && lhs.fetchRequestTemplates == rhs.fetchRequestTemplates
                && lhs.versionIdentifiers == rhs.versionIdentifiers)
    }

    /// Each entity with its attribute names, one line each.
    public var description: String {
        entities.map { "\($0.name): \($0.attributes.map(\.name).joined(separator: ", "))" }
            .joined(separator: "\n")
    }
}

/// A fetch request stored in a model under a name.
public struct FetchRequestTemplate: Sendable, Hashable {
    /// The template's name.
    public var name: String
    /// The entity it fetches.
    public var entityName: String
    /// Its predicate as a format string.
    public var predicateFormat: String?

    /// Creates a template.
    public init(name: String, entityName: String, predicateFormat: String? = nil) {
        self.name = name
        self.entityName = entityName
        self.predicateFormat = predicateFormat
    }
}
