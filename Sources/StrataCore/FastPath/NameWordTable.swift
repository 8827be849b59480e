/// Names found by their two words (``NameBits``) in a small open-addressed table: a name that is
/// the very same string as one put in is found with a multiplication, a load and two
/// comparisons, whatever its length and however many names there are.
///
/// Each name carries a position, or none for a name known to be absent from what the positions
/// index (an entity's relationships, for its attribute layout). A string whose words are not in
/// the table (the same text spelled by another string, or a name not put in) is ``Lookup/unknown``:
/// the caller then compares or hashes its text.
///
/// The table keeps the names put in, so that the words it holds stay theirs; tables are equal
/// when they were made of the same names and positions.
struct NameWordTable: Sendable, Hashable {
    /// What a look-up found.
    enum Lookup: Equatable {
        /// The name is in the table with this position.
        case found(Int)
        /// The name is in the table as one without a position.
        case notAName
        /// The name's words are not in the table.
        case unknown
    }

    /// One place of the table: a name's words and its position, ``noPosition`` or ``empty``.
    private struct Slot {
        var first: UInt64
        var second: UInt64
        var position: Int
    }

    private static let noPosition = -1
    private static let empty = Int.min

    private let slots: [Slot]
    /// The shift that keeps a hash's top bits: as many as the table's size has.
    private let shift: UInt64
    /// The names put in, in order, and their positions.
    private let names: [String]
    private let positions: [Int?]

    /// A table of `entries`, each a name and its position (nil: known to have none). A name
    /// given twice keeps its first entry.
    init(_ entries: [(name: String, position: Int?)]) {
        names = entries.map(\.name)
        positions = entries.map(\.position)
        var bits = 3
        while 1 << bits < 2 * entries.count { bits += 1 }
        var slots = [Slot](repeating: Slot(first: 0, second: 0, position: Self.empty), count: 1 << bits)
        shift = UInt64(64 - bits)
        let mask = slots.count - 1
        if NameBits("").isComparable {
            for entry in entries {
                let words = NameBits(entry.name)
                var index = Self.index(words, shift: shift)
                while slots[index].position != Self.empty, slots[index].first != words.first || slots[index].second != words.second {
                    index = (index + 1) & mask
                }
                guard slots[index].position == Self.empty else { continue }
                slots[index] = Slot(first: words.first, second: words.second, position: entry.position ?? Self.noPosition)
            }
        }
        self.slots = slots
    }

    /// Tables are equal when they were made of the same names and positions.
    static func == (lhs: NameWordTable, rhs: NameWordTable) -> Bool {
        lhs.names == rhs.names && lhs.positions == rhs.positions
    }

    /// Hashes the names and positions.
    func hash(into hasher: inout Hasher) {
        hasher.combine(names)
        hasher.combine(positions)
    }

    /// Where the search for `words` starts: the top bits of a multiplicative hash of both words.
    @inline(__always)
    private static func index(_ words: NameBits, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: ((words.first ^ (words.second &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9) >> shift)
    }

    /// The entry of the string whose words are `words`.
    @inline(__always)
    func lookUp(_ words: NameBits) -> Lookup {
        guard words.isComparable else { return .unknown }
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Self.index(words, shift: shift)
            while true {
                let slot = slots[index]
                if slot.first == words.first, slot.second == words.second, slot.position != Self.empty {
                    return slot.position == Self.noPosition ? .notAName : .found(slot.position)
                }
                if slot.position == Self.empty { return .unknown }
                index = (index + 1) & mask
            }
        }
    }
}
