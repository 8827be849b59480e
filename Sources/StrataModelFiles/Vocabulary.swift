/// XML attributes of the `contents` format that only Xcode's editor and code generator use. The
/// reader ignores them without a warning; the writer writes the few Xcode expects.
enum Vocabulary {
    /// On `<model>`: the document's tool versions and settings.
    static let modelIgnored: Set<String> = [
        "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion",
        "sourceLanguage", "macOSVersion", "iOSVersion", "tvOSVersion", "watchOSVersion", "visionOSVersion", "name",
    ]
    /// On `<entity>`: code generation and the obsolete sync flag.
    static let entityIgnored: Set<String> = ["syncable", "codeGenerationType"]
    /// On `<attribute>`: scalar accessors in generated code and the obsolete sync flag.
    static let attributeIgnored: Set<String> = ["usesScalarValueType", "syncable"]
    /// On `<relationship>`: the obsolete sync flag; `inverseEntity` repeats what the inverse's
    /// own `destinationEntity` says.
    static let relationshipIgnored: Set<String> = ["syncable", "inverseEntity"]
    /// On `<fetchedProperty>`: always optional, never hashed, the obsolete sync flag.
    static let fetchedPropertyIgnored: Set<String> = ["optional", "syncable", "transient", "versionHashModifier"]

    /// Flags of `<attribute>` for features Strata does not model (warned about when `YES`).
    static let attributeUnsupportedFlags: [String: String] = [
        "storedInTruthFile": "storage in the ubiquity truth file (storedInTruthFile)",
        "spotlightIndexingEnabled": "Spotlight indexing (spotlightIndexingEnabled)",
        "allowsCloudEncryption": "CloudKit encryption (allowsCloudEncryption)",
        "storedInExternalRecord": "storage in external records (storedInExternalRecord)",
    ]
    /// Flags of `<relationship>` for features Strata does not model (warned about when `YES`).
    static let relationshipUnsupportedFlags: [String: String] = [
        "indexed": "an indexed relationship (indexed; to-one foreign keys are indexed anyway)",
        "spotlightIndexingEnabled": "Spotlight indexing (spotlightIndexingEnabled)",
        "storedInTruthFile": "storage in the ubiquity truth file (storedInTruthFile)",
    ]
    /// Attributes of `<entity>` for features Strata does not model (always warned about).
    static let entityUnsupported: [String: String] = [
        "coreSpotlightDisplayNameExpression": "a Core Spotlight display name (coreSpotlightDisplayNameExpression)",
    ]
}
