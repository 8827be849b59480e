import Foundation
import Synchronization

/// The identity of one stored object: its entity, its store and its primary key.
///
/// An ID is temporary (`isTemporaryID`) from insertion until the object is first saved, then
/// permanent. IDs are plain values: they cross threads and contexts freely, unlike objects.
///
/// `uriRepresentation` is `x-coredata://<STORE-UUID>/<Entity>/p<pk>` for a permanent ID and
/// `x-coredata:///<Entity>/t<UUID>` for a temporary one (see `docs/object-ids.md`).
public struct ManagedObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The entity of the object (the most specific one, never an abstract parent).
    public let entityName: String
    /// The UUID of the store that holds the object; `nil` while the ID is temporary.
    public let storeIdentifier: String?
    /// The primary key or the temporary identifier.
    let key: Key

    /// A primary key, numbered per inheritance root, or a temporary UUID.
    enum Key: Sendable, Hashable {
        case permanent(Int64)
        case temporary(UUID)
    }

    /// The order stores and files list objects in: entity name, then primary key.
    public static func storeOrder(_ lhs: ManagedObjectID, _ rhs: ManagedObjectID) -> Bool {
        (lhs.entityName, lhs.primaryKey ?? 0) < (rhs.entityName, rhs.primaryKey ?? 0)
    }

    /// Creates a temporary ID for a newly inserted object.
    public static func temporary(entityName: String) -> ManagedObjectID {
        ManagedObjectID(entityName: entityName, storeIdentifier: nil, key: .temporary(temporaryUUID()))
    }

    /// The first half of every temporary UUID of this process: random, drawn once.
    private static let temporaryPrefix: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }()
    /// How many temporary UUIDs this process has made.
    private static let temporaryCount = Atomic<UInt64>(0)

    /// A version-4-shaped UUID unique in the process and unlikely to repeat across processes: a
    /// random prefix drawn once, then a counter. Foundation's `UUID()` opens and reads
    /// `/dev/urandom` on every call on Linux, and even the system generator is a system call a
    /// value, which dominated inserting many objects.
    private static func temporaryUUID() -> UUID {
        let count = temporaryCount.add(1, ordering: .relaxed).newValue
        let high = (temporaryPrefix & ~0xF000) | 0x4000                                  // version 4
        let low = (count & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000                // RFC 4122 variant
        return UUID(uuid: unsafeBitCast((high.bigEndian, low.bigEndian), to: uuid_t.self))
    }

    /// Creates a permanent ID for the row `primaryKey` of `entityName` in the store `storeIdentifier`.
    public init(entityName: String, storeIdentifier: String, primaryKey: Int64) {
        self.init(entityName: entityName, storeIdentifier: storeIdentifier, key: .permanent(primaryKey))
    }

    init(entityName: String, storeIdentifier: String?, key: Key) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
        self.key = key
    }

    /// IDs are equal when their keys, entities and stores are; the key, which tells most IDs
    /// apart, is compared first.
    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.key == rhs.key && lhs.entityName == rhs.entityName && lhs.storeIdentifier == rhs.storeIdentifier
    }

    /// Hashes the primary key or temporary identifier alone. Entity names and store UUIDs are
    /// strings that cost more to hash than they tell apart: temporary identifiers are unique, and
    /// the few IDs of other entities or stores with an equal key are told apart by ``==``.
    public func hash(into hasher: inout Hasher) {
        switch key {
        case .permanent(let primaryKey): hasher.combine(primaryKey)
        case .temporary(let uuid):
            // As two words: UUID's own hashing goes through a byte buffer.
            let (high, low) = unsafeBitCast(uuid.uuid, to: (UInt64, UInt64).self)
            hasher.combine(high)
            hasher.combine(low)
        }
    }

    /// Whether the object has not been saved yet.
    public var isTemporaryID: Bool {
        if case .temporary = key { return true }
        return false
    }

    /// The primary key of a permanent ID.
    public var primaryKey: Int64? {
        if case .permanent(let pk) = key { return pk }
        return nil
    }

    /// The ID as a URI that any coordinator with the same store loaded can resolve.
    public var uriRepresentation: URL {
        let entity = entityName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? entityName
        let text = switch key {
        case .permanent(let pk): "x-coredata://\(storeIdentifier ?? "")/\(entity)/p\(pk)"
        case .temporary(let uuid): "x-coredata:///\(entity)/t\(uuid.uuidString)"
        }
        // The parts are percent-encoded above, so the string is always a valid URL.
        return URL(string: text) ?? URL(fileURLWithPath: "/")
    }

    /// The URI text.
    public var description: String { uriRepresentation.absoluteString }

    /// Parses a URI made by ``uriRepresentation`` without checking that any store knows it.
    ///
    /// Returns nil for anything that is not exactly of that form.
    public init?(parsing uri: URL) {
        let text = uri.absoluteString
        let prefix = "x-coredata://"
        guard text.hasPrefix(prefix) else { return nil }
        let parts = text.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let entity = parts[1].removingPercentEncoding, !entity.isEmpty,
              let marker = parts[2].first else { return nil }
        let store = String(parts[0])
        let rest = parts[2].dropFirst()
        switch marker {
        case "p":
            guard !store.isEmpty, !rest.isEmpty, rest.allSatisfy(\.isASCII), rest.allSatisfy(\.isNumber),
                  let pk = Int64(rest), pk > 0 else { return nil }
            self.init(entityName: entity, storeIdentifier: store, key: .permanent(pk))
        case "t":
            guard store.isEmpty, let uuid = UUID(uuidString: String(rest)) else { return nil }
            self.init(entityName: entity, storeIdentifier: nil, key: .temporary(uuid))
        default:
            return nil
        }
    }
}
