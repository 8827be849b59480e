import Foundation
import StrataCore

/// How to migrate a store from one model version to the next (Core Data's `NSMappingModel`):
/// one ``EntityMapping`` per destination (or dropped) entity, each with its property mappings.
///
/// ```swift
/// let mapping = try MappingModel.load(at: URL(filePath: "Moody 2-Moody 3.xcmappingmodel"))
/// for entityMapping in mapping.entityMappings {
///     print(entityMapping.name, entityMapping.sourceEntityName ?? "-", entityMapping.destinationEntityName ?? "-")
/// }
/// // Work out what Xcode leaves to its compiler (types, hashes, generated expressions):
/// let ready = try mapping.resolved(source: moody2, destination: moody3)
/// ```
public struct MappingModel: Sendable, Hashable {
    /// The entity mappings, in Xcode's order (the order Core Data carries them out in).
    public var entityMappings: [EntityMapping]
    /// The source model's path as Xcode recorded it, relative to the project
    /// (`Migrations/Moody.xcdatamodeld/Moody 2.xcdatamodel`); `nil` for a mapping model made in code.
    public var sourceModelPath: String?
    /// The destination model's path as Xcode recorded it.
    public var destinationModelPath: String?
    /// The file the mapping model was read from (its `xcmapping.xml`); `nil` for one made in code.
    public var file: String?
    /// The outline of the source model as the mapping model's own copy of it has it; `nil` for
    /// a mapping model made in code, or when Xcode's copy cannot be read (it is kept in
    /// Xcode's private editing classes, which may change).
    public var sourceModelOutline: ModelOutline?
    /// The outline of the destination model as the mapping model's own copy of it has it.
    public var destinationModelOutline: ModelOutline?

    /// Creates a mapping model.
    public init(entityMappings: [EntityMapping], sourceModelPath: String? = nil,
                destinationModelPath: String? = nil, file: String? = nil) {
        self.entityMappings = entityMappings
        self.sourceModelPath = sourceModelPath
        self.destinationModelPath = destinationModelPath
        self.file = file
    }

    /// The entity mapping called `name`.
    public func entityMapping(named name: String) -> EntityMapping? {
        entityMappings.first { $0.name == name }
    }

    /// The entity mappings by name.
    public var entityMappingsByName: [String: EntityMapping] {
        Dictionary(entityMappings.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
