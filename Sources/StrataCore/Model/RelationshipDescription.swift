/// What happens to related objects when an object is deleted.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable, Codable {
    /// Remove the deleted object from the inverse relationship of each related object.
    case nullify = "Nullify"
    /// Delete the related objects too.
    case cascade = "Cascade"
    /// Refuse the delete (the save fails) while related objects remain.
    case deny = "Deny"
    /// Leave related objects alone; they may point at the deleted object.
    case noAction = "No Action"
}

/// A relationship from one entity to another.
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's name.
    public var name: String
    /// The name of the destination entity.
    public var destinationEntityName: String
    /// The name of the inverse relationship on the destination, if any.
    public var inverseName: String?
    /// The smallest number of destinations a saved object must have (0: none required).
    public var minCount: Int
    /// The largest number of destinations (1: a to-one; 0: unbounded to-many). Core Data's
    /// compiled models write some unbounded to-manys as -1, which is read as 0 is, and kept
    /// because the version hash includes the number.
    public var maxCount: Int
    /// Whether the destinations keep an order (to-many only).
    public var isOrdered: Bool
    /// What deleting the source does to the destinations.
    public var deleteRule: DeleteRule
    /// Whether a to-one may be nil when saved.
    public var isOptional: Bool
    /// Whether the relationship lives only in memory.
    public var isTransient: Bool
    /// Free-form user info.
    public var userInfo: [String: String]
    /// The relationship's name in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// A string that changes the version hash without changing the schema.
    public var versionHashModifier: String?

    /// Whether the relationship holds many destinations (`maxCount != 1`).
    public var isToMany: Bool { maxCount != 1 }

    /// Creates a relationship description.
    public init(
        name: String,
        destination: String,
        inverse: String? = nil,
        toMany: Bool = false,
        isOrdered: Bool = false,
        minCount: Int = 0,
        maxCount: Int? = nil,
        deleteRule: DeleteRule = .nullify,
        isOptional: Bool = true,
        isTransient: Bool = false,
        userInfo: [String: String] = [:],
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil
    ) {
        self.name = name
        self.destinationEntityName = destination
        self.inverseName = inverse
        self.minCount = minCount
        self.maxCount = maxCount ?? (toMany ? 0 : 1)
        self.isOrdered = isOrdered
        self.deleteRule = deleteRule
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.userInfo = userInfo
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
    }
}
