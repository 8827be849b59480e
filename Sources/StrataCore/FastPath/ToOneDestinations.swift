/// The destinations of an object's to-ones, by relationship name, as one value: what a to-one
/// resolver makes for a fetched row, an undo keeps and a fault clears (``ManagedObject/toOneValues``).
/// A ``NameMap`` of objects whose first entry is held in place.
///
/// Most objects have one to-one (a book's author) or none, and a map of their own would be an
/// allocation per row. Here the first entry sits in the value itself and only later ones go to a
/// map. The object keeps its to-ones more compactly still (``ManagedObject/toOne(named:)``).
/// Names are found as a ``NameMap`` finds them (the very same string by comparing two words, any
/// other spelling by comparing text), and entries keep the order they were added in.
struct ToOneDestinations: Sequence {
    /// The first entry's relationship name; meaningful while ``firstObject`` is not nil.
    private var firstName = ""
    /// The first entry's destination; nil only when there are no entries.
    private var firstObject: ManagedObject?
    /// The entries after the first, in the order they were added.
    private var others = NameMap<ManagedObject>()

    /// No destinations.
    init() {}

    /// Whether the first entry is the one of `name`.
    @inline(__always)
    private func firstHolds(_ name: String) -> Bool {
        firstObject != nil && (NameBits.same(firstName, name) || firstName == name)
    }

    /// The destination of the to-one `name`; setting nil removes it.
    subscript(name: String) -> ManagedObject? {
        get {
            if firstHolds(name) { return firstObject }
            return others.isEmpty ? nil : others[name]
        }
        set {
            if firstHolds(name) {
                if let newValue {
                    firstObject = newValue
                } else {
                    removeFirst()
                }
            } else if firstObject == nil {
                // No entries at all: the new one is the first.
                if let newValue {
                    firstName = name
                    firstObject = newValue
                }
            } else {
                others[name] = newValue
            }
        }
    }

    /// Removes the first entry; the next one, if any, takes its place.
    private mutating func removeFirst() {
        var rest = others.makeIterator()
        if let next = rest.next() {
            others.removeValue(forKey: next.key)
            firstName = next.key
            firstObject = next.value
        } else {
            firstName = ""
            firstObject = nil
        }
    }

    /// Whether there are no destinations.
    var isEmpty: Bool { firstObject == nil }

    /// The destinations, in the order their names were added.
    var values: [ManagedObject] { map(\.value) }

    /// Each name with its destination, in the order the names were added.
    struct Iterator: IteratorProtocol {
        fileprivate var first: (key: String, value: ManagedObject)?
        fileprivate var others: NameMap<ManagedObject>.Iterator

        /// The next name and destination.
        mutating func next() -> (key: String, value: ManagedObject)? {
            if let entry = first {
                first = nil
                return entry
            }
            return others.next()
        }
    }

    /// Iterates the names with their destinations.
    func makeIterator() -> Iterator {
        Iterator(first: firstObject.map { (firstName, $0) }, others: others.makeIterator())
    }
}
