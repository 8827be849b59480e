import Foundation

/// One sort key of every object in a controller's results, by slot, stored by type so that a
/// million keys take a few megabytes: integers, booleans, doubles and dates as one 8-byte word
/// each, strings in one UTF-8 buffer with a start and a length each, nil as one bit. A column
/// whose values are of several types, or of another type (decimals, data, UUIDs, …), keeps them
/// as ``PredicateValue``s.
///
/// A value read back is equal to the value written (a date's reference-date interval and a
/// string's UTF-8 are kept exactly), so comparing read values orders them as the values did.
struct ResultKeyColumn {
    /// What the column holds.
    private enum Kind: Equatable {
        /// Nothing but nils so far.
        case none
        case integer, bool, double, date, string
        /// Values of any type, kept whole.
        case general
    }

    private var kind = Kind.none
    /// How many slots the column has.
    private(set) var count = 0
    /// The value bits of integers, booleans (0 or 1), doubles and dates.
    private var words: [UInt64] = []
    /// Where each string starts in ``bytes``, and its length.
    private var starts: [UInt32] = []
    private var lengths: [UInt32] = []
    /// Every string's UTF-8, one after the other.
    private var bytes: [UInt8] = []
    /// Bytes of strings since replaced: the buffer is compacted when they are most of it.
    private var unusedBytes = 0
    /// The values of a general column.
    private var values: [PredicateValue] = []
    /// One bit per slot, set for nil; empty while no slot is nil.
    private var nullBits: [UInt64] = []
    /// The room asked for, kept until the column knows its kind.
    private var reserved = 0

    /// Reserves room for `capacity` slots.
    mutating func reserveCapacity(_ capacity: Int) {
        reserved = capacity
        switch kind {
        case .none: break
        case .integer, .bool, .double, .date: words.reserveCapacity(capacity)
        case .string: starts.reserveCapacity(capacity); lengths.reserveCapacity(capacity)
        case .general: values.reserveCapacity(capacity)
        }
    }

    /// Adds a slot holding `value`.
    mutating func append(_ value: PredicateValue) {
        count += 1
        appendPlaceholder()
        if value != .null || kind == .general { set(value, at: count - 1) }
        else { setNull(count - 1, true) }
    }

    /// The value of `slot`.
    func value(at slot: Int) -> PredicateValue {
        if kind == .general { return values[slot] }
        if isNull(slot) { return .null }
        switch kind {
        case .none, .general: return .null
        case .integer: return .integer(Int64(bitPattern: words[slot]))
        case .bool: return .bool(words[slot] != 0)
        case .double: return .double(Double(bitPattern: words[slot]))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: words[slot])))
        case .string:
            let start = Int(starts[slot])
            return .string(String(decoding: bytes[start..<start + Int(lengths[slot])], as: UTF8.self))
        }
    }

    /// Replaces the value of `slot`.
    mutating func set(_ value: PredicateValue, at slot: Int) {
        if kind == .general {
            values[slot] = value
            return
        }
        if value == .null {
            releaseString(at: slot)
            setNull(slot, true)
            return
        }
        let valueKind = Self.kind(of: value)
        if kind == .none { become(valueKind) }
        if valueKind != kind {
            become(.general)
            values[slot] = value
            return
        }
        setNull(slot, false)
        switch value {
        case .integer(let number): words[slot] = UInt64(bitPattern: number)
        case .bool(let flag): words[slot] = flag ? 1 : 0
        case .double(let number): words[slot] = number.bitPattern
        case .date(let date): words[slot] = date.timeIntervalSinceReferenceDate.bitPattern
        case .string(var text):
            releaseString(at: slot)
            let length = text.utf8.count
            guard bytes.count + length <= Int(UInt32.max) else {
                become(.general)
                values[slot] = value
                return
            }
            starts[slot] = UInt32(bytes.count)
            lengths[slot] = UInt32(length)
            text.withUTF8 { bytes.append(contentsOf: $0) }
            compactIfWasteful()
        default: values[slot] = value
        }
    }

    /// The kind of column a non-nil value fits.
    private static func kind(of value: PredicateValue) -> Kind {
        switch value {
        case .integer: .integer
        case .bool: .bool
        case .double: .double
        case .date: .date
        case .string: .string
        default: .general
        }
    }

    /// Room for one more slot, in the column's kind.
    private mutating func appendPlaceholder() {
        switch kind {
        case .none: break
        case .integer, .bool, .double, .date: words.append(0)
        case .string: starts.append(0); lengths.append(0)
        case .general: values.append(.null)
        }
    }

    /// Turns the column into one of `newKind`: from nothing but nils, or into a general one.
    private mutating func become(_ newKind: Kind) {
        if kind == .none {
            kind = newKind
            switch newKind {
            case .none: break
            case .integer, .bool, .double, .date: words = Array(repeating: 0, count: count)
            case .string: starts = Array(repeating: 0, count: count); lengths = Array(repeating: 0, count: count)
            case .general: values = Array(repeating: .null, count: count)
            }
            reserveCapacity(reserved)
            return
        }
        guard newKind == .general, kind != .general else { return }
        var general: [PredicateValue] = []
        general.reserveCapacity(count)
        for slot in 0..<count { general.append(value(at: slot)) }
        self = ResultKeyColumn(kind: .general, count: count, values: general)
    }

    private init(kind: Kind, count: Int, values: [PredicateValue]) {
        self.kind = kind
        self.count = count
        self.values = values
    }

    init() {}

    private func isNull(_ slot: Int) -> Bool {
        let word = slot >> 6
        return word < nullBits.count && nullBits[word] & (1 << UInt64(slot & 63)) != 0
    }

    private mutating func setNull(_ slot: Int, _ null: Bool) {
        let word = slot >> 6
        if word >= nullBits.count {
            guard null else { return }
            nullBits.append(contentsOf: repeatElement(0, count: word - nullBits.count + 1))
        }
        if null { nullBits[word] |= 1 << UInt64(slot & 63) } else { nullBits[word] &= ~(1 << UInt64(slot & 63)) }
    }

    /// Counts the bytes of the string `slot` holds as unused.
    private mutating func releaseString(at slot: Int) {
        guard kind == .string, !isNull(slot) else { return }
        unusedBytes += Int(lengths[slot])
        lengths[slot] = 0
    }

    /// Copies the strings in use into a new buffer when more than half the buffer is unused.
    private mutating func compactIfWasteful() {
        guard unusedBytes > 4_096, unusedBytes * 2 > bytes.count else { return }
        var compacted: [UInt8] = []
        compacted.reserveCapacity(bytes.count - unusedBytes)
        for slot in 0..<count where !isNull(slot) {
            let start = Int(starts[slot])
            starts[slot] = UInt32(compacted.count)
            compacted.append(contentsOf: bytes[start..<start + Int(lengths[slot])])
        }
        bytes = compacted
        unusedBytes = 0
    }
}
