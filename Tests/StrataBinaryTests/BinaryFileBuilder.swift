import Foundation
import Strata
@testable import StrataBinary
import StrataTestSupport

/// Builds binary store files byte by byte from the layout of `docs/formats/binary.md`, so the
/// tests can make files the writer never would.
enum BinaryFile {
    static let headerSize = 44

    /// A whole file: header (with correct checksums unless told otherwise), metadata, payload.
    static func assemble(
        metadata: [UInt8], payload: [UInt8], compressed: Bool = true,
        version: UInt16 = 1, flags: UInt16? = nil, uncompressedLength: UInt64? = nil
    ) throws -> [UInt8] {
        let stored = compressed ? try Deflate.compress(payload) : payload
        var header = ByteWriter()
        header.append(StoreType.binaryMagic)
        header.fixed(version)
        header.fixed(flags ?? (compressed ? 1 : 0))
        header.fixed(UInt32(metadata.count))
        header.fixed(Deflate.crc32(metadata))
        header.fixed(UInt64(stored.count))
        header.fixed(uncompressedLength ?? UInt64(payload.count))
        header.fixed(Deflate.crc32(stored))
        header.fixed(Deflate.crc32(header.bytes))
        return header.bytes + metadata + stored
    }

    /// The metadata section: the store UUID and the metadata dictionary.
    static func metadataSection(identifier: String = "STORE-UUID", _ metadata: [String: PropertyListValue] = [:]) -> [UInt8] {
        var writer = ByteWriter()
        writer.string(identifier)
        writer.plist(.dictionary(metadata))
        return writer.bytes
    }

    /// Reads a little-endian field of the header.
    static func field<T: FixedWidthInteger>(_ bytes: [UInt8], at offset: Int, as type: T.Type) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size { value |= T(bytes[offset + index]) << (8 * index) }
        return value
    }

    /// Overwrites a little-endian field of the header.
    static func setField<T: FixedWidthInteger>(_ bytes: inout [UInt8], at offset: Int, to value: T) {
        for index in 0..<MemoryLayout<T>.size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// Recomputes the header checksum (bytes 40..<44) over bytes 0..<40.
    static func fixHeaderChecksum(_ bytes: inout [UInt8]) {
        setField(&bytes, at: 40, to: Deflate.crc32(bytes[0..<40]))
    }

    /// The metadata section and the stored payload of a file, split by the header's lengths.
    static func sections(_ bytes: [UInt8]) -> (metadata: [UInt8], payload: [UInt8]) {
        let metadataLength = Int(field(bytes, at: 12, as: UInt32.self))
        return (Array(bytes[headerSize..<headerSize + metadataLength]), Array(bytes[(headerSize + metadataLength)...]))
    }
}

/// An object payload written by hand: string table, roots, objects.
struct PayloadBuilder {
    private(set) var strings: [String] = []
    var body = ByteWriter()

    /// The index of `string` in the string table (added when new).
    mutating func index(_ string: String) -> Int {
        if let existing = strings.firstIndex(of: string) { return existing }
        strings.append(string)
        return strings.count - 1
    }

    /// Writes the index of `string`.
    mutating func name(_ string: String) { body.count(index(string)) }

    mutating func varint(_ value: UInt64) { body.varint(value) }

    /// The payload as stored before compression.
    var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.count(strings.count)
        for string in strings { writer.string(string) }
        writer.append(body.bytes)
        return writer.bytes
    }
}
