/// Makes a mutated binary store's lengths and checksums agree with its bytes again, so that the
/// fuzzer reaches the metadata and payload decoders and the inflater instead of stopping at a
/// checksum (docs/formats/binary.md: a 44-byte header, the metadata section, the payload).
public enum BinaryStoreRepair {
    /// The header's size.
    static let headerSize = 44

    /// `bytes` with the payload length, both section checksums and the header checksum set
    /// from the bytes; nil when `bytes` is shorter than a header or its metadata length runs
    /// past the end (the unrepaired input reaches those checks).
    public static func repaired(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= headerSize else { return nil }
        var bytes = bytes
        let metadataLength = Int(readUInt32(bytes, at: 12))
        let available = bytes.count - headerSize
        guard metadataLength <= available else { return nil }
        let payloadStart = headerSize + metadataLength
        write(UInt64(available - metadataLength), to: &bytes, at: 20, count: 8)
        write(UInt64(crc32(bytes[headerSize..<payloadStart])), to: &bytes, at: 16, count: 4)
        write(UInt64(crc32(bytes[payloadStart...])), to: &bytes, at: 36, count: 4)
        write(UInt64(crc32(bytes[0..<40])), to: &bytes, at: 40, count: 4)
        return bytes
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    private static func write(_ value: UInt64, to bytes: inout [UInt8], at offset: Int, count: Int) {
        for index in 0..<count { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// zlib's CRC-32.
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}
