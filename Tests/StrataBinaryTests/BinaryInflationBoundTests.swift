import Foundation
import Strata
@testable @_spi(StoreImplementation) import StrataBinary
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// A small file cannot make a reader allocate much: the declared inflated size is bounded by a
/// ratio to the stored bytes (past a floor) before anything is inflated, and inflating grows its
/// buffer with what the data really inflates to, never past the declared size.
@Suite("Binary store: inflation bounds")
struct BinaryInflationBoundTests {
    /// A payload of `count` pseudo-random bytes (which deflate cannot shrink).
    private static func noise(_ count: Int) -> [UInt8] {
        var generator = SplitMix64(seed: 7)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    private func corruptReason(_ bytes: [UInt8], offset expected: Int? = nil) throws -> String {
        let model = try ManagedObjectModel { EntityDescription("Item") { Attribute("title", .string) } }
        do {
            _ = try BinaryStoreFormat().decode(bytes, file: "bomb.binary", model: model)
        } catch let StoreError.corruptStore(file, offset, reason) {
            #expect(file == "bomb.binary")
            if let expected { #expect(offset == expected, "\(reason)") }
            return reason
        }
        Issue.record("decoded")
        return ""
    }

    @Test("a 1 MB file declaring a 1 GiB payload is refused at the header, before inflating")
    func megabyteDeclaringGigabyte() throws {
        let bytes = try BinaryFile.assemble(metadata: BinaryFile.metadataSection(), payload: Self.noise(1 << 20),
                                            uncompressedLength: 1 << 30)
        #expect(bytes.count > 1 << 20)
        // Deflate alone (about 1032:1) would allow 1 GiB for this file; the ratio bound does not.
        #expect(bytes.count * 1032 > 1 << 30)
        let reason = try corruptReason(bytes, offset: 28)
        #expect(reason.contains("declared inflated size 1073741824 bytes is more than 100 times"), "\(reason)")
        #expect(reason.contains("refused before inflating"), "\(reason)")
    }

    @Test("the bound: 100 times the stored bytes, and at least 64 MiB")
    func bound() {
        #expect(Deflate.maximumInflatedSize(of: 1000) == 64 << 20)
        #expect(Deflate.maximumInflatedSize(of: 1 << 20) == 100 << 20)
        #expect(Deflate.maximumInflatedSize(of: .max) == .max)
    }

    @Test("a declared size the data does not reach is refused after inflating only what the data holds")
    func declaredSizeNotReached() throws {
        let payload = Array(repeating: UInt8(0), count: 4096)
        let compressed = try Deflate.compress(payload)
        // 60 MiB declared, within the bound for any stored size; the data inflates to 4 KiB.
        let declared = 60 << 20
        #expect {
            try Deflate.decompress(compressed[...], expectedCount: declared, file: "f", offset: 44)
        } throws: { error in
            guard case StoreError.corruptStore(_, _, let reason) = error else { return false }
            return reason == "compressed payload inflates to 4096 bytes, not the declared \(declared)"
        }
    }

    @Test("data inflating to more than the declared size is refused when it passes it")
    func declaredSizePassed() throws {
        let compressed = try Deflate.compress(Array(repeating: UInt8(1), count: 1 << 20))
        #expect {
            try Deflate.decompress(compressed[...], expectedCount: 1000, file: "f", offset: 44)
        } throws: { error in
            guard case StoreError.corruptStore(_, _, let reason) = error else { return false }
            return reason == "compressed payload inflates to more than the declared 1000 bytes"
        }
        let exact = try Deflate.decompress(compressed[...], expectedCount: 1 << 20, file: "f", offset: 44)
        #expect(exact == Array(repeating: UInt8(1), count: 1 << 20))
    }

    @Test("a payload that compresses past the bound is written uncompressed, and reads back")
    func writerKeepsTheBound() throws {
        let model = try ManagedObjectModel { EntityDescription("Item") { Attribute("blob", .binaryData) } }
        let id = ManagedObjectID(entityName: "Item", storeIdentifier: "S", primaryKey: 1)
        var image = StoreImage(identifier: "S", nextPrimaryKeys: ["Item": 2])
        // 65 MiB of zeros deflate about 1000:1, beyond 100:1 and past the 64 MiB floor.
        image.objects[id] = ObjectSnapshot(objectID: id, attributes: ["blob": .binary(Data(count: 65 << 20))])
        let bytes = try BinaryStoreFormat().encode(image)
        #expect(BinaryFile.field(bytes, at: 10, as: UInt16.self) & 1 == 0, "stored uncompressed")
        let back = try BinaryStoreFormat().decode(bytes, file: "w", model: model)
        #expect(back.objects[id]?.attributes["blob"] == .binary(Data(count: 65 << 20)))
    }
}
