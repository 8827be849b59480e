/// Where the value of each position of an ``AttributeLayout`` sits in the storage of
/// ``AttributeValues`` (``AttributeSlots``): entry 0 is the number of positions, entry `1 + p` the
/// byte offset of position `p`'s slot from the first slot, and entry `1 + count` the bytes of all
/// the slots. A slot is 8 bytes for an attribute whose values are numbers, Booleans or dates (the
/// layout's narrow names), 16 otherwise.
///
/// One allocation, written once as the table is made and never after, freed by the layout that
/// owns it (``deallocate()``, from the layout's `deinit`); ``AttributeSlots`` reads it through a
/// plain pointer, without retaining anything, for every value read or written.
@usableFromInline
struct AttributeSlotTable: @unchecked Sendable {
    // Sendable: the entries are written only by `init`, before the table is shared, and only read
    // after; the owning layout frees them once nothing can read them.

    /// The entries, `count + 2` of them.
    @usableFromInline let entries: UnsafeMutablePointer<UInt32>

    /// A table of `count` positions; `isNarrow(p)` tells whether position `p` takes an 8-byte slot.
    init(count: Int, isNarrow: (Int) -> Bool) {
        entries = .allocate(capacity: count + 2)
        entries[0] = UInt32(truncatingIfNeeded: count)
        var offset: UInt32 = 0
        for position in 0..<count {
            entries[1 + position] = offset
            offset &+= isNarrow(position) ? 8 : 16
        }
        entries[1 + count] = offset
    }

    /// Frees the entries: what the owning layout does as it goes, once.
    func deallocate() {
        entries.deallocate()
    }

    /// The bytes of the slot of `position`: 8 or 16.
    func width(at position: Int) -> Int {
        Int(entries[2 + position] - entries[1 + position])
    }
}
