import Foundation
import StrataCore

/// How the objects of one source entity become objects of one destination entity (Core
/// Data's `NSEntityMapping`).
public struct EntityMapping: Sendable, Hashable {
    /// The mapping's name, by which relationship mappings and migration policies refer to it
    /// (`MoodToMood`).
    public var name: String
    /// What the mapping does.
    public var mappingType: EntityMappingType
    /// The source entity; `nil` for an entity that is new in the destination model.
    public var sourceEntityName: String?
    /// The source entity's version hash (32 bytes); `nil` until resolved against the source model.
    public var sourceEntityVersionHash: Data?
    /// The destination entity; `nil` for an entity that is dropped.
    public var destinationEntityName: String?
    /// The destination entity's version hash (32 bytes); `nil` until resolved against the
    /// destination model.
    public var destinationEntityVersionHash: Data?
    /// Xcode's "Filter Predicate": which source objects the mapping takes, in Core Data's
    /// predicate format; `nil` for all of them.
    public var filterPredicate: String?
    /// Xcode's "Source Fetch: Default": the source objects are those of the source entity that
    /// match ``filterPredicate``.
    public var generatesSourceExpression: Bool
    /// Xcode's custom "Source Fetch" expression, when the file holds one.
    public var sourceExpression: MappingExpression?
    /// The class of the entity migration policy (`Migrations.Country5ToCountry6Policy`);
    /// `nil` for Core Data's default policy.
    public var entityMigrationPolicyClassName: String?
    /// The destination attributes' mappings, in name order.
    public var attributeMappings: [PropertyMapping]
    /// The destination relationships' mappings, in name order.
    public var relationshipMappings: [PropertyMapping]
    /// The user info of the mapping.
    public var userInfo: [String: PropertyListValue]

    /// Creates an entity mapping.
    public init(
        name: String,
        mappingType: EntityMappingType = .undefined,
        sourceEntityName: String?,
        sourceEntityVersionHash: Data? = nil,
        destinationEntityName: String?,
        destinationEntityVersionHash: Data? = nil,
        filterPredicate: String? = nil,
        generatesSourceExpression: Bool = true,
        sourceExpression: MappingExpression? = nil,
        entityMigrationPolicyClassName: String? = nil,
        attributeMappings: [PropertyMapping] = [],
        relationshipMappings: [PropertyMapping] = [],
        userInfo: [String: PropertyListValue] = [:]
    ) {
        self.name = name
        self.mappingType = mappingType
        self.sourceEntityName = sourceEntityName
        self.sourceEntityVersionHash = sourceEntityVersionHash
        self.destinationEntityName = destinationEntityName
        self.destinationEntityVersionHash = destinationEntityVersionHash
        self.filterPredicate = filterPredicate
        self.generatesSourceExpression = generatesSourceExpression
        self.sourceExpression = sourceExpression
        self.entityMigrationPolicyClassName = entityMigrationPolicyClassName
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.userInfo = userInfo
    }

    /// The name Xcode gives a mapping it was not given one: `<Source>To<Destination>`
    /// (`MoodToMood`); for a mapping with only one of the two entities, that entity's name.
    public static func defaultName(source: String?, destination: String?) -> String {
        switch (source, destination) {
        case let (source?, destination?): "\(source)To\(destination)"
        case let (source?, nil): source
        case let (nil, destination?): destination
        case (nil, nil): ""
        }
    }

    /// The mapping of the destination attribute `name`.
    public func attributeMapping(named name: String) -> PropertyMapping? {
        attributeMappings.first { $0.name == name }
    }

    /// The mapping of the destination relationship `name`.
    public func relationshipMapping(named name: String) -> PropertyMapping? {
        relationshipMappings.first { $0.name == name }
    }
}
