import Foundation
@_spi(StoreImplementation) import StrataCore

/// Reads the binary format's primitive values, checking every length against what is left, so
/// a damaged or hostile file gives an error naming the offset instead of a crash or a huge
/// allocation.
struct ByteReader {
    let bytes: [UInt8]
    let file: String
    /// Added to reported offsets (where these bytes start in the file).
    let base: Int
    private(set) var offset = 0

    init(_ bytes: [UInt8], file: String, base: Int = 0) {
        self.bytes = bytes
        self.file = file
        self.base = base
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset == bytes.count }

    func corrupt(_ reason: String, at position: Int? = nil) -> StoreError {
        .corruptStore(file: file, offset: base + (position ?? offset), reason: reason)
    }

    mutating func u8() throws -> UInt8 {
        guard remaining >= 1 else { throw corrupt("unexpected end of data") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func fixed<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw corrupt("unexpected end of data") }
        var value: T = 0
        for i in 0..<size { value |= T(bytes[offset + i]) << (8 * i) }
        offset += size
        return value
    }

    mutating func varint() throws -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try u8()
            if shift == 63, byte > 1 { throw corrupt("varint overflows 64 bits", at: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw corrupt("varint longer than 10 bytes", at: start) }
        }
    }

    mutating func signed() throws -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// A count of items, each at least `minimumItemSize` bytes: refused when the rest of the
    /// data could not hold that many.
    mutating func count(minimumItemSize: Int = 1) throws -> Int {
        let start = offset
        let raw = try varint()
        guard raw <= UInt64(remaining / max(1, minimumItemSize)) else {
            throw corrupt("count \(raw) exceeds the remaining \(remaining) bytes", at: start)
        }
        return Int(raw)
    }

    mutating func blob() throws -> [UInt8] {
        let length = try count()
        defer { offset += length }
        return Array(bytes[offset..<offset + length])
    }

    mutating func string() throws -> String {
        let start = offset
        let raw = try blob()
        guard let string = String(validating: raw, as: UTF8.self) else {
            throw corrupt("invalid UTF-8 in a string", at: start)
        }
        return string
    }
}
