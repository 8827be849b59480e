/// A small map from property names to values, for the few relationships of one object: found by
/// comparing names, not hashing them.
///
/// An object holds one map for its to-ones and one for its loaded to-manys, each with a handful
/// of entries, read and written for every relationship change. A dictionary hashes the name on
/// every access; here a name that is the very same string as the stored one (the model's name, or
/// the same literal) is found by comparing two words, any other spelling by comparing text.
struct NameMap<Value>: ExpressibleByDictionaryLiteral, Sequence {
    fileprivate struct Entry {
        let name: String
        let bits: NameBits
        var value: Value
    }

    private var entries: [Entry] = []

    /// An empty map.
    init() {}

    /// The entries of a literal; a repeated name keeps its last value.
    init(dictionaryLiteral elements: (String, Value)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The entries of a dictionary.
    init(_ dictionary: [String: Value]) {
        guard !dictionary.isEmpty else { return }
        entries.reserveCapacity(dictionary.count)
        for (name, value) in dictionary { entries.append(Entry(name: name, bits: NameBits(name), value: value)) }
    }

    private func index(of name: String) -> Int? {
        let key = NameBits(name)
        if key.isComparable, let index = entries.firstIndex(where: { $0.bits == key }) { return index }
        return entries.firstIndex { $0.name == name }
    }

    /// The value for `name`; setting nil removes it.
    subscript(name: String) -> Value? {
        get { index(of: name).map { entries[$0].value } }
        set {
            if let index = index(of: name) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(name: name, bits: NameBits(name), value: newValue))
            }
        }
    }

    /// Changes the value for `name` in place (starting from `defaultValue` when there is none)
    /// and returns what `body` returns.
    mutating func modify<Result>(_ name: String, default defaultValue: @autoclosure () -> Value,
                                 _ body: (inout Value) throws -> Result) rethrows -> Result {
        let index = index(of: name) ?? {
            entries.append(Entry(name: name, bits: NameBits(name), value: defaultValue()))
            return entries.count - 1
        }()
        return try body(&entries[index].value)
    }

    /// Removes the value for `name`; returns it.
    @discardableResult
    mutating func removeValue(forKey name: String) -> Value? {
        guard let index = index(of: name) else { return nil }
        return entries.remove(at: index).value
    }

    /// Whether the map is empty.
    var isEmpty: Bool { entries.isEmpty }

    /// How many entries there are.
    var count: Int { entries.count }

    /// The values, in the order their names were added.
    var values: [Value] { entries.map(\.value) }

    /// Each name with its value, in the order the names were added.
    struct Iterator: IteratorProtocol {
        fileprivate var base: IndexingIterator<[Entry]>

        mutating func next() -> (String, Value)? { base.next().map { ($0.name, $0.value) } }
    }

    func makeIterator() -> Iterator { Iterator(base: entries.makeIterator()) }
}

extension NameMap: Sendable where Value: Sendable {}
extension NameMap.Entry: Sendable where Value: Sendable {}

extension NameMap: Equatable where Value: Equatable {
    /// Maps are equal when the same names have equal values, in any order.
    static func == (lhs: NameMap, rhs: NameMap) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.0] == $0.1 }
    }
}

extension NameMap: Hashable where Value: Hashable {
    /// Hashes the names and values, independently of their order.
    func hash(into hasher: inout Hasher) {
        hashUnordered(self, into: &hasher)
    }
}
