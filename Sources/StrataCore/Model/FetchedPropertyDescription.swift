/// A fetched property: a stored fetch, evaluated lazily, whose predicate may refer to the
/// source object as `$FETCH_SOURCE`.
public struct FetchedPropertyDescription: Sendable, Hashable {
    /// The property's name.
    public var name: String
    /// The entity the fetch returns.
    public var destinationEntityName: String
    /// The fetch's predicate as a format string.
    public var predicateFormat: String?
    /// Free-form user info.
    public var userInfo: [String: String]
    /// The property's name in an earlier model version.
    public var renamingIdentifier: String?

    /// Creates a fetched property description.
    public init(
        name: String, destination: String, predicateFormat: String? = nil,
        userInfo: [String: String] = [:], renamingIdentifier: String? = nil
    ) {
        self.name = name
        self.destinationEntityName = destination
        self.predicateFormat = predicateFormat
        self.userInfo = userInfo
        self.renamingIdentifier = renamingIdentifier
    }
}
