/// The two words a `String` is made of. Equal words are the same string: a small string holds
/// its bytes in them, any other one its length and a reference to storage that the holder of the
/// other copy keeps alive and unchanged. Unequal words say nothing (the same text can be stored
/// twice), so a miss falls back to comparing or hashing the text.
@usableFromInline
package struct NameBits: Equatable, Sendable {
    @usableFromInline package let first: UInt64
    @usableFromInline package let second: UInt64

    @inlinable
    package init(_ name: String) {
        #if _pointerBitWidth(_64)
        // The string's own two words: saves hashing or comparing its text for every name looked up.
        (first, second) = unsafeBitCast(name, to: (UInt64, UInt64).self)
        #else
        (first, second) = (0, 0)
        #endif
    }

    /// Whether the words can be compared on this platform.
    @inlinable
    package var isComparable: Bool {
        #if _pointerBitWidth(_64)
        true
        #else
        false
        #endif
    }

    /// Whether `lhs` and `rhs` are known to be the same string by their words alone (false
    /// means unknown: compare the text).
    @inlinable
    package static func same(_ lhs: String, _ rhs: String) -> Bool {
        let bits = NameBits(lhs)
        return bits.isComparable && bits == NameBits(rhs)
    }
}
