import Foundation
/// The storage of ``AttributeValues``: how many positions there are, then the value at each, in
/// one allocation that never grows (values for a longer layout get a new one).
///
/// An array of the values would do the same, but its allocation and its teardown run through
/// generic standard-library code that looks the element type up at run time and destroys each
/// value through its type's witness table: several times the cost of the allocation itself, for
/// every row a store reads and every object freed. Here both are specialised for the one element
/// type. Shared between copies of ``AttributeValues``, which copy it before writing unless they
/// hold the only reference: so a storage that is shared is never written, and ``AttributeValues``
/// is `Sendable` as an array of its values would be.
///
/// The storage also holds the layout its values are kept in (retained once, when the storage is
/// made), so that a copy of ``AttributeValues`` retains and releases one reference, not two.
@usableFromInline
final class AttributeSlots: ManagedBuffer<AttributeSlots.Header, AttributeValue?> {
    /// How many positions there are, and the layout whose names they are.
    @usableFromInline
    struct Header {
        /// How many positions are initialised.
        @usableFromInline var count: Int
        /// The layout, retained by the storage for as long as it lives.
        @usableFromInline let layout: Unmanaged<AttributeLayout>

        @inlinable
        init(count: Int, layout: Unmanaged<AttributeLayout>) {
            self.count = count
            self.layout = layout
        }
    }

    /// No positions: the storage of every empty ``AttributeValues``, never written.
    @usableFromInline nonisolated(unsafe) static let empty = AttributeSlots.make(layout: .empty, count: 0) { _ in nil }

    /// Storage for `count` positions of `layout`, the value at each made by `value`, in position
    /// order. When `value` throws, the values made so far are freed with the storage.
    @inlinable
    static func make(layout: AttributeLayout, count: Int, _ value: (Int) throws -> AttributeValue?) rethrows -> AttributeSlots {
        let storage = unsafeDowncast(create(minimumCapacity: count) { _ in Header(count: 0, layout: .passRetained(layout)) },
                                     to: AttributeSlots.self)
        try storage.withUnsafeMutablePointers { header, values in
            while header.pointee.count < count {
                (values + header.pointee.count).initialize(to: try value(header.pointee.count))
                header.pointee.count += 1
            }
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointers { header, values in
            // One by one: deinitialising them all at once destroys each through the witness table.
            for position in 0..<header.pointee.count { _ = (values + position).move() }
            header.pointee.layout.release()
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
        get {
            withUnsafeMutablePointers { header, values in
                precondition(position >= 0 && position < header.pointee.count, "attribute position out of range")
                return values[position]
            }
        }
        set {
            withUnsafeMutablePointers { header, values in
                precondition(position >= 0 && position < header.pointee.count, "attribute position out of range")
                values[position] = newValue
            }
        }
    }

    /// The positions below both counts whose values here and in `other` differ, compared where
    /// they are kept: none when both are the same storage.
    func positionsDiffering(from other: AttributeSlots) -> [Int] {
        guard other !== self else { return [] }
        return withUnsafeMutablePointers { header, values in
            other.withUnsafeMutablePointers { otherHeader, otherValues in
                let common = min(header.pointee.count, otherHeader.pointee.count)
                var differing: [Int] = []
                differing.reserveCapacity(common)
                for position in 0..<common {
                    // A value kept as it was is the very same bytes in both: told apart without a
                    // copy of either or a look at its text.
                    if memcmp(values + position, otherValues + position, MemoryLayout<AttributeValue?>.size) == 0 { continue }
                    if values[position] != otherValues[position] { differing.append(position) }
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
        withUnsafeMutablePointers { header, values in
            AttributeSlots.make(layout: newLayout, count: newLayout.names.count) { $0 < header.pointee.count ? values[$0] : nil }
        }
    }
}
