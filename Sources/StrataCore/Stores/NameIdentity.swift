/// Whether two names are known to be the very same string, told by two machine words and no
/// look at the text: what a store's per-row cache checks ("the same table as the last row?")
/// before it looks a name up.
///
/// Equal identities are the same string. Unequal ones say nothing (the same text can be stored
/// twice): on a miss, compare the text.
@_spi(StoreImplementation)
public struct NameIdentity: Equatable, Sendable {
    @usableFromInline let bits: NameBits

    /// The identity of `name`.
    @inlinable @inline(__always)
    public init(_ name: String) { bits = NameBits(name) }

    /// Whether both identities are of the very same string (false: unknown).
    @inlinable @inline(__always)
    public static func == (lhs: NameIdentity, rhs: NameIdentity) -> Bool {
        lhs.bits.isComparable && lhs.bits == rhs.bits
    }
}
