import Foundation

/// An attribute of an entity: its name, type and validation rules.
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name, unique within its entity and its entity's ancestors.
    public var name: String
    /// The value type.
    public var type: AttributeType
    /// Whether the value may be nil when the object is saved.
    public var isOptional: Bool
    /// Whether the value lives only in memory and is never stored.
    public var isTransient: Bool
    /// Whether stores should index this attribute.
    public var isIndexed: Bool
    /// The value a newly inserted object starts with.
    public var defaultValue: AttributeValue?
    /// The smallest allowed value (numbers), length (strings, binary) or seconds since
    /// 2001-01-01 (dates).
    public var minimum: Double?
    /// The largest allowed value, length or date, as for ``minimum``.
    public var maximum: Double?
    /// A regular expression a string value must match in full.
    public var regularExpression: String?
    /// The name of the ``AttributeValueTransformer`` of a `Transformable` attribute.
    public var valueTransformerName: String?
    /// The Swift type name a transformable value has, for generated code.
    public var valueClassName: String?
    /// Whether large binary values may be stored beside the store (a hint; part of the hash).
    public var allowsExternalBinaryDataStorage: Bool
    /// Whether the value is kept in history after deletion (part of the hash).
    public var preservesValueInHistoryOnDeletion: Bool
    /// Free-form user info.
    public var userInfo: [String: String]
    /// The attribute's name in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// A string that changes the version hash without changing the schema.
    public var versionHashModifier: String?
    /// For a derived attribute, the expression its value is computed from, as Xcode writes it
    /// (`pages.@count`, `lowercase:(name)`…); `nil` for an ordinary attribute. A derived attribute is
    /// read-only and its version hash is the hash of this expression (see `docs/version-hashes.md`).
    public var derivationExpression: String?

    /// For an attribute that stores one element of a composite attribute (named by its dotted
    /// path, `magnitude.richter`), the whole composite; `nil` for an ordinary attribute.
    public internal(set) var composite: CompositeAttributeDescription? {
        get { compositeBox.first }
        set { compositeBox = newValue.map { [$0] } ?? [] }
    }
    // An array, so that an attribute does not hold a composite (which holds attributes) inline.
    private var compositeBox: [CompositeAttributeDescription] = []

    /// Whether the value is computed by the store from ``derivationExpression``.
    public var isDerived: Bool { derivationExpression != nil }

    /// Creates an attribute description.
    public init(
        name: String,
        type: AttributeType,
        isOptional: Bool = true,
        isTransient: Bool = false,
        isIndexed: Bool = false,
        defaultValue: AttributeValue? = nil,
        minimum: Double? = nil,
        maximum: Double? = nil,
        regularExpression: String? = nil,
        valueTransformerName: String? = nil,
        valueClassName: String? = nil,
        allowsExternalBinaryDataStorage: Bool = false,
        preservesValueInHistoryOnDeletion: Bool = false,
        userInfo: [String: String] = [:],
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        derivationExpression: String? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isIndexed = isIndexed
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.regularExpression = regularExpression
        self.valueTransformerName = valueTransformerName
        self.valueClassName = valueClassName
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.userInfo = userInfo
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.derivationExpression = derivationExpression
    }
}
