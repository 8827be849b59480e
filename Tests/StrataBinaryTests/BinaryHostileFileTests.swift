import Foundation
import Strata
@testable @_spi(StoreImplementation) import StrataBinary
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
import Testing

/// What decoding some bytes did.
enum DecodeOutcome {
    case decoded(StoreImage)
    case corrupt(file: String, offset: Int?, reason: String)
    case otherError(any Error)

    init(_ body: () throws -> StoreImage) {
        do {
            self = .decoded(try body())
        } catch let StoreError.corruptStore(file, offset, reason) {
            self = .corrupt(file: file, offset: offset, reason: reason)
        } catch let StoreError.invalidStoredValue(problem) {
            // A value its attribute cannot hold: a typed error of its own, at an offset too.
            let offset = problem.position.flatMap { Int($0.replacingOccurrences(of: "at offset ", with: "")) }
            self = .corrupt(file: problem.file, offset: offset, reason: problem.description)
        } catch {
            self = .otherError(error)
        }
    }
}

/// One object of a hand-written payload.
struct CraftedObject: Sendable {
    var entity: String
    var pk: UInt64
    var version: UInt64 = 1
    var attributes: [(String, [UInt8])] = []
    var toOne: [(String, String, UInt64)] = []
    var toMany: [(String, [(String, UInt64)])] = []

    /// The encoded form of a value (tag and content).
    static func value(_ value: AttributeValue) -> [UInt8] {
        var writer = ByteWriter()
        writer.value(value)
        return writer.bytes
    }

    /// A payload of `objects` with the inheritance roots' next keys.
    static func payload(roots: [(String, UInt64)], objects: [CraftedObject], trailing: [UInt8] = []) -> [UInt8] {
        var builder = PayloadBuilder()
        builder.body.count(roots.count)
        for (root, next) in roots {
            builder.name(root)
            builder.varint(next)
        }
        builder.body.count(objects.count)
        for object in objects {
            builder.name(object.entity)
            builder.varint(object.pk)
            builder.varint(object.version)
            builder.body.count(object.attributes.count)
            for (name, value) in object.attributes {
                builder.name(name)
                builder.body.append(value)
            }
            builder.body.count(object.toOne.count)
            for (name, entity, pk) in object.toOne {
                builder.name(name)
                builder.name(entity)
                builder.varint(pk)
            }
            builder.body.count(object.toMany.count)
            for (name, destinations) in object.toMany {
                builder.name(name)
                builder.body.count(destinations.count)
                for (entity, pk) in destinations {
                    builder.name(entity)
                    builder.varint(pk)
                }
            }
        }
        builder.body.append(trailing)
        return builder.bytes
    }

    /// The objects of ``PetsModel/image(identifier:)`` written by hand.
    static let validObjects: [CraftedObject] = [
        CraftedObject(entity: "Person", pk: 1, attributes: [("name", value(.string("Ann"))), ("age", value(.integer(30)))],
                      toMany: [("pets", [("Pet", 1), ("Pet", 2), ("Fish", 3)])]),
        CraftedObject(entity: "Pet", pk: 1, attributes: [("name", value(.string("Rex"))), ("vaccinated", value(.boolean(true)))],
                      toOne: [("owner", "Person", 1)]),
        CraftedObject(entity: "Pet", pk: 2, attributes: [("name", value(.string("Tom")))], toOne: [("owner", "Person", 1)]),
        CraftedObject(entity: "Fish", pk: 3, attributes: [("fins", value(.integer(5)))], toOne: [("owner", "Person", 1)]),
    ]

    static let validRoots: [(String, UInt64)] = [("Animal", 4), ("Person", 2)]
}

/// A hand-written payload that a reader must refuse.
struct HostilePayload: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: @Sendable () -> [UInt8]
    var testDescription: String { name }

    init(_ name: String, _ bytes: @escaping @Sendable () -> [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// The valid objects with one of them changed.
    init(_ name: String, roots: [(String, UInt64)] = CraftedObject.validRoots, trailing: [UInt8] = [],
         change index: Int, _ edit: @escaping @Sendable (inout CraftedObject) -> Void) {
        self.init(name) {
            var objects = CraftedObject.validObjects
            edit(&objects[index])
            return CraftedObject.payload(roots: roots, objects: objects, trailing: trailing)
        }
    }

    static let huge: UInt64 = 1 << 40

    static let all: [HostilePayload] = [
        HostilePayload("duplicate object ID") {
            CraftedObject.payload(roots: CraftedObject.validRoots,
                                  objects: CraftedObject.validObjects + [CraftedObject.validObjects[2]])
        },
        HostilePayload("two objects of one inheritance root share a primary key") {
            CraftedObject.payload(roots: CraftedObject.validRoots,
                                  objects: CraftedObject.validObjects + [CraftedObject(entity: "Fish", pk: 2)])
        },
        HostilePayload("to-one to an object of the wrong entity", change: 2) { $0.toOne = [("owner", "Pet", 1)] },
        HostilePayload("unknown entity", change: 3) { $0.entity = "Dragon" },
        HostilePayload("object of an abstract entity") {
            CraftedObject.payload(roots: CraftedObject.validRoots,
                                  objects: CraftedObject.validObjects + [CraftedObject(entity: "Animal", pk: 4)])
        },
        HostilePayload("unknown attribute", change: 1) { $0.attributes.append(("color", CraftedObject.value(.string("red")))) },
        HostilePayload("String value in an Integer 16 attribute", change: 0) {
            $0.attributes = [("age", CraftedObject.value(.string("thirty")))]
        },
        HostilePayload("Integer 16 out of range", change: 0) { $0.attributes = [("age", CraftedObject.value(.integer(100_000)))] },
        HostilePayload("relationship written as an attribute", change: 1) {
            $0.attributes = [("owner", CraftedObject.value(.string("Ann")))]
        },
        HostilePayload("to-many written as a to-one", change: 0) { $0.toOne = [("pets", "Pet", 1)] },
        HostilePayload("to-one written as a to-many", change: 1) { $0.toMany = [("owner", [("Person", 1)])] },
        HostilePayload("primary key 0", change: 1) { $0.pk = 0 },
        HostilePayload("primary key above Int64.max", change: 1) { $0.pk = UInt64(Int64.max) + 1 },
        HostilePayload("next primary key 0", roots: [("Animal", 0), ("Person", 2)], change: 0) { _ in },
        HostilePayload("unknown value tag", change: 1) { $0.attributes = [("name", [99])] },
        HostilePayload("Boolean byte 2", change: 1) { $0.attributes = [("vaccinated", [6, 2])] },
        HostilePayload("invalid UTF-8 in a string value", change: 1) { $0.attributes = [("name", [5, 2, 0xC3, 0x28])] },
        HostilePayload("decimal that is not a number", change: 1) { $0.attributes = [("weight", [2, 3, 0x61, 0x62, 0x63])] },
        HostilePayload("object ID that is not an object URI", change: 1) {
            $0.attributes = [("friend", [11] + CraftedObject.value(.string("not an id")).dropFirst())]
        },
        HostilePayload("value cut short", change: 1) { $0.attributes = [("name", [5, 200])] },
        HostilePayload("bytes after the last object", trailing: [0, 0, 0], change: 0) { _ in },
        HostilePayload("string index out of range") {
            var payload = CraftedObject.payload(roots: [], objects: [])
            payload.removeLast()      // the object count
            payload += [1, 99, 1, 1, 0, 0, 0]
            return payload
        },
        HostilePayload("varint longer than 10 bytes") { [UInt8](repeating: 0xFF, count: 10) + [0x01, 0, 0] },
        HostilePayload("varint overflowing 64 bits") { [UInt8](repeating: 0xFF, count: 9) + [0x7F, 0, 0] },
        HostilePayload("string count 2^40") {
            var writer = ByteWriter()
            writer.varint(huge)
            writer.string("Person")
            return writer.bytes
        },
        HostilePayload("string length 2^40") {
            var writer = ByteWriter()
            writer.count(1)
            writer.varint(huge)
            writer.append(Array("Person".utf8))
            return writer.bytes
        },
        HostilePayload("root count 2^40") {
            var payload = CraftedObject.payload(roots: [], objects: [])
            payload.removeLast(2)
            var writer = ByteWriter()
            writer.varint(huge)
            return payload + writer.bytes + [0, 0]
        },
        HostilePayload("object count 2^40") {
            var payload = CraftedObject.payload(roots: CraftedObject.validRoots, objects: [])
            payload.removeLast()      // the object count
            var writer = ByteWriter()
            writer.varint(huge)
            return payload + writer.bytes + [0, 1, 1, 0, 0, 0]
        },
        HostilePayload("attribute count 2^40") {
            var builder = PayloadBuilder()
            builder.body.count(0)
            builder.body.count(1)
            builder.name("Pet")
            builder.varint(1)
            builder.varint(1)
            builder.varint(huge)
            builder.name("name")
            builder.body.append(CraftedObject.value(.string("Rex")))
            return builder.bytes
        },
        HostilePayload("to-many destination count 2^40") {
            var builder = PayloadBuilder()
            builder.body.count(0)
            builder.body.count(1)
            builder.name("Person")
            builder.varint(1)
            builder.varint(1)
            builder.body.count(0)
            builder.body.count(0)
            builder.body.count(1)
            builder.name("pets")
            builder.varint(huge)
            builder.name("Pet")
            builder.varint(1)
            return builder.bytes
        },
        HostilePayload("blob length 2^40", change: 1) {
            var writer = ByteWriter()
            writer.u8(8)
            writer.varint(huge)
            $0.attributes = [("name", writer.bytes + [1, 2, 3])]
        },
        HostilePayload("empty payload") { [] },
    ]
}

@Suite("Binary store: hostile files", .timeLimit(.minutes(2)))
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

    private func decode(_ bytes: [UInt8], model: ManagedObjectModel? = nil, file: String = Self.path) -> DecodeOutcome {
        DecodeOutcome { try BinaryStoreFormat().decode(bytes, file: file, model: model ?? self.model) }
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
        case .otherError(let error):
            Issue.record("expected StoreError.corruptStore, got \(error)", sourceLocation: sourceLocation)
        case let .corrupt(file, offset, reason):
            #expect(file == Self.path, sourceLocation: sourceLocation)
            #expect(!reason.isEmpty, sourceLocation: sourceLocation)
            if let expected { #expect(offset == expected, "\(reason)", sourceLocation: sourceLocation) }
            return (offset, reason)
        }
        return nil
    }

    /// Collects what is wrong with one outcome of a loop over many files (nil: as it should be).
    private func problem(_ outcome: DecodeOutcome, fileSize: Int) -> String? {
        switch outcome {
        case .decoded: return "decoded"
        case .otherError(let error): return "threw \(error)"
        case let .corrupt(file, offset, _):
            if file != Self.path { return "named file \(file)" }
            if let offset, !(0...fileSize).contains(offset) { return "offset \(offset) outside the \(fileSize)-byte file" }
            return nil
        }
    }

    @Test("the small store is small and valid")
    func baseline() throws {
        #expect(small.count < 2048)
        guard case .decoded(let image) = decode(small) else {
            Issue.record("the small store does not decode")
            return
        }
        #expect(image.objects.count == 4)
    }

    @Test("truncated at every length from 0 to its full size")
    func truncation() {
        var problems: [String] = []
        for length in 0..<small.count {
            if let problem = problem(decode(Array(small.prefix(length))), fileSize: length) {
                problems.append("length \(length): \(problem)")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) truncations: \(problems.prefix(10).joined(separator: "; "))")
    }

    @Test("every single-bit flip of every byte is an error (the checksums see them all)")
    func bitFlips() {
        var problems: [String] = []
        var bytes = small
        for index in bytes.indices {
            for bit in 0..<8 {
                bytes[index] ^= 1 << bit
                if let problem = problem(decode(bytes), fileSize: bytes.count) {
                    problems.append("byte \(index) bit \(bit): \(problem)")
                }
                bytes[index] ^= 1 << bit
            }
        }
        #expect(bytes == small)
        #expect(problems.isEmpty, "\(problems.count) flips: \(problems.prefix(10).joined(separator: "; "))")
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

    @Test("hostile files opened through the coordinator throw and are left untouched")
    func throughTheCoordinator() throws {
        StoreType.registerBuiltInTypes()
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        var versioned = small
        BinaryFile.setField(&versioned, at: 8, to: UInt16(9))
        BinaryFile.fixHeaderChecksum(&versioned)
        var flipped = small
        flipped[small.count / 2] ^= 0x10
        var generator = SplitMix64(seed: 7)
        let files: [(String, [UInt8])] = [
            ("empty", []),
            ("truncated", Array(small.prefix(small.count - 1))),
            ("header only", Array(small.prefix(44))),
            ("flipped", flipped),
            ("version 9", versioned),
            ("garbage", (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }),
            ("magic and garbage", StoreType.binaryMagic + (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }),
        ]
        for (name, bytes) in files {
            let url = folder.appendingPathComponent("\(name).binary")
            try Data(bytes).write(to: url)
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            do {
                try coordinator.addPersistentStore(type: .binary, at: url)
                Issue.record("\(name): the store opened")
            } catch let StoreError.corruptStore(file, _, _) {
                #expect(file == url.path, "\(name)")
            } catch {
                Issue.record("\(name): expected StoreError.corruptStore, got \(error)")
            }
            #expect(coordinator.persistentStores.isEmpty)
            #expect(try Data(contentsOf: url) == Data(bytes), "\(name): the file was changed")
            #expect(throws: StoreError.self, "\(name)") {
                try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .binary, at: url)
            }
        }
    }

    @Test("a next primary key at Int64.max: inserting throws instead of overflowing")
    func exhaustedPrimaryKeys() throws {
        StoreType.registerBuiltInTypes()
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("keys.binary")
        var image = PetsModel.image()
        image.stampMetadata(type: .binary, model: model)
        image.nextPrimaryKeys["Person"] = .max
        try BinaryStoreFormat().write(image, to: url, model: model)

        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .binary, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let person = try context.insertNewObject(forEntityName: "Person")
        try person.setValue("Zed", forKey: "name")
        #expect(throws: StoreError.self) { try context.save() }
        #expect(context.hasChanges)
    }

    @Test("versions at Int64.max: changing the object saves or throws, never traps")
    func versionAtTheLimit() throws {
        StoreType.registerBuiltInTypes()
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("versions.binary")
        var image = PetsModel.image()
        image.stampMetadata(type: .binary, model: model)
        let ann = ManagedObjectID(entityName: "Person", storeIdentifier: image.identifier, primaryKey: 1)
        image.objects[ann]?.version = .max
        try BinaryStoreFormat().write(image, to: url, model: model)

        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .binary, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let person = try context.existingObject(with: ann)
        for round in 0..<2 {
            try person.setValue("Ann \(round)", forKey: "name")
            do {
                try context.save()
            } catch is StoreError {
                return
            }
        }
    }
}
