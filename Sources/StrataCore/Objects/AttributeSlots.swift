import Foundation
/// The storage of ``AttributeValues``: how many positions there are, then the value at each, in
/// one allocation that never grows (values for a longer layout get a new one).
///
/// Each value is kept in a slot with a tag byte saying what it holds, not as an
/// `AttributeValue?`: the enum takes 24 bytes a value (no 16-byte layout leaves room for its case
/// beside a `String`), which made the storage of six values a 192-byte block where this is a
/// 112-byte one. A fetch touches fresh memory at every row, and each page of it costs the kernel
/// microseconds. A slot is 16 bytes, or 8 for an attribute whose type is a number, a Boolean or a
/// date (the layout's ``AttributeLayout/narrowSlots``, among its first 32 positions). Texts and
/// bytes sit in wide slots as `String` and `Data`; numbers, Booleans, dates and UUIDs as their
/// bits, unused bytes zero, so that a value kept as it was is the very same bytes; the rare
/// decimals, URLs and object IDs, and a value too wide for its slot, in a box (``Boxed``). The
/// tags come first, one word for every eight positions, then the slots.
///
/// An array of the values would do the same, but its allocation and its teardown run through
/// generic standard-library code that looks the element type up at run time and destroys each
/// value through its type's witness table: several times the cost of the allocation itself, for
/// every row a store reads and every object freed. Here both are specialised for each kind of
/// value. Shared between copies of ``AttributeValues``, which copy it before writing unless they
/// hold the only reference: so a storage that is shared is never written, and ``AttributeValues``
/// is `Sendable` as an array of its values would be.
///
/// The storage also holds the layout its values are kept in (retained once, when the storage is
/// made), so that a copy of ``AttributeValues`` retains and releases one reference, not two.
@usableFromInline
final class AttributeSlots: ManagedBuffer<AttributeSlots.Header, UInt64> {
    /// How many positions there are, which of them have narrow slots, and the layout whose
    /// names they are.
    @usableFromInline
    struct Header {
        /// How many positions there are; a position whose value is not made yet holds none.
        @usableFromInline let positionCount: UInt32
        /// The positions whose slots are 8 bytes, one bit each, all below ``positionCount``.
        @usableFromInline let narrowSlots: UInt32
        /// The layout, retained by the storage for as long as it lives.
        @usableFromInline let layout: Unmanaged<AttributeLayout>

        @inlinable
        init(count: Int, narrowSlots: UInt32, layout: Unmanaged<AttributeLayout>) {
            self.positionCount = UInt32(truncatingIfNeeded: count)
            self.narrowSlots = narrowSlots
            self.layout = layout
        }

        /// How many positions there are.
        @inlinable var count: Int { Int(positionCount) }
    }

    /// What a slot holds: its tag byte.
    @usableFromInline
    enum Kind: UInt8 {
        case empty = 0, integer, double, float, string, boolean, date, binary, uuid, boxed
    }

    /// A value kept out of line: a decimal (20 bytes), a URL, an object ID.
    @usableFromInline
    final class Boxed: Sendable {
        @usableFromInline let value: AttributeValue

        @usableFromInline
        init(_ value: AttributeValue) { self.value = value }
    }

    /// The bytes of a wide slot's value; a narrow slot holds half as many.
    @usableFromInline static var slotSize: Int { 16 }

    /// Whether the slot of `position` is a wide one, given the storage's narrow slots.
    @inlinable @inline(__always)
    static func isWide(_ position: Int, narrowSlots: UInt32) -> Bool {
        position >= 32 || narrowSlots & (1 &<< UInt32(truncatingIfNeeded: position)) == 0
    }

    /// Where the slot of `position` starts, from the first slot: 16 bytes a position before it,
    /// less 8 for each narrow one.
    @inlinable @inline(__always)
    static func offset(of position: Int, narrowSlots: UInt32) -> Int {
        let before: UInt32 = position >= 32 ? .max : (1 &<< UInt32(truncatingIfNeeded: position)) &- 1
        return position &* slotSize &- (narrowSlots & before).nonzeroBitCount &* 8
    }

    /// The words that hold the tag bytes of `count` positions, before the slots.
    @inlinable
    static func tagWords(_ count: Int) -> Int { (count &+ 7) >> 3 }

    /// The first slot of a storage of `count` positions whose elements start at `elements`: the
    /// tags come first, the byte of position `p` at `elements`' byte `p`, and slot `p` is
    /// ``slotSize`` bytes a position after this.
    @inlinable @inline(__always)
    static func slots(after elements: UnsafeMutablePointer<UInt64>, count: Int) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(elements + tagWords(count))
    }

    /// No positions: the storage of every empty ``AttributeValues``, never written.
    @usableFromInline nonisolated(unsafe) static let empty = AttributeSlots.make(layout: .empty, count: 0) { _ in nil }

    /// Storage for `count` positions of `layout`, the value at each made by `value`, in position
    /// order. When `value` throws, the values made so far are freed with the storage.
    @inlinable
    static func make(layout: AttributeLayout, count: Int, _ value: (Int) throws -> AttributeValue?) rethrows -> AttributeSlots {
        // Narrow slots past `count` (a layout's own count, always) would only waste words.
        let below: UInt32 = count >= 32 ? .max : (1 &<< UInt32(truncatingIfNeeded: count)) &- 1
        let narrowSlots = layout.narrowSlots & below
        let words = tagWords(count) &+ 2 &* count &- narrowSlots.nonzeroBitCount
        let storage = unsafeDowncast(create(minimumCapacity: words) { _ in
            Header(count: count, narrowSlots: narrowSlots, layout: .passRetained(layout))
        }, to: AttributeSlots.self)
        try storage.withUnsafeMutablePointerToElements { elements in
            // The tags zeroed first: a position whose value is not made yet holds none. Each
            // value is stored in all the bytes of its slot.
            for word in 0..<tagWords(count) { (elements + word).initialize(to: 0) }
            let tags = UnsafeMutableRawPointer(elements)
            let slots = Self.slots(after: elements, count: count)
            var offset = 0
            for position in 0..<count {
                let wide = isWide(position, narrowSlots: narrowSlots)
                store(try value(position), tag: tags + position, slot: slots + offset, wide: wide)
                offset &+= wide ? slotSize : slotSize / 2
            }
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointers { header, elements in
            let (count, narrowSlots) = (header.pointee.count, header.pointee.narrowSlots)
            let tags = UnsafeMutableRawPointer(elements)
            let slots = Self.slots(after: elements, count: count)
            var offset = 0
            for position in 0..<count {
                Self.destroy(tag: tags.load(fromByteOffset: position, as: UInt8.self), slot: slots + offset)
                offset &+= Self.isWide(position, narrowSlots: narrowSlots) ? Self.slotSize : Self.slotSize / 2
            }
            header.pointee.layout.release()
        }
    }

    /// Puts `value` in an empty slot, wide or narrow, filling all its bytes (the unused ones with
    /// zeros, so that a value kept as it was is the very same bytes), and writes its tag. A text,
    /// bytes or a UUID goes into a narrow slot boxed.
    @inlinable @inline(__always)
    static func store(_ value: consuming AttributeValue?, tag: UnsafeMutableRawPointer, slot: UnsafeMutableRawPointer, wide: Bool) {
        let kind: Kind
        // Consumed: a text, bytes or a box moves into the slot without a retain.
        switch consume value {
        case nil: word(0, in: slot, wide: wide); kind = .empty
        case .integer(let number)?: word(UInt64(bitPattern: number), in: slot, wide: wide); kind = .integer
        case .double(let number)?: word(number.bitPattern, in: slot, wide: wide); kind = .double
        case .float(let number)?: word(UInt64(number.bitPattern), in: slot, wide: wide); kind = .float
        case .boolean(let flag)?: word(flag ? 1 : 0, in: slot, wide: wide); kind = .boolean
        case .date(let date)?: word(date.timeIntervalSinceReferenceDate.bitPattern, in: slot, wide: wide); kind = .date
        case .string(let text)? where wide: slot.initializeMemory(as: String.self, to: text); kind = .string
        case .binary(let bytes)? where wide: slot.initializeMemory(as: Data.self, to: bytes); kind = .binary
        case .uuid(let uuid)? where wide: slot.storeBytes(of: uuid.uuid, as: uuid_t.self); kind = .uuid
        case let other?:
            word(0, in: slot, wide: wide)
            slot.initializeMemory(as: Boxed.self, to: Boxed(other))
            kind = .boxed
        }
        tag.storeBytes(of: kind.rawValue, as: UInt8.self)
    }

    /// Writes `first` as a slot's first word, and zero as the second of a wide slot.
    @inlinable @inline(__always)
    static func word(_ first: UInt64, in slot: UnsafeMutableRawPointer, wide: Bool) {
        slot.storeBytes(of: first, as: UInt64.self)
        if wide { slot.storeBytes(of: 0, toByteOffset: 8, as: UInt64.self) }
    }

    /// A copy of the value in `slot`, whose tag is `tag`. Numbers and Booleans are read back as
    /// the words they were written as, whatever the byte order.
    @inlinable @inline(__always)
    static func load(tag: UInt8, slot: UnsafeMutableRawPointer) -> AttributeValue? {
        switch tag {
        case Kind.integer.rawValue: .integer(Int64(bitPattern: slot.load(as: UInt64.self)))
        case Kind.double.rawValue: .double(Double(bitPattern: slot.load(as: UInt64.self)))
        case Kind.float.rawValue: .float(Float(bitPattern: UInt32(truncatingIfNeeded: slot.load(as: UInt64.self))))
        case Kind.string.rawValue: .string(slot.assumingMemoryBound(to: String.self).pointee)
        case Kind.boolean.rawValue: .boolean(slot.load(as: UInt64.self) != 0)
        case Kind.date.rawValue: .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: slot.load(as: UInt64.self))))
        case Kind.binary.rawValue: .binary(slot.assumingMemoryBound(to: Data.self).pointee)
        case Kind.uuid.rawValue: .uuid(UUID(uuid: slot.load(as: uuid_t.self)))
        case Kind.boxed.rawValue: slot.assumingMemoryBound(to: Boxed.self).pointee.value
        default: nil
        }
    }

    /// Frees the value in `slot`, whose tag is `tag`; the slot's bytes are left as they are.
    @inlinable @inline(__always)
    static func destroy(tag: UInt8, slot: UnsafeMutableRawPointer) {
        switch tag {
        case Kind.string.rawValue: slot.assumingMemoryBound(to: String.self).deinitialize(count: 1)
        case Kind.binary.rawValue: slot.assumingMemoryBound(to: Data.self).deinitialize(count: 1)
        case Kind.boxed.rawValue: slot.assumingMemoryBound(to: Boxed.self).deinitialize(count: 1)
        default: break
        }
    }

    // The header is read through its pointer: reading `header` itself is a checked access to a
    // class's stored property, which costs more than the read.

    /// How many positions there are.
    @inlinable var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }

    /// The layout the values are kept in.
    @inlinable var layout: AttributeLayout { withUnsafeMutablePointerToHeader { $0.pointee.layout.takeUnretainedValue() } }

    /// Whether the values are kept in `other`, found by comparing references without retaining
    /// either.
    @inlinable
    func isLaidOut(as other: AttributeLayout) -> Bool {
        withUnsafeMutablePointerToHeader { $0.pointee.layout.toOpaque() == Unmanaged.passUnretained(other).toOpaque() }
    }

    /// The value at `position`, which must be below ``count``.
    @inlinable
    subscript(position: Int) -> AttributeValue? {
        @inline(__always) get {
            withUnsafeMutablePointers { header, elements in
                let (count, narrowSlots) = (header.pointee.count, header.pointee.narrowSlots)
                precondition(position >= 0 && position < count, "attribute position out of range")
                let tags = UnsafeMutableRawPointer(elements)
                return Self.load(tag: tags.load(fromByteOffset: position, as: UInt8.self),
                                 slot: Self.slots(after: elements, count: count) + Self.offset(of: position, narrowSlots: narrowSlots))
            }
        }
        @inline(__always) set {
            withUnsafeMutablePointers { header, elements in
                let (count, narrowSlots) = (header.pointee.count, header.pointee.narrowSlots)
                precondition(position >= 0 && position < count, "attribute position out of range")
                let tag = UnsafeMutableRawPointer(elements) + position
                let slot = Self.slots(after: elements, count: count) + Self.offset(of: position, narrowSlots: narrowSlots)
                Self.destroy(tag: tag.load(as: UInt8.self), slot: slot)
                Self.store(newValue, tag: tag, slot: slot, wide: Self.isWide(position, narrowSlots: narrowSlots))
            }
        }
    }

    /// The positions below both counts whose values here and in `other` differ, compared where
    /// they are kept: none when both are the same storage.
    func positionsDiffering(from other: AttributeSlots) -> [Int] {
        guard other !== self else { return [] }
        return withUnsafeMutablePointers { header, elements in
            other.withUnsafeMutablePointers { otherHeader, otherElements in
                let (count, otherCount) = (header.pointee.count, otherHeader.pointee.count)
                let (narrowSlots, otherNarrowSlots) = (header.pointee.narrowSlots, otherHeader.pointee.narrowSlots)
                let common = min(count, otherCount)
                let (tags, otherTags) = (UnsafeMutableRawPointer(elements), UnsafeMutableRawPointer(otherElements))
                let slots = Self.slots(after: elements, count: count)
                let otherSlots = Self.slots(after: otherElements, count: otherCount)
                var differing: [Int] = []
                differing.reserveCapacity(common)
                for position in 0..<common {
                    let (tag, otherTag) = (tags.load(fromByteOffset: position, as: UInt8.self),
                                           otherTags.load(fromByteOffset: position, as: UInt8.self))
                    let slot = slots + Self.offset(of: position, narrowSlots: narrowSlots)
                    let otherSlot = otherSlots + Self.offset(of: position, narrowSlots: otherNarrowSlots)
                    let wide = Self.isWide(position, narrowSlots: narrowSlots)
                    // A value kept as it was is the very same bytes in both: told apart without a
                    // copy of either or a look at its text.
                    if tag == otherTag, wide == Self.isWide(position, narrowSlots: otherNarrowSlots),
                       memcmp(slot, otherSlot, wide ? Self.slotSize : Self.slotSize / 2) == 0 { continue }
                    if Self.load(tag: tag, slot: slot) != Self.load(tag: otherTag, slot: otherSlot) { differing.append(position) }
                }
                return differing
            }
        }
    }

    /// A copy in the same layout, each value copied.
    @usableFromInline
    func copy() -> AttributeSlots {
        copy(layout: layout)
    }

    /// A copy kept in `newLayout`, whose first names are this one's: the values of the first
    /// positions, nil past this one's end.
    @usableFromInline
    func copy(layout newLayout: AttributeLayout) -> AttributeSlots {
        let count = self.count
        return AttributeSlots.make(layout: newLayout, count: newLayout.names.count) { $0 < count ? self[$0] : nil }
    }
}
