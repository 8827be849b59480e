import Foundation
import Strata
@_spi(StoreImplementation) @testable import StrataBinary
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport

/// The binary store's part of the shared tests: the checksummed layout of
/// `docs/formats/binary.md`.
struct BinaryFormatDriver: AtomicFormatDriver {
    var storeType: StoreType { .binary }
    var format: any AtomicStoreFormat { BinaryStoreFormat() }

    func readMetadata(from url: URL) throws -> [String: PropertyListValue] {
        try BinaryStoreFormat.readMetadata(from: url)
    }

    func encode(_ image: StoreImage, model: ManagedObjectModel) throws -> [UInt8] {
        try BinaryStoreFormat().encode(image)
    }

    func decode(_ bytes: [UInt8], file: String, model: ManagedObjectModel) throws -> StoreImage {
        try BinaryStoreFormat().decode(bytes, file: file, model: model)
    }

    func fileProblem(at url: URL) throws -> String? { nil }

    var smallStoreLimit: Int { 2048 }

    func mayStillDecode(withoutTrailing rest: ArraySlice<UInt8>) -> Bool { false }

    var bitFlipStride: Int { 1 }
    var refusesEveryBitFlip: Bool { true }
    var refusesUnknownEntityAsModelMismatch: Bool { false }

    /// One byte of the compressed payload inverted.
    func damagingObjects(_ bytes: [UInt8]) throws -> [UInt8] {
        var damaged = bytes
        damaged[damaged.count - 3] ^= 0xFF
        return damaged
    }

    /// Files cut short, flipped, of an unknown version, and garbage with and without the magic.
    func hostileFiles(small: [UInt8]) -> [HostileFile] {
        var versioned = small
        versioned[8] = 9    // the format version, little-endian at offset 8
        versioned[9] = 0
        let checksum = Deflate.crc32(versioned[0..<40])
        for index in 0..<4 { versioned[40 + index] = UInt8(truncatingIfNeeded: checksum >> (8 * index)) }
        var flipped = small
        flipped[small.count / 2] ^= 0x10
        var generator = SplitMix64(seed: 7)
        let files: [(String, [UInt8])] = [
            ("empty", []),
            ("truncated", Array(small.prefix(small.count - 1))),
            ("header only", Array(small.prefix(BinaryStoreFormat.headerSize))),
            ("flipped", flipped),
            ("version 9", versioned),
            ("garbage", (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }),
            ("magic and garbage", StoreType.binaryMagic + (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }),
        ]
        return files.map { HostileFile(name: $0.0, bytes: $0.1, damagesMetadata: true) }
    }
}
