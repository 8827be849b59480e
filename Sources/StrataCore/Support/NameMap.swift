/// A small map from property names to values, for the few relationships of one object: found by
/// comparing names, not hashing them. Used like a dictionary.
///
/// A snapshot keeps its to-one destinations in one (``ObjectSnapshot/toOne``); an object keeps
/// one for its to-ones and one for its loaded to-manys, each with a handful of entries, read and
/// written for every relationship change. A dictionary hashes the name on every access; here a
/// name that is the very same string as the stored one (the model's name, or the same literal) is
/// found by comparing two words, any other spelling by comparing text. Entries keep the order
/// they were added in.
public struct NameMap<Value>: ExpressibleByDictionaryLiteral, Sequence {
    @usableFromInline
    struct Entry {
        @usableFromInline let name: String
        @usableFromInline var value: Value

        @inlinable
        init(name: String, value: Value) {
            self.name = name
            self.value = value
        }

        /// The name's two words, read from the name itself (not kept twice).
        @inlinable var bits: NameBits { NameBits(name) }
    }

    // The map's code is inlinable: stores fill snapshots' to-ones from their own modules, where
    // a generic call that is not specialised costs more than the lookup.
    @usableFromInline var entries: [Entry] = []

    /// An empty map.
    @inlinable
    public init() {}

    /// The entries of a literal; a repeated name keeps its last value.
    @inlinable
    public init(dictionaryLiteral elements: (String, Value)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The entries of a dictionary, in the dictionary's order.
    public init(_ dictionary: [String: Value]) {
        guard !dictionary.isEmpty else { return }
        entries.reserveCapacity(dictionary.count)
        for (name, value) in dictionary { entries.append(Entry(name: name, value: value)) }
    }

    @inlinable
    func index(of name: String) -> Int? {
        let key = NameBits(name)
        if key.isComparable, let index = entries.firstIndex(where: { $0.bits == key }) { return index }
        return entries.firstIndex { $0.name == name }
    }

    /// The value for `name`; setting nil removes it.
    @inlinable
    public subscript(name: String) -> Value? {
        get { index(of: name).map { entries[$0].value } }
        set {
            if let index = index(of: name) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                let entry = Entry(name: name, value: newValue)
                // A first entry as a literal: growing an empty array goes through a generic
                // standard-library path several times as long.
                if entries.isEmpty { entries = [entry] } else { entries.append(entry) }
            }
        }
    }

    /// Whether the value for `name` is `value`, compared where it is kept rather than copied out.
    @inlinable
    public func holds(_ value: Value, for name: String) -> Bool where Value: Equatable {
        guard let index = index(of: name) else { return false }
        return entries.withUnsafeBufferPointer { $0[index].value == value }
    }

    /// Changes the value for `name` in place (starting from `defaultValue` when there is none)
    /// and returns what `body` returns.
    mutating func modify<Result>(_ name: String, default defaultValue: @autoclosure () -> Value,
                                 _ body: (inout Value) throws -> Result) rethrows -> Result {
        let index = index(of: name) ?? {
            entries.append(Entry(name: name, value: defaultValue()))
            return entries.count - 1
        }()
        return try body(&entries[index].value)
    }

    /// Removes the value for `name`; returns it.
    @discardableResult
    public mutating func removeValue(forKey name: String) -> Value? {
        guard let index = index(of: name) else { return nil }
        return entries.remove(at: index).value
    }

    /// Whether the map is empty.
    @inlinable
    public var isEmpty: Bool { entries.isEmpty }

    /// How many entries there are.
    @inlinable
    public var count: Int { entries.count }

    /// The names, in the order they were added.
    public var keys: [String] { entries.map(\.name) }

    /// The values, in the order their names were added.
    public var values: [Value] { entries.map(\.value) }

    /// The entries as a dictionary.
    public var dictionary: [String: Value] {
        Dictionary(entries.lazy.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }

    /// Each name with its value, in the order the names were added.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var base: IndexingIterator<[Entry]>

        @inlinable
        init(base: IndexingIterator<[Entry]>) { self.base = base }

        /// The next name and value.
        @inlinable
        public mutating func next() -> (key: String, value: Value)? { base.next().map { ($0.name, $0.value) } }
    }

    /// Iterates the names with their values.
    @inlinable
    public func makeIterator() -> Iterator { Iterator(base: entries.makeIterator()) }

    /// Whether the two maps have entries and keep them in one and the same storage: copies of
    /// one map that neither changed since. While both maps live, their storage cannot be freed
    /// and reused, so equal addresses mean one storage.
    func sharesEntries(with other: NameMap) -> Bool {
        guard !entries.isEmpty, entries.count == other.entries.count else { return false }
        return entries.withUnsafeBufferPointer { mine in
            other.entries.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }
}

extension NameMap: Sendable where Value: Sendable {}
extension NameMap.Entry: Sendable where Value: Sendable {}
extension NameMap.Iterator: Sendable where Value: Sendable {}

extension NameMap: Equatable where Value: Equatable {
    /// Maps are equal when the same names have equal values, in any order.
    public static func == (lhs: NameMap, rhs: NameMap) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.0] == $0.1 }
    }
}

extension NameMap: Hashable where Value: Hashable {
    /// Hashes the names and values, independently of their order.
    public func hash(into hasher: inout Hasher) {
        hashUnordered(lazy.map { ($0.key, $0.value) }, into: &hasher)
    }
}

extension NameMap: CustomStringConvertible {
    /// The names and values, in order, written as a dictionary's are.
    public var description: String {
        isEmpty ? "[:]" : "[" + map { "\"\($0.key)\": \(String(reflecting: $0.value))" }.joined(separator: ", ") + "]"
    }
}
