import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore

/// Store images full of values that are easy to lose: for the round-trip tests of every file
/// format. Every value here is written by hand, never taken from a format's output.
public enum StoreImageFixtures {
    /// The store UUID of `everyValueImage(model:type:)`.
    public static let storeIdentifier = "6B1C6F0E-3D2A-4C8B-9E7F-0123456789AB"

    /// A model with an attribute of every type, to-one, to-many and ordered to-many
    /// relationships, and an inheritance tree whose leaves share one primary-key sequence.
    public static func everyTypeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Thing") {
                Attribute("int16", .integer16)
                Attribute("int32", .integer32)
                Attribute("int64", .integer64)
                Attribute("decimal", .decimal)
                Attribute("double", .double)
                Attribute("float", .float)
                Attribute("string", .string)
                Attribute("flag", .boolean)
                Attribute("date", .date)
                Attribute("blob", .binaryData)
                Attribute("uuid", .uuid)
                Attribute("link", .uri)
                Attribute("opaque", .transformable)
                Attribute("reference", .objectID)
                Relationship("owner", to: "Owner", inverse: "things")
                Relationship("tags", toMany: "Tag", inverse: "things")
            }
            EntityDescription("Owner") {
                Attribute("name", .string)
                Relationship("things", toMany: "Thing", inverse: "owner", ordered: true)
            }
            EntityDescription("Tag") {
                Attribute("label", .string)
                Relationship("things", toMany: "Thing", inverse: "tags")
            }
            EntityDescription("Shape", isAbstract: true) {
                Attribute("sides", .integer32)
            }
            EntityDescription("Square", parent: "Shape") {
                Attribute("edge", .double)
            }
            EntityDescription("Circle", parent: "Shape") {
                Attribute("radius", .double)
            }
        }
    }

    /// Strings that a careless format normalises, trims, truncates or rejects.
    public static let strings: [String] = [
        "",
        "a\u{0}b",                                        // NUL is data
        "\u{0}",
        "\u{1}\u{7}\u{8}\u{B}\u{C}\u{1B}\u{1F}\u{7F}",    // control characters
        "line1\r\nline2\rline3\n\r",                      // CR, CRLF, LF
        "E\u{301}",                                       // decomposed É
        "\u{C9}",                                         // precomposed É
        "👩‍👩‍👧‍👦 🇸🇪 \u{1F600}",                              // emoji, ZWJ sequence, flags
        "\u{FEFF}leading BOM",
        "\u{FEFF}BOM and NUL\u{0}",
        "  \t padded \t  ",
        "   ",
        "<&>\"' ]]> &amp; &#13;",
        "\u{FFFE}\u{FFFF}\u{FFFD}",
        "\u{85}\u{2028}\u{2029}\u{10FFFF}",
        "x-coredata://not/an/id",
    ]

    /// Doubles whose bits must survive: NaNs with payloads and signs, signed zeros, infinities,
    /// subnormals.
    public static let doubles: [Double] = [
        Double(bitPattern: 0x7FF8_0000_0000_1234),  // quiet NaN with a payload
        Double(bitPattern: 0x7FF0_0000_0000_0001),  // signalling NaN
        Double(bitPattern: 0xFFF8_0000_0000_0000),  // negative NaN
        -0.0, 0.0, .infinity, -.infinity,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        Double.leastNormalMagnitude.nextDown,        // largest subnormal
        .greatestFiniteMagnitude, 0.1, -1.0 / 3.0,
    ]

    /// Floats, likewise.
    public static let floats: [Float] = [
        Float(bitPattern: 0x7FC0_1234),
        Float(bitPattern: 0x7F80_0001),
        Float(bitPattern: 0xFFC0_0000),
        -0.0, 0.0, .infinity, -.infinity,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        Float.leastNormalMagnitude.nextDown,
        .greatestFiniteMagnitude, 0.1,
    ]

    /// Decimals given by their digits.
    public static let decimalDigits: [String] = [
        "12345678901234567890.123456789",
        "-0.000000000000000000000000001",
        "0",
        "3.14",
        "-98765432109876543210987654321",
    ]

    /// Dates with sub-second parts, before and after the reference date.
    public static let dates: [Date] = [
        Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_789),
        Date(timeIntervalSinceReferenceDate: -0.000_001),
        Date(timeIntervalSinceReferenceDate: 0.1),
        Date(timeIntervalSinceReferenceDate: -0.0),
        Date(timeIntervalSinceReferenceDate: 1e-300),
        Date(timeIntervalSinceReferenceDate: -63_113_904_000.5),
    ]

    /// Bytes that are not UTF-8, and none at all.
    public static let blobs: [Data] = [
        Data([0xFF, 0xFE, 0xC0, 0x80, 0x00, 0xED, 0xA0, 0x80, 0xF8]),
        Data(),
        Data((0...255).map { UInt8($0) }),
    ]

    /// URLs with escapes, queries, fragments and our own scheme.
    public static let urls: [URL] = [
        URL(string: "https://example.com/a%20b/%E2%82%AC?q=1&r=%3C%3E#frag")!,
        URL(string: "file:///tmp/with%00nul")!,
        URL(string: "x-coredata://ABC/Thing/p1")!,
        URL(string: "mailto:a@b.c")!,
    ]

    /// Integers at the edges of their widths: (int16, int32, int64).
    public static let integers: [(Int64, Int64, Int64)] = [
        (Int64(Int16.min), Int64(Int32.min), Int64.min),
        (Int64(Int16.max), Int64(Int32.max), Int64.max),
        (0, 0, 0),
        (-1, -1, -1),
    ]

    /// Metadata with every property-list kind, nested, with values that are easy to lose.
    public static let customMetadata: [String: PropertyListValue] = [
        "string": .string("E\u{301} \u{C9} 👍 <&>"),
        "string with NUL": .string("a\u{0}b\r\n"),
        "integers": .array([.integer(.min), .integer(.max), .integer(0), .integer(-1)]),
        "doubles": .array([
            .double(Double(bitPattern: 0x7FF8_0000_0000_1234)), .double(-0.0), .double(.infinity),
            .double(-.infinity), .double(.leastNonzeroMagnitude), .double(0.1),
        ]),
        "bools": .array([.bool(true), .bool(false)]),
        "date": .date(Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_789)),
        "data": .data(Data([0xFF, 0x00, 0xFE])),
        "empty data": .data(Data()),
        "empty array": .array([]),
        "empty dictionary": .dictionary([:]),
        "Ünïcödé kéy": .string(""),
        "nested": .dictionary([
            "level1": .dictionary([
                "level2": .array([
                    .dictionary(["level3": .array([.string("deep"), .integer(3), .data(Data([1]))])]),
                    .array([.array([.bool(false)])]),
                ]),
            ]),
        ]),
    ]

    /// A whole image: many `Thing`s (one value of each list each), owners with ordered things,
    /// tags, squares and circles sharing the `Shape` key sequence, custom metadata and next keys.
    @_spi(StoreImplementation) public static func everyValueImage(model: ManagedObjectModel, type: StoreType = .binary) -> StoreImage {
        let store = storeIdentifier
        func id(_ entity: String, _ pk: Int64) -> ManagedObjectID {
            ManagedObjectID(entityName: entity, storeIdentifier: store, primaryKey: pk)
        }
        var image = StoreImage.empty(type: type, model: model)
        image.identifier = store
        image.metadata.merge(customMetadata) { _, new in new }
        image.metadata[StoreMetadataKey.storeUUID] = .string(store)

        let counts = [strings.count, doubles.count, floats.count, decimalDigits.count, dates.count,
                      blobs.count, urls.count, integers.count]
        let thingCount = counts.max() ?? 0
        var things: [ObjectSnapshot] = []
        for index in 0..<thingCount {
            var snapshot = ObjectSnapshot(objectID: id("Thing", Int64(index + 1)), version: Int64(index + 1))
            func put(_ key: String, _ value: AttributeValue?) { if let value { snapshot.attributes[key] = value } }
            put("string", strings.indices.contains(index) ? .string(strings[index]) : nil)
            put("double", doubles.indices.contains(index) ? .double(doubles[index]) : nil)
            put("float", floats.indices.contains(index) ? .float(floats[index]) : nil)
            put("decimal", decimalDigits.indices.contains(index)
                ? Decimal(string: decimalDigits[index], locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) } : nil)
            put("date", dates.indices.contains(index) ? .date(dates[index]) : nil)
            put("blob", blobs.indices.contains(index) ? .binary(blobs[index]) : nil)
            put("opaque", blobs.indices.contains(index) ? .binary(blobs[blobs.count - 1 - index]) : nil)
            put("link", urls.indices.contains(index) ? .uri(urls[index]) : nil)
            if integers.indices.contains(index) {
                put("int16", .integer(integers[index].0))
                put("int32", .integer(integers[index].1))
                put("int64", .integer(integers[index].2))
            }
            put("flag", index < 2 ? .boolean(index == 0) : nil)
            put("uuid", index == 0 ? .uuid(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!) : nil)
            put("reference", index == 0 ? .objectID(id("Owner", 1))
                : index == 1 ? .objectID(ManagedObjectID(entityName: "Tag", storeIdentifier: "SOME-OTHER-STORE", primaryKey: 42))
                : nil)
            things.append(snapshot)
        }
        // Owner 1 holds things 3, 1, 2 in that (unsorted) order; owner 2 holds none.
        var owner1 = ObjectSnapshot(objectID: id("Owner", 1), attributes: ["name": .string("first")])
        owner1.toMany["things"] = [id("Thing", 3), id("Thing", 1), id("Thing", 2)]
        var owner2 = ObjectSnapshot(objectID: id("Owner", 2), version: 7)
        owner2.toMany["things"] = []
        for index in [0, 1, 2] { things[index].toOne["owner"] = id("Owner", 1) }
        // Tags 1 and 2 share things 1 and 2 (many-to-many).
        var tag1 = ObjectSnapshot(objectID: id("Tag", 1), attributes: ["label": .string("a")])
        tag1.toMany["things"] = [id("Thing", 1), id("Thing", 2)]
        var tag2 = ObjectSnapshot(objectID: id("Tag", 2), attributes: ["label": .string("b")])
        tag2.toMany["things"] = [id("Thing", 2)]
        things[0].toMany["tags"] = [id("Tag", 1)]
        things[1].toMany["tags"] = [id("Tag", 2), id("Tag", 1)]
        things[2].toMany["tags"] = []
        // Squares and circles number their keys together under Shape.
        let shapes = [
            ObjectSnapshot(objectID: id("Square", 1), attributes: ["sides": .integer(4), "edge": .double(2.5)]),
            ObjectSnapshot(objectID: id("Circle", 2), attributes: ["sides": .integer(0), "radius": .double(-0.0)]),
            ObjectSnapshot(objectID: id("Square", 3), attributes: ["edge": .double(.nan)]),
        ]
        for snapshot in things + [owner1, owner2, tag1, tag2] + shapes {
            image.objects[snapshot.objectID] = snapshot
        }
        image.nextPrimaryKeys = ["Thing": Int64(thingCount + 10), "Owner": 3, "Tag": 40, "Shape": 4]
        return image
    }
}

extension StoreImageFixtures {
    /// Every value of the fixture lists that `decoded` (an image of ``everyValueImage(model:type:)``
    /// after a trip through a format) does not hold exactly: strings by scalars, floating-point
    /// numbers and dates by bits, decimals by digits. Empty when all came back.
    @_spi(StoreImplementation) public static func valueMismatches(in decoded: StoreImage) -> [String] {
        var out: [String] = []
        func attribute(_ index: Int, _ key: String) -> AttributeValue? {
            decoded.objects[ManagedObjectID(entityName: "Thing", storeIdentifier: decoded.identifier,
                                            primaryKey: Int64(index + 1))]?.attributes[key]
        }
        for (index, string) in strings.enumerated() {
            guard case .string(let back)? = attribute(index, "string"),
                  Array(back.unicodeScalars) == Array(string.unicodeScalars) else {
                out.append("string \(index) \(string.debugDescription): got \(String(describing: attribute(index, "string")))")
                continue
            }
        }
        for (index, value) in doubles.enumerated() {
            guard case .double(let back)? = attribute(index, "double"), back.bitPattern == value.bitPattern else {
                out.append("double \(index) \(value): got \(String(describing: attribute(index, "double")))")
                continue
            }
        }
        for (index, value) in floats.enumerated() {
            guard case .float(let back)? = attribute(index, "float"), back.bitPattern == value.bitPattern else {
                out.append("float \(index) \(value): got \(String(describing: attribute(index, "float")))")
                continue
            }
        }
        for (index, value) in dates.enumerated() {
            guard case .date(let back)? = attribute(index, "date"),
                  back.timeIntervalSinceReferenceDate.bitPattern == value.timeIntervalSinceReferenceDate.bitPattern else {
                out.append("date \(index) \(value.timeIntervalSinceReferenceDate): got \(String(describing: attribute(index, "date")))")
                continue
            }
        }
        for (index, digits) in decimalDigits.enumerated() {
            guard case .decimal(let back)? = attribute(index, "decimal"), back.description == digits else {
                out.append("decimal \(index) \(digits): got \(String(describing: attribute(index, "decimal")))")
                continue
            }
        }
        for (index, blob) in blobs.enumerated() where attribute(index, "blob") != .binary(blob) {
            out.append("blob \(index): got \(String(describing: attribute(index, "blob")))")
        }
        for (index, url) in urls.enumerated() {
            guard case .uri(let back)? = attribute(index, "link"), back.absoluteString == url.absoluteString else {
                out.append("URL \(index) \(url): got \(String(describing: attribute(index, "link")))")
                continue
            }
        }
        for (index, (i16, i32, i64)) in integers.enumerated() {
            if attribute(index, "int16") != .integer(i16) || attribute(index, "int32") != .integer(i32)
                || attribute(index, "int64") != .integer(i64) {
                out.append("integers \(index)")
            }
        }
        return out
    }
}

/// The model of the hostile-file tests: people and their animals, with an abstract root whose
/// sub-entities share one primary-key sequence.
public enum PetsModel {
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Person") {
                Attribute("name", .string)
                Attribute("age", .integer16)
                Relationship("pets", toMany: "Animal", inverse: "owner", ordered: true)
            }
            EntityDescription("Animal", isAbstract: true) {
                Attribute("name", .string)
                Relationship("owner", to: "Person", inverse: "pets")
            }
            EntityDescription("Pet", parent: "Animal") {
                Attribute("vaccinated", .boolean)
                Attribute("weight", .decimal)
                Attribute("friend", .objectID)
            }
            EntityDescription("Fish", parent: "Animal") {
                Attribute("fins", .integer32)
            }
        }
    }

    /// A small store: Ann with Rex, Tom and Nemo.
    @_spi(StoreImplementation) public static func image(identifier: String = "PETS-STORE") -> StoreImage {
        func id(_ entity: String, _ pk: Int64) -> ManagedObjectID {
            ManagedObjectID(entityName: entity, storeIdentifier: identifier, primaryKey: pk)
        }
        var image = StoreImage(identifier: identifier, metadata: [
            StoreMetadataKey.storeUUID: .string(identifier), "note": .string("hostile tests"), "n": .integer(7),
        ])
        image.objects[id("Person", 1)] = ObjectSnapshot(
            objectID: id("Person", 1), attributes: ["name": .string("Ann"), "age": .integer(30)],
            toMany: ["pets": [id("Pet", 1), id("Pet", 2), id("Fish", 3)]])
        image.objects[id("Pet", 1)] = ObjectSnapshot(
            objectID: id("Pet", 1), attributes: ["name": .string("Rex"), "vaccinated": .boolean(true)],
            toOne: ["owner": id("Person", 1)])
        image.objects[id("Pet", 2)] = ObjectSnapshot(
            objectID: id("Pet", 2), attributes: ["name": .string("Tom")], toOne: ["owner": id("Person", 1)])
        image.objects[id("Fish", 3)] = ObjectSnapshot(
            objectID: id("Fish", 3), attributes: ["fins": .integer(5)], toOne: ["owner": id("Person", 1)])
        image.nextPrimaryKeys = ["Person": 2, "Animal": 4]
        return image
    }
}

/// Comparisons that look at bits, not at floating-point equality.
public enum Identical {
    /// Whether two property-list values are the same, doubles and dates compared by bits,
    /// strings by Unicode scalars.
    public static func plist(_ lhs: PropertyListValue, _ rhs: PropertyListValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case let (.integer(a), .integer(b)): a == b
        case let (.double(a), .double(b)): a.bitPattern == b.bitPattern
        case let (.bool(a), .bool(b)): a == b
        case let (.date(a), .date(b)):
            a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case let (.data(a), .data(b)): a == b
        case let (.array(a), .array(b)): a.count == b.count && zip(a, b).allSatisfy { plist($0, $1) }
        case let (.dictionary(a), .dictionary(b)): metadata(a, b)
        default: false
        }
    }

    /// Whether two metadata dictionaries hold the same keys (by scalars) and identical values.
    public static func metadata(_ lhs: [String: PropertyListValue], _ rhs: [String: PropertyListValue]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs {
            guard let other = rhs.first(where: { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) })?.value,
                  plist(value, other) else { return false }
        }
        return true
    }

    /// Every difference between two images, one line each (empty when they are identical).
    /// Attribute values compare by ``AttributeValue``'s bitwise equality.
    @_spi(StoreImplementation) public static func differences(_ expected: StoreImage, _ actual: StoreImage) -> [String] {
        var out: [String] = []
        if expected.identifier != actual.identifier {
            out.append("identifier \(expected.identifier) != \(actual.identifier)")
        }
        if !metadata(expected.metadata, actual.metadata) {
            for key in Set(expected.metadata.keys).union(actual.metadata.keys).sorted() {
                let a = expected.metadata[key], b = actual.metadata[key]
                let same = if let a, let b { plist(a, b) } else { false }
                if !same {
                    out.append("metadata[\(key.debugDescription)]: \(String(describing: a)) != \(String(describing: b))")
                }
            }
        }
        if expected.nextPrimaryKeys != actual.nextPrimaryKeys {
            out.append("nextPrimaryKeys \(expected.nextPrimaryKeys) != \(actual.nextPrimaryKeys)")
        }
        for id in Set(expected.objects.keys).union(actual.objects.keys).sorted(by: { $0.description < $1.description }) {
            guard let a = expected.objects[id], let b = actual.objects[id] else {
                out.append("\(id): present only in \(expected.objects[id] == nil ? "actual" : "expected")")
                continue
            }
            if a.version != b.version { out.append("\(id): version \(a.version) != \(b.version)") }
            for key in Set(a.attributes.keys).union(b.attributes.keys).sorted() where a.attributes[key] != b.attributes[key] {
                out.append("\(id).\(key): \(String(reflecting: a.attributes[key])) != \(String(reflecting: b.attributes[key]))")
            }
            if a.toOne != b.toOne { out.append("\(id) to-one: \(a.toOne) != \(b.toOne)") }
            if a.toMany != b.toMany { out.append("\(id) to-many: \(a.toMany) != \(b.toMany)") }
        }
        return out
    }
}
