import Foundation

/// A value of a binary property list (`bplist00`), as keyed archives are made of.
///
/// Strata reads these itself rather than through `PropertyListSerialization`, whose keyed-archive
/// UIDs are a private class on Linux: the reader checks every offset, count and reference and
/// never recurses deeper than ``BinaryPropertyList/maximumDepth``.
package enum PlistValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case date(Double)
    case data(Data)
    case string(String)
    /// A keyed archive's reference into its `$objects` (`CF$UID`).
    case uid(Int)
    case array([PlistValue])
    case dictionary([String: PlistValue])

    /// The text of a string value.
    package var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The members of a dictionary value.
    package var dictionary: [String: PlistValue]? {
        if case .dictionary(let d) = self { return d }
        return nil
    }

    /// The elements of an array value.
    package var array: [PlistValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}

/// Why a binary property list could not be read.
package struct PlistError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, and where.
    package let description: String
    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}

/// Reads a binary property list (format `bplist00`).
package struct BinaryPropertyList {
    /// How deep containers may nest.
    package static let maximumDepth = 64

    private let bytes: [UInt8]
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let offsetTable: Int

    /// The top object of `data`.
    package static func parse(_ data: Data) throws(PlistError) -> PlistValue {
        let list = try BinaryPropertyList(bytes: Array(data))
        return try list.topObject
    }

    private let top: Int

    private init(bytes: [UInt8]) throws(PlistError) {
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist00".utf8)) else {
            throw PlistError("not a binary property list")
        }
        self.bytes = bytes
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let count = Self.bigEndian(bytes[(trailer + 8)..<(trailer + 16)])
        let top = Self.bigEndian(bytes[(trailer + 16)..<(trailer + 24)])
        let table = Self.bigEndian(bytes[(trailer + 24)..<(trailer + 32)])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw PlistError("bad offset or reference size in the trailer")
        }
        guard count > 0, count <= UInt64(trailer), top < count, table >= 8, table <= UInt64(trailer),
              count <= (UInt64(trailer) - table) / UInt64(offsetSize) else {
            throw PlistError("the trailer's object count, top object or offset table is out of range")
        }
        objectCount = Int(count)
        self.top = Int(top)
        offsetTable = Int(table)
    }

    private var topObject: PlistValue {
        get throws(PlistError) {
            // Containers may share objects, so a small file could describe a huge tree: no more
            // values are made than the file has bytes.
            var budget = bytes.count
            return try object(top, depth: 0, budget: &budget)
        }
    }

    private static func bigEndian(_ slice: ArraySlice<UInt8>) -> UInt64 {
        slice.reduce(0) { ($0 << 8) | UInt64($1) }
    }

    private func offset(of index: Int) throws(PlistError) -> Int {
        let start = offsetTable + index * offsetSize
        let value = Self.bigEndian(bytes[start..<(start + offsetSize)])
        guard value >= 8, value < UInt64(offsetTable) else { throw PlistError("object \(index) lies outside the object area") }
        return Int(value)
    }

    /// `count` bytes from `start`, checked against the object area.
    private func slice(_ start: Int, _ count: Int) throws(PlistError) -> ArraySlice<UInt8> {
        guard count >= 0, start >= 8, start <= offsetTable, count <= offsetTable - start else {
            throw PlistError("a value at offset \(start) runs past the object area")
        }
        return bytes[start..<(start + count)]
    }

    /// The length in a marker's low nibble, or the integer that follows when it is 0xF; and
    /// where the content starts.
    private func length(marker: UInt8, at position: Int) throws(PlistError) -> (count: Int, start: Int) {
        let nibble = Int(marker & 0x0F)
        guard nibble == 0x0F else { return (nibble, position + 1) }
        let intMarker = try slice(position + 1, 1).first ?? 0
        guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else { throw PlistError("bad length at offset \(position)") }
        let size = 1 << Int(intMarker & 0x0F)
        let value = Self.bigEndian(try slice(position + 2, size))
        guard value <= UInt64(offsetTable) else { throw PlistError("length at offset \(position) is too large") }
        return (Int(value), position + 2 + size)
    }

    private func references(_ start: Int, _ count: Int) throws(PlistError) -> [Int] {
        guard count <= objectCount else { throw PlistError("a container at offset \(start) holds more references than objects") }
        let raw = try slice(start, count * referenceSize)
        var result: [Int] = []
        result.reserveCapacity(count)
        var position = raw.startIndex
        for _ in 0..<count {
            let value = Self.bigEndian(raw[position..<(position + referenceSize)])
            guard value < UInt64(objectCount) else { throw PlistError("a reference at offset \(position) points past the last object") }
            result.append(Int(value))
            position += referenceSize
        }
        return result
    }

    private func object(_ index: Int, depth: Int, budget: inout Int) throws(PlistError) -> PlistValue {
        guard depth <= Self.maximumDepth else { throw PlistError("containers nested deeper than \(Self.maximumDepth) levels") }
        budget -= 1
        guard budget >= 0 else { throw PlistError("the property list describes more values than it has bytes") }
        let position = try offset(of: index)
        let marker = bytes[position]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw PlistError("unknown marker 0x\(String(marker, radix: 16)) at offset \(position)")
            }
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            guard size <= 16 else { throw PlistError("bad integer size at offset \(position)") }
            let raw = try slice(position + 1, size)
            // 16-byte integers are written for values above Int64.max; keep the low 8 bytes.
            let value = Self.bigEndian(raw.suffix(8))
            return .integer(size >= 8 ? Int64(bitPattern: value) : Int64(value))
        case 0x2:
            let raw = try slice(position + 1, 1 << Int(marker & 0x0F))
            switch raw.count {
            case 4: return .real(Double(Float(bitPattern: UInt32(Self.bigEndian(raw)))))
            case 8: return .real(Double(bitPattern: Self.bigEndian(raw)))
            default: throw PlistError("bad real size at offset \(position)")
            }
        case 0x3:
            guard marker == 0x33 else { throw PlistError("bad date marker at offset \(position)") }
            return .date(Double(bitPattern: Self.bigEndian(try slice(position + 1, 8))))
        case 0x4:
            let (count, start) = try length(marker: marker, at: position)
            return .data(Data(try slice(start, count)))
        case 0x5:
            let (count, start) = try length(marker: marker, at: position)
            let raw = try slice(start, count)
            guard raw.allSatisfy({ $0 < 0x80 }) else { throw PlistError("an ASCII string at offset \(position) holds a byte above 0x7F") }
            return .string(String(decoding: raw, as: UTF8.self))
        case 0x6:
            let (count, start) = try length(marker: marker, at: position)
            guard count <= Int.max / 2 else { throw PlistError("a string at offset \(position) is too long") }
            let raw = try slice(start, count * 2)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            var i = raw.startIndex
            while i < raw.endIndex {
                units.append(UInt16(raw[i]) << 8 | UInt16(raw[i + 1]))
                i += 2
            }
            guard let string = String(validating: units, as: UTF16.self) else {
                throw PlistError("a UTF-16 string at offset \(position) is not valid UTF-16")
            }
            return .string(string)
        case 0x7:
            let (count, start) = try length(marker: marker, at: position)
            guard let string = String(validating: try slice(start, count), as: UTF8.self) else {
                throw PlistError("a UTF-8 string at offset \(position) is not valid UTF-8")
            }
            return .string(string)
        case 0x8:
            let raw = try slice(position + 1, Int(marker & 0x0F) + 1)
            guard raw.count <= 4 else { throw PlistError("a UID at offset \(position) is too large") }
            return .uid(Int(Self.bigEndian(raw)))
        case 0xA, 0xB, 0xC:
            let (count, start) = try length(marker: marker, at: position)
            var items: [PlistValue] = []
            for reference in try references(start, count) {
                items.append(try object(reference, depth: depth + 1, budget: &budget))
            }
            return .array(items)
        case 0xD:
            let (count, start) = try length(marker: marker, at: position)
            let keys = try references(start, count)
            let values = try references(start + count * referenceSize, count)
            var dictionary: [String: PlistValue] = [:]
            for (key, value) in zip(keys, values) {
                guard case .string(let name) = try object(key, depth: depth + 1, budget: &budget) else {
                    throw PlistError("a dictionary at offset \(position) has a key that is not a string")
                }
                dictionary[name] = try object(value, depth: depth + 1, budget: &budget)
            }
            return .dictionary(dictionary)
        default:
            throw PlistError("unknown marker 0x\(String(marker, radix: 16)) at offset \(position)")
        }
    }
}
