import StrataCore

/// How one destination attribute or relationship gets its value (Core Data's
/// `NSPropertyMapping`).
///
/// ```swift
/// let mapping = model.entityMapping(named: "CountryToCountry")?.attributeMapping(named: "isoContinent")
/// mapping?.valueExpression?.format          // "$source.continent.numericISO3166Code"
/// mapping?.valueExpression?.sourceKeyPath   // "continent.numericISO3166Code"
/// ```
public struct PropertyMapping: Sendable, Hashable {
    /// The destination property's name.
    public var name: String
    /// The expression that computes the value, `$source` being the source object and
    /// `$manager` the migration manager. `nil` when the file states none: Xcode writes none for a
    /// mapping left as its editor generates it; ``MappingModel/resolved(source:destination:)``
    /// fills those in.
    public var valueExpression: MappingExpression?
    /// The user info of the mapping.
    public var userInfo: [String: PropertyListValue]
    /// Relationship mappings: Xcode's "Auto Generate Value Expression". The expression is then
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", <sourceMappingName>, <sourceKeyPath>)`.
    public var generatesValueExpression: Bool
    /// Relationship mappings: the "Key Path" of a generated expression, as written
    /// (`$source.country.continent`); `nil` for `$source.<name>`.
    public var sourceKeyPath: String?
    /// Relationship mappings: the "Mapping Name" of a generated expression: the entity mapping
    /// whose destination objects the relationship gets; `nil` for the one that maps the
    /// relationship's destination entity.
    public var sourceMappingName: String?

    /// Creates a property mapping.
    public init(
        name: String,
        valueExpression: MappingExpression? = nil,
        userInfo: [String: PropertyListValue] = [:],
        generatesValueExpression: Bool = false,
        sourceKeyPath: String? = nil,
        sourceMappingName: String? = nil
    ) {
        self.name = name
        self.valueExpression = valueExpression
        self.userInfo = userInfo
        self.generatesValueExpression = generatesValueExpression
        self.sourceKeyPath = sourceKeyPath
        self.sourceMappingName = sourceMappingName
    }

    /// The value expression in Core Data's expression format (`MappingExpression.format`).
    public var valueExpressionFormat: String? { valueExpression?.format }
}
