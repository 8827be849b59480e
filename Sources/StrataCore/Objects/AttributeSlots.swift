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
@usableFromInline
final class AttributeSlots: ManagedBuffer<Int, AttributeValue?> {
    /// No positions: the storage of every empty ``AttributeValues``, never written.
    @usableFromInline nonisolated(unsafe) static let empty = AttributeSlots.make(count: 0) { _ in nil }

    /// Storage for `count` positions, the value at each made by `value`, in position order. When
    /// `value` throws, the values made so far are freed with the storage.
    @inlinable
    static func make(count: Int, _ value: (Int) throws -> AttributeValue?) rethrows -> AttributeSlots {
        let storage = unsafeDowncast(create(minimumCapacity: count) { _ in 0 }, to: AttributeSlots.self)
        try storage.withUnsafeMutablePointers { filled, values in
            while filled.pointee < count {
                (values + filled.pointee).initialize(to: try value(filled.pointee))
                filled.pointee += 1
            }
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointers { count, values in
            // One by one: deinitialising them all at once destroys each through the witness table.
            for position in 0..<count.pointee { _ = (values + position).move() }
        }
    }

    // The count is read through its pointer: reading `header` itself is a checked access to a
    // class's stored property, which costs more than the read.

    /// How many positions there are.
    @inlinable var count: Int { withUnsafeMutablePointerToHeader { $0.pointee } }

    /// The value at `position`, which must be below ``count``.
    @inlinable
    subscript(position: Int) -> AttributeValue? {
        get {
            withUnsafeMutablePointers { count, values in
                precondition(position >= 0 && position < count.pointee, "attribute position out of range")
                return values[position]
            }
        }
        set {
            withUnsafeMutablePointers { count, values in
                precondition(position >= 0 && position < count.pointee, "attribute position out of range")
                values[position] = newValue
            }
        }
    }

    /// The positions below both counts whose values here and in `other` differ, compared where
    /// they are kept: none when both are the same storage.
    func positionsDiffering(from other: AttributeSlots) -> [Int] {
        guard other !== self else { return [] }
        return withUnsafeMutablePointers { count, values in
            other.withUnsafeMutablePointers { otherCount, otherValues in
                let common = min(count.pointee, otherCount.pointee)
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

    /// A copy with `count` positions: the values of the first ones, nil past this one's end.
    @usableFromInline
    func copy(count newCount: Int) -> AttributeSlots {
        withUnsafeMutablePointers { count, values in
            AttributeSlots.make(count: newCount) { $0 < count.pointee ? values[$0] : nil }
        }
    }
}
