/// The names of attributes in order: where each attribute's value sits in ``AttributeValues``.
///
/// Every entity has one (``EntityDescription/attributeLayout``, its attributes in model order,
/// inherited first), shared by the values of every object and snapshot of the entity, so that a
/// value is found by position rather than by hashing its name into a dictionary.
public final class AttributeLayout: Sendable, Hashable, CustomStringConvertible {
    /// The attribute names, each once, in order.
    public let names: [String]
    private let positions: [String: Int]
    /// The names' own bits, for finding a name without hashing it (see ``position(of:)``).
    private let nameBits: [NameBits]
    /// Names known not to be attributes (an entity's relationships), so that asking for one of
    /// them answers nil without hashing it; kept, so that their bits stay theirs.
    private let otherNames: [String]
    private let otherNameBits: [NameBits]

    /// A layout of `names`, in order; a repeated name keeps its first position.
    public convenience init(names: [String]) {
        self.init(names: names, otherNames: [])
    }

    /// A layout of `names`, told that `otherNames` are not among them.
    init(names: [String], otherNames: [String]) {
        var unique: [String] = []
        var positions: [String: Int] = [:]
        for name in names where positions[name] == nil {
            positions[name] = unique.count
            unique.append(name)
        }
        self.names = unique
        self.positions = positions
        self.nameBits = unique.map(NameBits.init)
        self.otherNames = otherNames.filter { positions[$0] == nil }
        self.otherNameBits = self.otherNames.map(NameBits.init)
    }

    /// The layout with no names.
    public static let empty = AttributeLayout(names: [])

    /// How many names a layout compares by their bits before hashing instead.
    private static let longestScan = 64

    /// The position of `name`, nil when the layout does not have it.
    ///
    /// A name that is the very same string as one of the layout's (a string literal in the
    /// caller's code, or a name read from the model) is found by comparing the string's two
    /// words with each name's, without hashing; any other spelling, and any name of a layout of
    /// more than 64 names, is looked up by hash.
    public func position(of name: String) -> Int? {
        let bits = NameBits(name)
        // Past a few dozen names a scan costs more than the hash it saves.
        if bits.isComparable, nameBits.count + otherNameBits.count <= Self.longestScan {
            for index in nameBits.indices where nameBits[index] == bits { return index }
            if otherNameBits.contains(bits) { return nil }
        }
        return positions[name]
    }

    /// This layout with `name` added at the end.
    func appending(_ name: String) -> AttributeLayout {
        AttributeLayout(names: names + [name])
    }

    /// Layouts are equal when their names are, in order.
    public static func == (lhs: AttributeLayout, rhs: AttributeLayout) -> Bool {
        lhs === rhs || lhs.names == rhs.names
    }

    /// Hashes the names.
    public func hash(into hasher: inout Hasher) { hasher.combine(names) }

    /// The names, in order.
    public var description: String { "[\(names.joined(separator: ", "))]" }
}
