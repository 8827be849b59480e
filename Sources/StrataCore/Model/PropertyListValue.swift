import Foundation

/// A property-list value: what store metadata and model user info are made of.
public enum PropertyListValue: Sendable, Hashable, Codable {
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int64)
    /// A floating-point number.
    case double(Double)
    /// A Boolean.
    case bool(Bool)
    /// A date.
    case date(Date)
    /// Bytes.
    case data(Data)
    /// An ordered list.
    case array([PropertyListValue])
    /// A dictionary with string keys.
    case dictionary([String: PropertyListValue])

    /// The string inside, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The bytes inside, if this is data.
    public var dataValue: Data? {
        if case .data(let d) = self { return d }
        return nil
    }

    /// The dictionary inside, if this is a dictionary.
    public var dictionaryValue: [String: PropertyListValue]? {
        if case .dictionary(let d) = self { return d }
        return nil
    }
}

/// The keys Strata writes into every store's metadata (Core Data's names).
public enum StoreMetadataKey {
    /// The store's UUID string (`NSStoreUUID`).
    public static let storeUUID = "NSStoreUUID"
    /// The store type's name (`NSStoreType`).
    public static let storeType = "NSStoreType"
    /// Entity name → 32-byte version hash of the model the store was saved with.
    public static let modelVersionHashes = "NSStoreModelVersionHashes"
    /// The version of the hash algorithm (`3`, as Core Data).
    public static let modelVersionHashesVersion = "NSStoreModelVersionHashesVersion"
    /// SHA-512 digest over the entity names and hashes.
    public static let modelVersionHashesDigest = "NSStoreModelVersionHashesDigest"
    /// SHA-256 checksum over the hashes.
    public static let modelVersionChecksum = "NSStoreModelVersionChecksumKey"
    /// The model's version identifiers.
    public static let modelVersionIdentifiers = "NSStoreModelVersionIdentifiers"

    /// The entity version hashes `metadata` records under ``modelVersionHashes``, by entity name
    /// (empty when it records none).
    public static func versionHashes(in metadata: [String: PropertyListValue]) -> [String: Data] {
        metadata[modelVersionHashes]?.dictionaryValue?.compactMapValues(\.dataValue) ?? [:]
    }
}
