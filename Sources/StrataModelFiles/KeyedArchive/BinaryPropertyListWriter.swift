import Foundation

/// Writes a binary property list (format `bplist00`), the counterpart of ``BinaryPropertyList``:
/// what a keyed archive is stored as.
///
/// Equal strings, integers and UIDs are written once and shared; dictionaries are written with
/// their keys in order, so the same value always gives the same bytes.
package struct BinaryPropertyListWriter {
    /// The encoded objects, in object-table order.
    private var objects: [[UInt8]] = []
    /// Scalars already written, with their object numbers.
    private var written: [PlistValue: Int] = [:]

    /// The bytes of a binary property list whose top object is `value`.
    package static func data(_ value: PlistValue) -> Data {
        var writer = BinaryPropertyListWriter()
        let top = writer.add(value)
        return writer.finish(top: top)
    }

    /// Adds `value` (and what it holds), returning its object number.
    private mutating func add(_ value: PlistValue) -> Int {
        switch value {
        case .array(let items):
            let index = reserve()
            let references = items.map { add($0) }
            objects[index] = Self.marker(0xA, count: references.count) + references.flatMap(Self.reference)
            return index
        case .dictionary(let members):
            let index = reserve()
            let keys = members.keys.sorted()
            let keyReferences = keys.map { add(.string($0)) }
            let valueReferences = keys.map { add(members[$0] ?? .null) }
            objects[index] = Self.marker(0xD, count: keys.count) + (keyReferences + valueReferences).flatMap(Self.reference)
            return index
        default:
            // Reals and dates are not shared: -0.0 equals 0.0 but is another value.
            let shared: Bool = switch value { case .real, .date: false; default: true }
            if shared, let index = written[value] { return index }
            let index = reserve()
            objects[index] = Self.scalar(value)
            if shared { written[value] = index }
            return index
        }
    }

    private mutating func reserve() -> Int {
        objects.append([])
        return objects.count - 1
    }

    /// References are written as 4 bytes, which holds any archive Strata writes; fixed while
    /// the objects are encoded, before their number is known.
    private static let referenceSize = 4

    private static func reference(_ index: Int) -> [UInt8] {
        bigEndian(UInt64(index), size: referenceSize)
    }

    private static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// A marker byte with a count in its low nibble, or 0xF and the count as an integer after it.
    private static func marker(_ kind: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0x0F] + integer(Int64(count))
    }

    private static func integer(_ value: Int64) -> [UInt8] {
        switch value {
        case 0...0xFF: [0x10] + bigEndian(UInt64(value), size: 1)
        case 0...0xFFFF: [0x11] + bigEndian(UInt64(value), size: 2)
        case 0...0xFFFF_FFFF: [0x12] + bigEndian(UInt64(value), size: 4)
        default: [0x13] + bigEndian(UInt64(bitPattern: value), size: 8)
        }
    }

    private static func scalar(_ value: PlistValue) -> [UInt8] {
        switch value {
        case .null: return [0x00]
        case .bool(let flag): return [flag ? 0x09 : 0x08]
        case .integer(let number): return integer(number)
        case .real(let number): return [0x23] + bigEndian(number.bitPattern, size: 8)
        case .date(let time): return [0x33] + bigEndian(time.bitPattern, size: 8)
        case .data(let bytes): return marker(0x4, count: bytes.count) + Array(bytes)
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) { return marker(0x5, count: text.utf8.count) + Array(text.utf8) }
            let units = Array(text.utf16)
            return marker(0x6, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case .uid(let index):
            let size = index <= 0xFF ? 1 : index <= 0xFFFF ? 2 : 4
            return [0x80 | UInt8(size - 1)] + bigEndian(UInt64(index), size: size)
        case .array, .dictionary:
            preconditionFailure("containers are written by add(_:)")
        }
    }

    /// The header, the objects, the offset table and the trailer.
    private func finish(top: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableOffset = bytes.count
        let offsetSize = tableOffset <= 0xFF ? 1 : tableOffset <= 0xFFFF ? 2 : tableOffset <= 0xFFFF_FFFF ? 4 : 8
        for offset in offsets { bytes += Self.bigEndian(UInt64(offset), size: offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(Self.referenceSize)]
        bytes += Self.bigEndian(UInt64(objects.count), size: 8)
        bytes += Self.bigEndian(UInt64(top), size: 8)
        bytes += Self.bigEndian(UInt64(tableOffset), size: 8)
        return Data(bytes)
    }
}
