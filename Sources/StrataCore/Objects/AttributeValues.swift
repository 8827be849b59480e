/// The attribute values of one object, read and written by name like a dictionary and kept by
/// position in an ``AttributeLayout``.
///
/// A nil value is an absent one, as in a dictionary: ``count``, ``keys``, iteration and equality
/// see the values that are set. Values made for an entity (`init(layout:)` with the entity's
/// `EntityDescription/attributeLayout`) share its layout, and a value is found by position;
/// setting a name the layout does not have extends the layout for these values alone.
public struct AttributeValues: Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The value at each position of the layout, and the layout (visible to inlined code: stores
    /// read and write a row's values by position from their own modules); nil for no values.
    ///
    /// No values hold no storage rather than a shared empty one: every fault and every new object
    /// starts with none, and a shared storage's count would be raised and lowered (two atomic
    /// operations) for each.
    @usableFromInline var storage: AttributeSlots?

    /// The storage, or for no values the shared empty one, which is never written. The reads
    /// by position below use ``storage`` itself: read through this, a value's storage is
    /// retained and released.
    @inlinable var slots: AttributeSlots { storage ?? AttributeSlots.empty }

    /// The names the values are kept by, in order.
    @_spi(StoreImplementation) public var layout: AttributeLayout { slots.layout }

    /// Whether the values are kept in `other`: compared by reference, without retaining either.
    @inlinable
    @_spi(StoreImplementation) public func isLaidOut(as other: AttributeLayout) -> Bool {
        guard let storage else { return other === AttributeLayout.empty }
        return storage.isLaidOut(as: other)
    }

    /// No values.
    public init() {
        storage = nil
    }

    /// No values yet, kept in `layout`.
    @_spi(StoreImplementation) public init(layout: AttributeLayout) {
        storage = AttributeSlots.make(layout: layout) { _ in nil }
    }

    /// Values kept in `layout`, the value at each position made by `value`, in position order:
    /// what a store that decodes a row by position makes, each value put in place as it is
    /// decoded. When `value` throws, so does this.
    @inlinable @inline(__always)
    @_spi(StoreImplementation) public init(layout: AttributeLayout, values value: (_ position: Int) throws -> AttributeValue?) rethrows {
        self.init(storage: try AttributeSlots.make(layout: layout, value))
    }

    /// Values held in `storage`, which has a position for each name of its layout.
    @usableFromInline
    init(storage: AttributeSlots) {
        self.storage = storage
    }

    /// Values kept in `layout`, the value at each position taken from `slots` in order.
    /// Positions `slots` does not reach have no value; slots past the layout's end are dropped.
    @_spi(StoreImplementation) public init(layout: AttributeLayout, slots: ContiguousArray<AttributeValue?>) {
        self.init(layout: layout) { $0 < slots.count ? slots[$0] : nil }
    }

    /// Makes ``storage`` this value's own before a write: a storage of its own, copied from the
    /// shared one (or the empty one) when it is not.
    @inlinable @inline(__always)
    mutating func makeSlotsUnique() {
        if storage == nil || !isKnownUniquelyReferenced(&storage!) { storage = slots.copy() }
    }

    /// Sets the value at `position`, which must be a position of ``layout``, in a storage of this
    /// value's own.
    @inlinable @inline(__always)
    mutating func setSlot(_ value: AttributeValue?, at position: Int) {
        makeSlotsUnique()
        // Written through the optional in place (it holds a storage now): bound to a constant
        // first, the storage was retained and released for every value set.
        storage![position] = value
    }

    /// The values of a dictionary, kept in the order of their names.
    public init(_ dictionary: [String: AttributeValue]) {
        self.init(layout: AttributeLayout(names: dictionary.keys.sorted()))
        for (name, value) in dictionary { self[name] = value }
    }

    /// The values of a literal; a repeated name keeps its last value.
    public init(dictionaryLiteral elements: (String, AttributeValue)...) {
        self.init(layout: AttributeLayout(names: elements.map(\.0)))
        for (name, value) in elements { self[name] = value }
    }

    // MARK: By name

    /// The value of `name`; nil when it has none. Setting nil removes the value.
    public subscript(name: String) -> AttributeValue? {
        get { layout.position(of: name).flatMap { self[position: $0] } }
        set {
            if let position = layout.position(of: name) {
                setSlot(newValue, at: position)
            } else if let newValue {
                let extended = layout.appending(name)
                storage = slots.copy(layout: extended)
                if let position = extended.position(of: name) { setSlot(newValue, at: position) }
            }
        }
    }

    /// Sets the value of `name`; returns the value it replaced.
    @discardableResult
    public mutating func updateValue(_ value: AttributeValue, forKey name: String) -> AttributeValue? {
        let previous = self[name]
        self[name] = value
        return previous
    }

    /// Removes the value of `name`; returns it.
    @discardableResult
    public mutating func removeValue(forKey name: String) -> AttributeValue? {
        let previous = self[name]
        if previous != nil { self[name] = nil }
        return previous
    }

    // MARK: By position

    /// The value at `position` of ``layout``: what a store that reads or writes values in the
    /// entity's ``EntityDescription/attributeLayout`` uses instead of names (check that
    /// ``layout`` is that layout first: `===`). `position` must be a position of ``layout``.
    @inlinable
    @_spi(StoreImplementation) public subscript(position position: Int) -> AttributeValue? {
        get {
            guard let storage else { return nil }
            return storage[position]
        }
        set {
            setSlot(newValue, at: position)
        }
    }

    /// The value at `position` of `layout` (an entity's ``EntityDescription/attributeLayout``):
    /// found by position when these values are kept in `layout`, by its name otherwise.
    @inlinable @inline(__always)
    @_spi(StoreImplementation) public func value(at position: Int, of layout: AttributeLayout) -> AttributeValue? {
        isLaidOut(as: layout) ? self[position: position] : self[layout.names[position]]
    }

    /// Whether these values and `other` are kept in one storage (both hold none, or the same
    /// one): the same values, found without comparing any.
    func sharesStorage(with other: AttributeValues) -> Bool {
        storage === other.storage
    }

    /// The positions of `layout` whose values here and in `other` differ: compared where they are
    /// kept when both are kept in `layout`, found by name otherwise.
    func positionsDiffering(from other: AttributeValues, in layout: AttributeLayout) -> [Int] {
        guard isLaidOut(as: layout), other.isLaidOut(as: layout) else {
            return layout.names.indices.filter { value(at: $0, of: layout) != other.value(at: $0, of: layout) }
        }
        return slots.positionsDiffering(from: other.slots)
    }

    /// Sets the value at `position` of `layout`, as ``value(at:of:)`` finds it; returns the
    /// value it replaced.
    @discardableResult
    @_spi(StoreImplementation) public mutating func replaceValue(at position: Int, of layout: AttributeLayout, with value: AttributeValue?) -> AttributeValue? {
        if isLaidOut(as: layout) {
            defer { setSlot(value, at: position) }
            return self[position: position]
        }
        let name = layout.names[position]
        defer { self[name] = value }
        return self[name]
    }

    /// Sets the value at `position` of `layout`, as ``value(at:of:)`` finds it, without reading
    /// the value it replaces.
    mutating func setValue(_ value: AttributeValue?, at position: Int, of layout: AttributeLayout) {
        if isLaidOut(as: layout) {
            setSlot(value, at: position)
        } else {
            self[layout.names[position]] = value
        }
    }

    /// These values kept in `other` (the same values when they already are).
    func laidOut(as other: AttributeLayout) -> AttributeValues {
        guard !isLaidOut(as: other) else { return self }
        var result = AttributeValues(layout: other)
        for (name, value) in self { result[name] = value }
        return result
    }

    // MARK: Like a dictionary

    /// How many values are set.
    public var count: Int { (0..<slots.count).reduce(0) { $0 + (slots[$1] == nil ? 0 : 1) } }

    /// Whether no value is set.
    public var isEmpty: Bool { !(0..<slots.count).contains { slots[$0] != nil } }

    /// The names that have a value, in layout order.
    public var keys: [String] { map(\.key) }

    /// The values that are set, in layout order.
    public var values: [AttributeValue] { (0..<slots.count).compactMap { slots[$0] } }

    /// The values as a dictionary.
    public var dictionary: [String: AttributeValue] {
        Dictionary(uniqueKeysWithValues: map { ($0.key, $0.value) })
    }

    /// Each name that has a value, with the value, in layout order.
    public struct Iterator: IteratorProtocol {
        fileprivate let layout: AttributeLayout
        fileprivate let slots: AttributeSlots
        fileprivate var position = 0

        /// The next name and value.
        public mutating func next() -> (key: String, value: AttributeValue)? {
            while position < slots.count {
                defer { position += 1 }
                if let value = slots[position] { return (layout.names[position], value) }
            }
            return nil
        }
    }

    /// Iterates the names that have a value, with the value.
    public func makeIterator() -> Iterator { Iterator(layout: layout, slots: slots) }

    // MARK: Equality

    /// Values are equal when the same names have equal values, whatever their layouts.
    public static func == (lhs: AttributeValues, rhs: AttributeValues) -> Bool {
        if lhs.isLaidOut(as: rhs.layout) {
            return lhs.slots === rhs.slots
                || (lhs.slots.count == rhs.slots.count && (0..<lhs.slots.count).allSatisfy { lhs.slots[$0] == rhs.slots[$0] })
        }
        guard lhs.count == rhs.count else { return false }
        return lhs.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Hashes the names and values, independently of their order.
    public func hash(into hasher: inout Hasher) {
        hashUnordered(lazy.map { ($0.key, $0.value) }, into: &hasher)
    }

    /// The values as a dictionary literal.
    public var description: String {
        isEmpty ? "[:]" : "[" + map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "]"
    }
}

// Its storage is written only through a unique reference (copied on write), as an array's is.
extension AttributeValues: @unchecked Sendable {}
