import Foundation

/// Appends the binary format's primitive values to a byte buffer.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func fixed<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// An unsigned LEB128 varint.
    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A signed integer, zigzag-encoded then written as a varint.
    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func count(_ value: Int) { varint(UInt64(value)) }

    /// Length-prefixed bytes.
    mutating func blob<C: Collection>(_ data: C) where C.Element == UInt8 {
        count(data.count)
        bytes.append(contentsOf: data)
    }

    /// Length-prefixed UTF-8, scalars exactly as given.
    mutating func string(_ value: String) { blob(Array(value.utf8)) }

    mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }
}
