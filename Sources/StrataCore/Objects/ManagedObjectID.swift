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
    /// The entity and the store, shared with the other IDs of the entity in the store.
    @usableFromInline package let scope: ObjectIDScope
    /// The primary key or the temporary identifier.
    let key: Key

    /// The entity of the object (the most specific one, never an abstract parent).
    public var entityName: String { scope.entityName }
    /// The UUID of the store that holds the object; `nil` while the ID is temporary.
    public var storeIdentifier: String? { scope.storeIdentifier }

    /// A primary key, numbered per inheritance root, or a temporary identifier: one word and a
    /// case, so that an ID is 17 bytes.
    enum Key: Sendable, Hashable {
        case permanent(Int64)
        /// A temporary ID made in this process: its UUID is ``temporaryUUID(_:)`` of the number.
        case temporary(UInt64)
        /// A temporary ID of another process, read from its URI.
        case foreignTemporary(ForeignTemporaryID)
    }

    /// The UUID of a temporary ID another process made, in a box.
    final class ForeignTemporaryID: Sendable, Hashable {
        let uuid: UUID

        init(_ uuid: UUID) { self.uuid = uuid }

        static func == (lhs: ForeignTemporaryID, rhs: ForeignTemporaryID) -> Bool { lhs.uuid == rhs.uuid }

        func hash(into hasher: inout Hasher) { hasher.combine(uuid) }
    }

    /// The order stores and files list objects in: entity name, then primary key.
    public static func storeOrder(_ lhs: ManagedObjectID, _ rhs: ManagedObjectID) -> Bool {
        (lhs.entityName, lhs.primaryKey ?? 0) < (rhs.entityName, rhs.primaryKey ?? 0)
    }

    /// Creates a temporary ID for a newly inserted object.
    public static func temporary(entityName: String) -> ManagedObjectID {
        ManagedObjectID(scope: .named(entityName, in: nil), key: .temporary(temporaryCount.add(1, ordering: .relaxed).newValue))
    }

    /// The first half of every temporary UUID of this process: random, drawn once, with the
    /// version-4 bits.
    private static let temporaryHigh: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next() & ~0xF000) | 0x4000
    }()
    /// How many temporary IDs this process has made.
    private static let temporaryCount = Atomic<UInt64>(0)
    /// The bits of the second half of a temporary UUID that hold the number.
    private static let temporaryNumberMask: UInt64 = 0x3FFF_FFFF_FFFF_FFFF
    /// The RFC 4122 variant bits of the second half.
    private static let temporaryVariant: UInt64 = 0x8000_0000_0000_0000

    /// The UUID of this process's temporary ID `number`: a version-4-shaped UUID unique in the
    /// process and unlikely to repeat across processes, a random prefix drawn once and then the
    /// number. Foundation's `UUID()` opens and reads `/dev/urandom` on every call on Linux, and
    /// even the system generator is a system call a value, which dominated inserting many objects.
    private static func temporaryUUID(_ number: UInt64) -> UUID {
        let low = (number & temporaryNumberMask) | temporaryVariant
        let high = temporaryHigh
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (56 - 8 * index)) }
        return UUID(uuid: (byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3),
                           byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
                           byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
                           byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)))
    }

    /// The key of the temporary ID whose UUID is `uuid`: this process's number when it made it.
    private static func temporaryKey(_ uuid: UUID) -> Key {
        let b = uuid.uuid
        let first = [b.0, b.1, b.2, b.3, b.4, b.5, b.6, b.7].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let second = [b.8, b.9, b.10, b.11, b.12, b.13, b.14, b.15].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        if first == temporaryHigh, second & ~temporaryNumberMask == temporaryVariant, second & temporaryNumberMask != 0 {
            return .temporary(second & temporaryNumberMask)
        }
        return .foreignTemporary(ForeignTemporaryID(uuid))
    }

    /// Creates a permanent ID for the row `primaryKey` of `entityName` in the store `storeIdentifier`.
    public init(entityName: String, storeIdentifier: String, primaryKey: Int64) {
        self.init(scope: .named(entityName, in: storeIdentifier), key: .permanent(primaryKey))
    }

    /// Creates a permanent ID for the row `primaryKey` of the entity and store of `scope`: what a
    /// store that reads many rows of one entity makes its IDs with.
    @usableFromInline
    package init(_ scope: ObjectIDScope, primaryKey: Int64) {
        self.init(scope: scope, key: .permanent(primaryKey))
    }

    init(scope: ObjectIDScope, key: Key) {
        self.scope = scope
        self.key = key
    }

    /// IDs are equal when their keys, entities and stores are; the key, which tells most IDs
    /// apart, is compared first.
    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.key == rhs.key && (lhs.scope === rhs.scope || rhs.scope.names(lhs.scope.entityName, lhs.scope.storeIdentifier))
    }

    /// Hashes the primary key or temporary identifier alone. Entity names and store UUIDs are
    /// strings that cost more to hash than they tell apart: temporary identifiers are unique, and
    /// the few IDs of other entities or stores with an equal key are told apart by `==`.
    public func hash(into hasher: inout Hasher) {
        switch key {
        case .permanent(let primaryKey): hasher.combine(primaryKey)
        case .temporary(let number): hasher.combine(number)
        case .foreignTemporary(let foreign): hasher.combine(foreign)
        }
    }

    /// Whether the object has not been saved yet.
    public var isTemporaryID: Bool {
        if case .permanent = key { return false }
        return true
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
        case .temporary(let number): "x-coredata:///\(entity)/t\(Self.temporaryUUID(number).uuidString)"
        case .foreignTemporary(let foreign): "x-coredata:///\(entity)/t\(foreign.uuid.uuidString)"
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
            self.init(scope: .named(entity, in: store), key: .permanent(pk))
        case "t":
            guard store.isEmpty, let uuid = UUID(uuidString: String(rest)) else { return nil }
            self.init(scope: .named(entity, in: nil), key: Self.temporaryKey(uuid))
        default:
            return nil
        }
    }
}
