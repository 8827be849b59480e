/// The names of attributes in order: where each attribute's value sits in ``AttributeValues``.
///
/// Every entity has one (`EntityDescription/attributeLayout`, its attributes in model order,
/// inherited first), shared by the values of every object and snapshot of the entity, so that a
/// value is found by position rather than by hashing its name into a dictionary.
public final class AttributeLayout: Sendable, Hashable, CustomStringConvertible {
    /// The attribute names, each once, in order.
    @_spi(StoreImplementation) public let names: [String]
    private let positions: [String: Int]
    /// The names' own words, and those of names known not to be attributes, for finding a name
    /// without hashing its text (see ``position(of:)``). The table keeps the names it holds.
    private let words: NameWordTable
    /// Where the value of each position sits in the storage of ``AttributeValues``: 8-byte slots
    /// for the layout's narrow names (numbers, Booleans, dates), 16-byte ones otherwise.
    @usableFromInline let slotTable: AttributeSlotTable

    /// A layout of `names`, in order; a repeated name keeps its first position.
    @_spi(StoreImplementation) public convenience init(names: [String]) {
        self.init(names: names, otherNames: [])
    }

    /// A layout of `names`, told that `otherNames` are not among them (an entity's
    /// relationships), so that asking for one of those answers nil without hashing it, and that
    /// the values of `narrowNames` are numbers, Booleans or dates (8-byte slots).
    init(names: [String], otherNames: [String], narrowNames: Set<String> = []) {
        var unique: [String] = []
        var positions: [String: Int] = [:]
        for name in names where positions[name] == nil {
            positions[name] = unique.count
            unique.append(name)
        }
        self.names = unique
        self.positions = positions
        slotTable = AttributeSlotTable(count: unique.count) { narrowNames.contains(unique[$0]) }
        self.words = NameWordTable(unique.enumerated().map { ($1, $0) } + otherNames.filter { positions[$0] == nil }.map { ($0, nil) })
    }

    deinit {
        slotTable.deallocate()
    }

    /// The bytes of the slot of `position` in the storage of values in this layout: 8 or 16.
    func slotWidth(at position: Int) -> Int {
        slotTable.width(at: position)
    }

    /// The layout with no names.
    @_spi(StoreImplementation) public static let empty = AttributeLayout(names: [])

    /// The position of `name`, nil when the layout does not have it.
    ///
    /// A name that is the very same string as one of the layout's (a string literal in the
    /// caller's code, or a name read from the model) is found by its two words in a small table,
    /// without hashing or comparing its text; any other spelling is looked up by hash.
    @inline(__always)
    @_spi(StoreImplementation) public func position(of name: String) -> Int? {
        switch words.lookUp(NameBits(name)) {
        case .found(let position): position
        case .notAName: nil
        case .unknown: positions[name]
        }
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
