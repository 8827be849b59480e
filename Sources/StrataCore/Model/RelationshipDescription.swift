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
///
/// A value: its fields sit in one shared, immutable box, so that passing a description around (every
/// relationship change looks one up) retains one reference instead of each of its strings.
public struct RelationshipDescription: Sendable, Hashable {
    private var storage: SharedFields<Fields>

    /// The relationship's name.
    public var name: String {
        get { storage.fields.name }
        set { storage.update { $0.name = newValue } }
    }
    /// The name of the destination entity.
    public var destinationEntityName: String {
        get { storage.fields.destinationEntityName }
        set { storage.update { $0.destinationEntityName = newValue } }
    }
    /// The name of the inverse relationship on the destination, if any.
    public var inverseName: String? {
        get { storage.fields.inverseName }
        set { storage.update { $0.inverseName = newValue } }
    }
    /// The smallest number of destinations a saved object must have (0: none required).
    public var minCount: Int {
        get { storage.fields.minCount }
        set { storage.update { $0.minCount = newValue } }
    }
    /// The largest number of destinations (1: a to-one; 0: unbounded to-many). Core Data's
    /// compiled models write some unbounded to-manys as -1, which is read as 0 is, and kept
    /// because the version hash includes the number.
    public var maxCount: Int {
        get { storage.fields.maxCount }
        set { storage.update { $0.maxCount = newValue } }
    }
    /// Whether the destinations keep an order (to-many only).
    public var isOrdered: Bool {
        get { storage.fields.isOrdered }
        set { storage.update { $0.isOrdered = newValue } }
    }
    /// What deleting the source does to the destinations.
    public var deleteRule: DeleteRule {
        get { storage.fields.deleteRule }
        set { storage.update { $0.deleteRule = newValue } }
    }
    /// Whether a to-one may be nil when saved.
    public var isOptional: Bool {
        get { storage.fields.isOptional }
        set { storage.update { $0.isOptional = newValue } }
    }
    /// Whether the relationship lives only in memory.
    public var isTransient: Bool {
        get { storage.fields.isTransient }
        set { storage.update { $0.isTransient = newValue } }
    }
    /// Free-form user info.
    public var userInfo: [String: String] {
        get { storage.fields.userInfo }
        set { storage.update { $0.userInfo = newValue } }
    }
    /// The relationship's name in an earlier model version, for migration.
    public var renamingIdentifier: String? {
        get { storage.fields.renamingIdentifier }
        set { storage.update { $0.renamingIdentifier = newValue } }
    }
    /// A string that changes the version hash without changing the schema.
    public var versionHashModifier: String? {
        get { storage.fields.versionHashModifier }
        set { storage.update { $0.versionHashModifier = newValue } }
    }

    /// Whether the relationship holds many destinations (`maxCount != 1`).
    public var isToMany: Bool { storage.fields.maxCount != 1 }

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
        storage = SharedFields(Fields(
            name: name, destinationEntityName: destination, inverseName: inverse, minCount: minCount,
            maxCount: maxCount ?? (toMany ? 0 : 1), isOrdered: isOrdered, deleteRule: deleteRule,
            isOptional: isOptional, isTransient: isTransient, userInfo: userInfo,
            renamingIdentifier: renamingIdentifier, versionHashModifier: versionHashModifier))
    }

    private struct Fields: Sendable, Hashable {
        var name: String
        var destinationEntityName: String
        var inverseName: String?
        var minCount: Int
        var maxCount: Int
        var isOrdered: Bool
        var deleteRule: DeleteRule
        var isOptional: Bool
        var isTransient: Bool
        var userInfo: [String: String]
        var renamingIdentifier: String?
        var versionHashModifier: String?
    }
}
