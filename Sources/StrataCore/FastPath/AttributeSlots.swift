import Foundation
/// The storage of ``AttributeValues``: how many positions there are, then the value at each, in
/// one allocation that never grows (values for a longer layout get a new one).
///
/// Each value is kept in a slot with a tag byte saying what it holds, not as an
/// `AttributeValue?`: the enum takes 24 bytes a value (no 16-byte layout leaves room for its case
/// beside a `String`), which made the storage of six values a 192-byte block where this is a
/// 112-byte one. A fetch touches fresh memory at every row, and each page of it costs the kernel
/// microseconds. A slot is 16 bytes, or 8 for an attribute whose type is a number, a Boolean or a
/// date (where each slot sits is the layout's ``AttributeSlotTable``). Texts and
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
    /// Where the slots sit, and the layout whose names the positions are.
    @usableFromInline
    struct Header {
        /// The entries of the layout's ``AttributeSlotTable``: how many positions there are, and where
        /// each one's slot starts. The layout keeps it alive.
        @usableFromInline let slotTable: UnsafePointer<UInt32>
        /// The layout, retained by the storage for as long as it lives (released in `deinit`).
        // Unmanaged: retained once with the storage, so a copy of the values retains one reference, not two.
        @usableFromInline let layout: Unmanaged<AttributeLayout>

        @inlinable
        init(layout: AttributeLayout) {
            self.slotTable = UnsafePointer(layout.slotTable.entries)
            self.layout = .passRetained(layout)
        }

        /// How many positions there are; a position whose value is not made yet holds none.
        @inlinable var count: Int { Int(slotTable[0]) }

        /// Where the slot of `position` starts, from the first slot.
        @inlinable @inline(__always)
        func offset(of position: Int) -> Int { Int(slotTable[1 &+ position]) }

        /// Whether the slot of `position` is a wide one (16 bytes).
        @inlinable @inline(__always)
        func isWide(_ position: Int) -> Bool { slotTable[2 &+ position] &- slotTable[1 &+ position] == 16 }
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

    /// No positions: what an ``AttributeValues`` that holds no storage reads, never written.
    // Nonisolated: never written (a write copies it first), so sharing it across threads is safe.
    @usableFromInline nonisolated(unsafe) static let empty = AttributeSlots.make(layout: .empty) { _ in nil }

    /// Storage for the positions of `layout`, the value at each made by `value`, in position
    /// order. When `value` throws, the values made so far are freed with the storage.
    @inlinable @inline(__always)
    static func make(layout: AttributeLayout, _ value: (Int) throws -> AttributeValue?) rethrows -> AttributeSlots {
        let header = Header(layout: layout)
        let count = header.count
        let words = tagWords(count) &+ header.offset(of: count) >> 3
        // Downcast unchecked: `create` makes an instance of this very class.
        let storage = unsafeDowncast(create(minimumCapacity: words) { _ in header }, to: AttributeSlots.self)
        try storage.withUnsafeMutablePointerToElements { elements in
            // Every word zeroed first: a position whose value is not made yet holds none, and a
            // value that fills less than its slot leaves the rest zero.
            elements.initialize(repeating: 0, count: words)
            let tags = UnsafeMutableRawPointer(elements)
            let slots = Self.slots(after: elements, count: count)
            for position in 0..<count {
                store(try value(position), tag: tags + position, slot: slots + header.offset(of: position)) { header.isWide(position) }
            }
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointers { header, elements in
            let count = header.pointee.count
            let tags = UnsafeMutableRawPointer(elements)
            let slots = Self.slots(after: elements, count: count)
            for position in 0..<count {
                Self.destroy(tag: tags.load(fromByteOffset: position, as: UInt8.self), slot: slots + header.pointee.offset(of: position))
            }
            header.pointee.layout.release()
        }
    }

    /// Puts `value` in an empty slot whose bytes past the first word are zero, and writes its
    /// tag. A value kept as it was is then the very same bytes. A text, bytes or a UUID goes into
    /// a narrow slot (`isWide()` false) boxed.
    @inlinable @inline(__always)
    static func store(_ value: consuming AttributeValue?, tag: UnsafeMutableRawPointer, slot: UnsafeMutableRawPointer,
                      isWide wide: () -> Bool) {
        let kind: Kind
        // Consumed: a text, bytes or a box moves into the slot without a retain.
        switch consume value {
        case nil: slot.storeBytes(of: 0, as: UInt64.self); kind = .empty
        case .integer(let number)?: slot.storeBytes(of: UInt64(bitPattern: number), as: UInt64.self); kind = .integer
        case .double(let number)?: slot.storeBytes(of: number.bitPattern, as: UInt64.self); kind = .double
        case .float(let number)?: slot.storeBytes(of: UInt64(number.bitPattern), as: UInt64.self); kind = .float
        case .boolean(let flag)?: slot.storeBytes(of: flag ? 1 : 0, as: UInt64.self); kind = .boolean
        case .date(let date)?: slot.storeBytes(of: date.timeIntervalSinceReferenceDate.bitPattern, as: UInt64.self); kind = .date
        case .string(let text)?:
            if wide() { slot.initializeMemory(as: String.self, to: text); kind = .string } else { kind = box(.string(text), in: slot) }
        case .binary(let bytes)?:
            if wide() { slot.initializeMemory(as: Data.self, to: bytes); kind = .binary } else { kind = box(.binary(bytes), in: slot) }
        case .uuid(let uuid)?:
            if wide() { slot.storeBytes(of: uuid.uuid, as: uuid_t.self); kind = .uuid } else { kind = box(.uuid(uuid), in: slot) }
        case let other?: kind = box(other, in: slot)
        }
        tag.storeBytes(of: kind.rawValue, as: UInt8.self)
    }

    /// Puts `value` in `slot` in a box: a value with no room of its own in a slot.
    @inlinable @inline(__always)
    static func box(_ value: consuming AttributeValue, in slot: UnsafeMutableRawPointer) -> Kind {
        slot.initializeMemory(as: Boxed.self, to: Boxed(value))
        return .boxed
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
        // Unmanaged: compares the two references without a retain and release of either.
        withUnsafeMutablePointerToHeader { $0.pointee.layout.toOpaque() == Unmanaged.passUnretained(other).toOpaque() }
    }

    /// The value at `position`, which must be below ``count``.
    @inlinable
    subscript(position: Int) -> AttributeValue? {
        @inline(__always) get {
            withUnsafeMutablePointers { header, elements in
                let count = header.pointee.count
                precondition(position >= 0 && position < count, "attribute position out of range")
                let tags = UnsafeMutableRawPointer(elements)
                return Self.load(tag: tags.load(fromByteOffset: position, as: UInt8.self),
                                 slot: Self.slots(after: elements, count: count) + header.pointee.offset(of: position))
            }
        }
        @inline(__always) set {
            withUnsafeMutablePointers { header, elements in
                let count = header.pointee.count
                precondition(position >= 0 && position < count, "attribute position out of range")
                let tag = UnsafeMutableRawPointer(elements) + position
                let slot = Self.slots(after: elements, count: count) + header.pointee.offset(of: position)
                Self.destroy(tag: tag.load(as: UInt8.self), slot: slot)
                let wide = header.pointee.isWide(position)
                if wide { slot.storeBytes(of: 0, toByteOffset: 8, as: UInt64.self) }
                Self.store(newValue, tag: tag, slot: slot) { wide }
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
                let common = min(count, otherCount)
                let (tags, otherTags) = (UnsafeMutableRawPointer(elements), UnsafeMutableRawPointer(otherElements))
                let slots = Self.slots(after: elements, count: count)
                let otherSlots = Self.slots(after: otherElements, count: otherCount)
                var differing: [Int] = []
                differing.reserveCapacity(common)
                for position in 0..<common {
                    let (tag, otherTag) = (tags.load(fromByteOffset: position, as: UInt8.self),
                                           otherTags.load(fromByteOffset: position, as: UInt8.self))
                    let slot = slots + header.pointee.offset(of: position)
                    let otherSlot = otherSlots + otherHeader.pointee.offset(of: position)
                    let wide = header.pointee.isWide(position)
                    // A value kept as it was is the very same bytes in both: told apart without a
                    // copy of either or a look at its text.
                    if tag == otherTag, wide == otherHeader.pointee.isWide(position),
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
        return AttributeSlots.make(layout: newLayout) { $0 < count ? self[$0] : nil }
    }
}
