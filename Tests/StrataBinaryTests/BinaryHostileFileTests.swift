import Foundation
import Strata
@testable @_spi(StoreImplementation) import StrataBinary
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
import Testing

// A guard against a hang, longer than a whole sanitizer run (docs/testing.md says why).
/// The binary store refuses damaged headers, sections and hand-written payloads with a
/// `corruptStore` error at the right offset. What every atomic format refuses alike (truncation,
/// bit flips, hostile files through the coordinator) is in `AtomicFormatTests`.
@Suite("Binary store: hostile files", .timeLimit(.minutes(30)))
struct BinaryHostileFileTests {
    static let path = "/hostile/pets.binary"
    let model: ManagedObjectModel
    let small: [UInt8]

    init() throws {
        model = try PetsModel.make()
        var image = PetsModel.image()
        image.stampMetadata(type: .binary, model: model)
        small = try BinaryStoreFormat().encode(image)
    }

    private func decode(_ bytes: [UInt8], model: ManagedObjectModel? = nil, file: String = Self.path) -> ReadOutcome {
        ReadOutcome { try BinaryStoreFormat().decode(bytes, file: file, model: model ?? self.model) }
    }

    /// Expects a `corruptStore` error naming the file (and `offset`, when given); returns it.
    @discardableResult
    private func expectCorrupt(
        _ bytes: [UInt8], model: ManagedObjectModel? = nil, offset expected: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (offset: Int?, reason: String)? {
        switch decode(bytes, model: model) {
        case .decoded:
            Issue.record("\(bytes.count) hostile bytes decoded without an error", sourceLocation: sourceLocation)
        case .modelMismatch(_, let entities):
            Issue.record("expected StoreError.corruptStore, got incompatibleModel \(entities)", sourceLocation: sourceLocation)
        case .otherError(let error):
            Issue.record("expected StoreError.corruptStore, got \(error)", sourceLocation: sourceLocation)
        case let .corrupt(file, offset, _, reason):
            #expect(file == Self.path, sourceLocation: sourceLocation)
            #expect(!reason.isEmpty, sourceLocation: sourceLocation)
            if let expected { #expect(offset == expected, "\(reason)", sourceLocation: sourceLocation) }
            return (offset, reason)
        }
        return nil
    }

    /// Collects what is wrong with one outcome of a loop over many files (nil: as it should be).
    private func problem(_ outcome: ReadOutcome, fileSize: Int) -> String? {
        outcome.refusalProblem(file: Self.path, fileSize: fileSize, allowsModelMismatch: false)
    }

    @Test("wrong magic, at offset 0")
    func wrongMagic() {
        var bytes = small
        bytes[1] = UInt8(ascii: "X")
        expectCorrupt(bytes, offset: 0)
        expectCorrupt(Array("SQLite format 3\u{0}".utf8) + [UInt8](repeating: 0, count: 100), offset: 0)
        expectCorrupt(Array("<?xml version=\"1.0\"?><database/>".utf8), offset: 0)
        expectCorrupt(Array("hello".utf8), offset: 0)
        expectCorrupt(Array(small.dropFirst()), offset: 0)
    }

    @Test("a damaged header checksum, at offset 40")
    func headerChecksum() {
        var bytes = small
        BinaryFile.setField(&bytes, at: 8, to: UInt16(2))     // checksum not recomputed
        expectCorrupt(bytes, offset: 40)
    }

    @Test("an unknown format version is refused at offset 8", arguments: [UInt16(0), 2, 0xFFFF])
    func unknownVersion(version: UInt16) {
        var bytes = small
        BinaryFile.setField(&bytes, at: 8, to: version)
        BinaryFile.fixHeaderChecksum(&bytes)
        let error = expectCorrupt(bytes, offset: 8)
        #expect(error?.reason.contains("\(version)") == true, "\(error?.reason ?? "")")
    }

    @Test("an unknown required flag is refused at offset 10", arguments: [UInt16(0x02), 0x04, 0x80, 0xFE])
    func unknownRequiredFlag(flag: UInt16) {
        var bytes = small
        BinaryFile.setField(&bytes, at: 10, to: BinaryFile.field(bytes, at: 10, as: UInt16.self) | flag)
        BinaryFile.fixHeaderChecksum(&bytes)
        expectCorrupt(bytes, offset: 10)
    }

    @Test("a compressed payload marked as not compressed is an error")
    func compressedFlagCleared() {
        var bytes = small
        BinaryFile.setField(&bytes, at: 10, to: UInt16(0))
        BinaryFile.fixHeaderChecksum(&bytes)
        expectCorrupt(bytes)
    }

    @Test("a header declaring 1 GiB (or 2^64-1) inflated bytes in a small file is refused at offset 28",
          arguments: [UInt64(1) << 30, UInt64.max])
    func hugeInflatedLength(length: UInt64) {
        var bytes = small
        #expect(bytes.count < 2048)
        BinaryFile.setField(&bytes, at: 28, to: length)
        BinaryFile.fixHeaderChecksum(&bytes)
        expectCorrupt(bytes, offset: 28)
    }

    @Test("declared section lengths that do not add up to the file size")
    func sectionLengths() {
        for (offset, value) in [(12, UInt64(UInt32.max)), (20, UInt64(1) << 40), (20, 0), (12, 0)] {
            var bytes = small
            if offset == 12 {
                BinaryFile.setField(&bytes, at: offset, to: UInt32(truncatingIfNeeded: value))
            } else {
                BinaryFile.setField(&bytes, at: offset, to: value)
            }
            BinaryFile.fixHeaderChecksum(&bytes)
            expectCorrupt(bytes)
        }
        expectCorrupt(small + [0])
    }

    @Test("an entity the model does not have")
    func unknownEntity() throws {
        let wider = try ManagedObjectModel {
            EntityDescription("Item") { Attribute("title", .string) }
            EntityDescription("Extra") { Attribute("title", .string) }
        }
        let narrower = try ManagedObjectModel {
            EntityDescription("Item") { Attribute("title", .string) }
        }
        var image = StoreImage(identifier: "S")
        for entity in ["Item", "Extra"] {
            let id = ManagedObjectID(entityName: entity, storeIdentifier: "S", primaryKey: 1)
            image.objects[id] = ObjectSnapshot(objectID: id, attributes: ["title": .string("x")])
        }
        let bytes = try BinaryStoreFormat().encode(image)
        #expect(throws: Never.self) { try BinaryStoreFormat().decode(bytes, file: "w", model: wider) }
        let error = expectCorrupt(bytes, model: narrower)
        #expect(error?.reason.contains("Extra") == true, "\(error?.reason ?? "")")
        #expect(error?.offset != nil)
    }

    @Test("a value of the wrong type: written as String, read as Integer 64")
    func wrongValueType() throws {
        let asString = try ManagedObjectModel { EntityDescription("Item") { Attribute("code", .string) } }
        let asInteger = try ManagedObjectModel { EntityDescription("Item") { Attribute("code", .integer64) } }
        let id = ManagedObjectID(entityName: "Item", storeIdentifier: "S", primaryKey: 1)
        var image = StoreImage(identifier: "S")
        image.objects[id] = ObjectSnapshot(objectID: id, attributes: ["code": .string("42")])
        let bytes = try BinaryStoreFormat().encode(image)
        #expect(throws: Never.self) { try BinaryStoreFormat().decode(bytes, file: "w", model: asString) }
        #expect {
            try BinaryStoreFormat().decode(bytes, file: "w", model: asInteger)
        } throws: { error in
            guard case StoreError.invalidStoredValue(let problem) = error else { return false }
            return problem.attribute == "code" && problem.entityName == "Item" && problem.found == "the string '42'"
                && problem.object.hasSuffix("/Item/p1") && problem.file == "w" && problem.position != nil
        }
    }

    @Test("a reference to an object the file does not hold reads as nil and is reported")
    func danglingReference() throws {
        var image = PetsModel.image()
        let missing = ManagedObjectID(entityName: "Person", storeIdentifier: image.identifier, primaryKey: 99)
        let rex = ManagedObjectID(entityName: "Pet", storeIdentifier: image.identifier, primaryKey: 1)
        image.objects[rex]?.toOne["owner"] = missing
        guard case .decoded(let toOne) = decode(try BinaryStoreFormat().encode(image)) else {
            Issue.record("a dangling to-one stopped the reading")
            return
        }
        #expect(toOne.objects[rex]?.toOne["owner"] == nil, "the dangling to-one reads as nil")
        #expect(toOne.objects.count == image.objects.count)
        #expect(toOne.danglingReferences == [DanglingReference(source: rex, relationship: "owner", destinationEntityName: "Person",
                                                               destinationPrimaryKey: 99)])

        var toMany = PetsModel.image()
        let ann = ManagedObjectID(entityName: "Person", storeIdentifier: toMany.identifier, primaryKey: 1)
        let pets = toMany.objects[ann]?.toMany["pets"] ?? []
        toMany.objects[ann]?.toMany["pets"]?.append(ManagedObjectID(entityName: "Fish", storeIdentifier: toMany.identifier, primaryKey: 8))
        guard case .decoded(let decoded) = decode(try BinaryStoreFormat().encode(toMany)) else {
            Issue.record("a dangling to-many member stopped the reading")
            return
        }
        #expect(decoded.objects[ann]?.toMany["pets"] == pets, "the missing member is left out, the others kept in order")
        #expect(decoded.danglingReferences.map(\.destinationDescription) == ["Fish/p8"])
        #expect(decoded.danglingReferences.first?.source == ann)
    }

    @Test("hand-written dangling references decode, each reported with its object and relationship")
    func craftedDangling() throws {
        var objects = CraftedObject.validObjects
        objects[2].toOne = [("owner", "Person", 9)]
        objects[0].toMany = [("pets", [("Pet", 1), ("Pet", 7)])]
        let payload = CraftedObject.payload(roots: CraftedObject.validRoots, objects: objects)
        let metadata = BinaryFile.metadataSection(identifier: "PETS-STORE")
        guard case .decoded(let image) = decode(try BinaryFile.assemble(metadata: metadata, payload: payload)) else {
            Issue.record("hand-written dangling references stopped the reading")
            return
        }
        #expect(image.danglingReferences.map(\.description).sorted() == [
            "Person x-coredata://PETS-STORE/Person/p1.pets refers to Pet/p7, which the store does not hold",
            "Pet x-coredata://PETS-STORE/Pet/p2.owner refers to Person/p9, which the store does not hold",
        ])
    }

    @Test("hand-written payloads: the valid one decodes, compressed or not")
    func craftedBaseline() throws {
        let payload = CraftedObject.payload(roots: CraftedObject.validRoots, objects: CraftedObject.validObjects)
        let metadata = BinaryFile.metadataSection(identifier: "PETS-STORE", [StoreMetadataKey.storeUUID: .string("PETS-STORE")])
        for compressed in [true, false] {
            let bytes = try BinaryFile.assemble(metadata: metadata, payload: payload, compressed: compressed)
            guard case .decoded(let image) = decode(bytes) else {
                Issue.record("the hand-written payload does not decode (compressed: \(compressed))")
                continue
            }
            let expected = PetsModel.image()
            #expect(image.objects == expected.objects)
            #expect(image.nextPrimaryKeys == expected.nextPrimaryKeys)
        }
    }

    @Test("hand-written hostile payloads are refused", arguments: HostilePayload.all)
    func craftedPayload(_ hostile: HostilePayload) throws {
        let payload = hostile.bytes()
        let metadata = BinaryFile.metadataSection(identifier: "PETS-STORE")
        let compressed = try BinaryFile.assemble(metadata: metadata, payload: payload)
        #expect(expectCorrupt(compressed)?.offset != nil)
        // Stored plainly, the offset is a position in the file, inside the payload.
        let plain = try BinaryFile.assemble(metadata: metadata, payload: payload, compressed: false)
        if let offset = expectCorrupt(plain)?.offset {
            #expect((44 + metadata.count...plain.count).contains(offset), "offset \(offset) is not inside the payload")
        }
    }

    @Test("property lists nested deeper than 64 levels are refused; 64 levels are fine")
    func deepMetadata() throws {
        func nested(_ levels: Int) -> [UInt8] {
            // A dictionary {"k": [[[…]]]} of `levels` containers in all.
            var writer = ByteWriter()
            writer.string("PETS-STORE")
            writer.u8(8)
            writer.count(1)
            writer.string("k")
            for _ in 0..<(levels - 2) {
                writer.u8(7)
                writer.count(1)
            }
            writer.u8(7)
            writer.count(0)
            return writer.bytes
        }
        let payload = CraftedObject.payload(roots: [], objects: [])
        let fine = try BinaryFile.assemble(metadata: nested(64), payload: payload)
        guard case .decoded = decode(fine) else {
            Issue.record("64 levels of metadata do not decode")
            return
        }
        for levels in [65, 100, 100_000] {
            let metadata = nested(levels)
            let bytes = try BinaryFile.assemble(metadata: metadata, payload: payload)
            if let offset = expectCorrupt(bytes)?.offset {
                #expect((44..<44 + metadata.count).contains(offset))
            }
        }
    }

    @Test("metadata counts claiming 2^40 items are refused")
    func hugeMetadataCounts() throws {
        let payload = CraftedObject.payload(roots: [], objects: [])
        for tag: UInt8 in [7, 8] {
            var writer = ByteWriter()
            writer.string("PETS-STORE")
            writer.u8(8)
            writer.count(1)
            writer.string("k")
            writer.u8(tag)
            writer.varint(1 << 40)
            writer.append([1, 1, 0x41])
            expectCorrupt(try BinaryFile.assemble(metadata: writer.bytes, payload: payload))
        }
        var writer = ByteWriter()
        writer.varint(1 << 40)
        expectCorrupt(try BinaryFile.assemble(metadata: writer.bytes + [8, 0], payload: payload))
    }

    @Test("metadata that is not a dictionary, or has a duplicate key")
    func badMetadata() throws {
        let payload = CraftedObject.payload(roots: [], objects: [])
        var array = ByteWriter()
        array.string("S")
        array.plist(.array([.string("x")]))
        expectCorrupt(try BinaryFile.assemble(metadata: array.bytes, payload: payload))
        var duplicate = ByteWriter()
        duplicate.string("S")
        duplicate.u8(8)
        duplicate.count(2)
        for _ in 0..<2 {
            duplicate.string("k")
            duplicate.plist(.integer(1))
        }
        expectCorrupt(try BinaryFile.assemble(metadata: duplicate.bytes, payload: payload))
    }

    @Test("random garbage of several sizes, with and without the magic and a valid header checksum")
    func garbage() {
        var generator = SplitMix64(seed: 0x5EED)
        var problems: [String] = []
        for size in [1, 7, 8, 43, 44, 45, 64, 100, 1024, 65_536] {
            for variant in 0..<3 {
                var bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
                if variant >= 1 { bytes.replaceSubrange(0..<min(8, size), with: StoreType.binaryMagic.prefix(size)) }
                if variant == 2, size >= 44 {
                    BinaryFile.setField(&bytes, at: 8, to: UInt16(1))
                    BinaryFile.setField(&bytes, at: 10, to: UInt16(1))
                    BinaryFile.fixHeaderChecksum(&bytes)
                }
                if let problem = problem(decode(bytes), fileSize: size) {
                    problems.append("\(size) bytes, variant \(variant): \(problem)")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "; "))")
    }
}
