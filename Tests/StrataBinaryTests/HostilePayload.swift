import Foundation
import Strata
@testable import StrataBinary
import StrataTestSupport
import Testing

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
