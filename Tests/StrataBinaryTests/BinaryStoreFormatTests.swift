import Foundation
import Strata
@testable @_spi(StoreImplementation) import StrataBinary
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
import Testing

/// The binary format follows its documented layout: header fields, checksums, optional flags.
/// What every atomic format does alike is in `AtomicFormatTests`.
@Suite("Binary store format")
struct BinaryStoreFormatTests {
    let model: ManagedObjectModel
    let image: StoreImage

    init() throws {
        model = try StoreImageFixtures.everyTypeModel()
        image = StoreImageFixtures.everyValueImage(model: model, type: .binary)
    }

    @Test("the file follows docs/formats/binary.md: header fields, lengths and checksums")
    func layout() throws {
        let bytes = try BinaryStoreFormat().encode(image)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x53, 0x54, 0x52, 0x42, 0x0D, 0x0A, 0x1A])
        #expect(BinaryFile.field(bytes, at: 8, as: UInt16.self) == 1)
        #expect(BinaryFile.field(bytes, at: 10, as: UInt16.self) & 1 == 1)
        let metadataLength = Int(BinaryFile.field(bytes, at: 12, as: UInt32.self))
        let storedLength = Int(BinaryFile.field(bytes, at: 20, as: UInt64.self))
        #expect(bytes.count == 44 + metadataLength + storedLength)
        let (metadata, stored) = BinaryFile.sections(bytes)
        #expect(BinaryFile.field(bytes, at: 16, as: UInt32.self) == Deflate.crc32(metadata))
        #expect(BinaryFile.field(bytes, at: 36, as: UInt32.self) == Deflate.crc32(stored))
        #expect(BinaryFile.field(bytes, at: 40, as: UInt32.self) == Deflate.crc32(bytes[0..<40]))
        // The metadata section starts with the store UUID as a length-prefixed string.
        let uuid = Array(StoreImageFixtures.storeIdentifier.utf8)
        #expect(Array(metadata.prefix(1 + uuid.count)) == [UInt8(uuid.count)] + uuid)
        // The payload inflates to the declared length.
        let inflated = try Deflate.decompress(stored[...], expectedCount: Int(BinaryFile.field(bytes, at: 28, as: UInt64.self)),
                                              file: "x", offset: 0)
        // Rebuilding the file from its sections with the documented header gives the same bytes.
        #expect(try BinaryFile.assemble(metadata: metadata, payload: inflated) == bytes)
    }

    @Test("a file with an uncompressed payload (flag bit 0 clear) reads the same")
    func uncompressedPayload() throws {
        let bytes = try BinaryStoreFormat().encode(image)
        let (metadata, stored) = BinaryFile.sections(bytes)
        let inflated = try Deflate.decompress(stored[...], expectedCount: Int(BinaryFile.field(bytes, at: 28, as: UInt64.self)),
                                              file: "x", offset: 0)
        let plain = try BinaryFile.assemble(metadata: metadata, payload: inflated, compressed: false)
        let decoded = try BinaryStoreFormat().decode(plain, file: "/memory/plain.binary", model: model)
        #expect(Identical.differences(image, decoded).isEmpty)
    }

    @Test("unknown optional flags (bits 8–15) are ignored", arguments: [UInt16(0x0100), 0x8000, 0xFF00])
    func optionalFlags(flag: UInt16) throws {
        var bytes = try BinaryStoreFormat().encode(image)
        BinaryFile.setField(&bytes, at: 10, to: BinaryFile.field(bytes, at: 10, as: UInt16.self) | flag)
        BinaryFile.fixHeaderChecksum(&bytes)
        let decoded = try BinaryStoreFormat().decode(bytes, file: "/memory/store.binary", model: model)
        #expect(Identical.differences(image, decoded).isEmpty)
    }
}
