import Foundation

/// One stored attribute value, typed, `Sendable`, and exactly as given.
///
/// This is what stores persist and snapshots carry. Managed objects turn it into the natural
/// Swift value of the attribute's type (`Int16` for `Integer 16`, `String`, `Date`, …) on the way
/// out, and check a Swift value against the attribute's type on the way in.
public enum AttributeValue: Sendable, Hashable {
    /// An integer of any declared width; the attribute's type says which width.
    case integer(Int64)
    /// A decimal number, digits preserved.
    case decimal(Decimal)
    /// A double, bits preserved.
    case double(Double)
    /// A float, bits preserved.
    case float(Float)
    /// A string, scalars preserved.
    case string(String)
    /// A Boolean.
    case boolean(Bool)
    /// A date.
    case date(Date)
    /// Bytes (binary attributes, and the transformed form of transformable attributes).
    case binary(Data)
    /// A UUID.
    case uuid(UUID)
    /// A URL.
    case uri(URL)
    /// A managed object ID (boxed: an ID is larger than every other value, and rare).
    indirect case objectID(ManagedObjectID)

    /// Equality that compares floating-point values by their bits, so that a changed NaN payload
    /// or a changed sign of zero counts as a change.
    public static func == (lhs: AttributeValue, rhs: AttributeValue) -> Bool {
        // A value compared with a copy of itself (a value kept while others of its object
        // changed) has the very same bits: equal without looking at text or bytes.
        if hasSameBits(lhs, rhs) { return true }
        return switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): a == b
        case let (.decimal(a), .decimal(b)): a == b && a.description == b.description
        case let (.double(a), .double(b)): a.bitPattern == b.bitPattern
        case let (.float(a), .float(b)): a.bitPattern == b.bitPattern
        // The very same string (a value copied, not changed) is known equal by its two words;
        // equal scalars are equal UTF-8, so texts of two lengths differ without a look at either.
        case let (.string(a), .string(b)):
            NameBits.same(a, b) || (a.utf8.count == b.utf8.count && a.unicodeScalars.elementsEqual(b.unicodeScalars))
        case let (.boolean(a), .boolean(b)): a == b
        case let (.date(a), .date(b)): a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case let (.binary(a), .binary(b)): a == b
        case let (.uuid(a), .uuid(b)): a == b
        case let (.uri(a), .uri(b)): a.absoluteString == b.absoluteString
        case let (.objectID(a), .objectID(b)): a == b
        default: false
        }
    }

    /// Whether `lhs` and `rhs` are stored as the same bytes: the same case and payload, a text or
    /// bytes by the same storage. Values that are equal but were made apart may differ in their
    /// bytes (unused ones included), so only `true` says anything.
    private static func hasSameBits(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Bool {
        withUnsafeBytes(of: lhs) { left in
            withUnsafeBytes(of: rhs) { right in
                guard let left = left.baseAddress, let right = right.baseAddress else { return false }
                return memcmp(left, right, MemoryLayout<AttributeValue>.size) == 0
            }
        }
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .integer(let v): hasher.combine(0); hasher.combine(v)
        case .decimal(let v): hasher.combine(1); hasher.combine(v.description)
        case .double(let v): hasher.combine(2); hasher.combine(v.bitPattern)
        case .float(let v): hasher.combine(3); hasher.combine(v.bitPattern)
        case .string(let v): hasher.combine(4); for s in v.unicodeScalars { hasher.combine(s.value) }
        case .boolean(let v): hasher.combine(5); hasher.combine(v)
        case .date(let v): hasher.combine(6); hasher.combine(v.timeIntervalSinceReferenceDate.bitPattern)
        case .binary(let v): hasher.combine(7); hasher.combine(v)
        case .uuid(let v): hasher.combine(8); hasher.combine(v)
        case .uri(let v): hasher.combine(9); hasher.combine(v.absoluteString)
        case .objectID(let v): hasher.combine(10); hasher.combine(v)
        }
    }
}
