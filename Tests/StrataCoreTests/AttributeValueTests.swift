import Foundation
import Testing
import StrataCore
import StrataTestSupport

/// Values in and out of managed objects: conversion, refusal of wrong or out-of-range values,
/// and exactness (bits, scalars, digits, sub-second parts).
@Suite("AttributeValue")
struct AttributeValueTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Sample") {
                Attribute("i16", .integer16)
                Attribute("i32", .integer32)
                Attribute("i64", .integer64)
                Attribute("decimal", .decimal)
                Attribute("double", .double)
                Attribute("float", .float)
                Attribute("string", .string)
                Attribute("bool", .boolean)
                Attribute("date", .date)
                Attribute("binary", .binaryData)
                Attribute("uuid", .uuid)
                Attribute("uri", .uri)
                Attribute("objectID", .objectID)
                Relationship("owner", to: "Owner", inverse: "samples")
                FetchedProperty("siblings", of: "Sample", predicate: "owner == $FETCH_SOURCE.owner")
            }
            EntityDescription("Owner") {
                Attribute("name", .string)
                Relationship("samples", toMany: "Sample", inverse: "owner")
            }
            EntityDescription("Other")
            EntityDescription("Base", isAbstract: true)
        }
    }

    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let context: ManagedObjectContext
        /// A second context that reads what `context` saved (kept alive: objects hold their
        /// context weakly, as in Core Data).
        let reader: ManagedObjectContext

        init() throws {
            coordinator = PersistentStoreCoordinator(managedObjectModel: try AttributeValueTests.model())
            try coordinator.addPersistentStore(type: .inMemory)
            context = ManagedObjectContext(coordinator: coordinator)
            reader = ManagedObjectContext(coordinator: coordinator)
        }

        func sample() throws -> ManagedObject { try context.insertNewObject(forEntityName: "Sample") }

        /// Saves `object`, then reads it back from the store in the reader context.
        func reloaded(_ object: ManagedObject) throws -> ManagedObject {
            try context.save()
            let read = try reader.existingObject(with: object.objectID)
            try reader.refresh(read, mergeChanges: false)
            return read
        }
    }

    // MARK: Unknown names

    @Test("An unknown key is refused for reading and writing")
    func unknownKey() throws {
        let stack = try Stack()
        let sample = try stack.sample()
        let expected = ObjectError.unknownKey(entity: "Sample", key: "nope")
        #expect(throws: expected) { try sample.setValue(1, forKey: "nope") }
        #expect(throws: expected) { try sample.value(forKey: "nope") }
        #expect(throws: expected) { try sample.primitiveValue(forKey: "nope") }
        #expect(throws: expected) { try sample.setPrimitiveValue(.integer(1), forKey: "nope") }
        #expect(throws: ObjectError.unknownKey(entity: "Sample", key: "I16")) { try sample.setValue(1, forKey: "I16") }
        #expect(throws: ObjectError.unknownKey(entity: "Sample", key: "")) { try sample.setValue(1, forKey: "") }
        #expect(expected.description.contains("Sample") && expected.description.contains("nope"))
    }

    @Test("Inserting an unknown or abstract entity is refused")
    func unknownAndAbstractEntities() throws {
        let stack = try Stack()
        #expect(throws: ObjectError.unknownEntity("Nope")) { try stack.context.insertNewObject(forEntityName: "Nope") }
        #expect(throws: ObjectError.unknownEntity("sample")) { try stack.context.insertNewObject(forEntityName: "sample") }
        #expect(throws: ObjectError.abstractEntity("Base")) { try stack.context.insertNewObject(forEntityName: "Base") }
        #expect(stack.context.insertedObjects.isEmpty)
        #expect(!stack.context.hasChanges)
    }

    // MARK: Wrong types

    @Test("A value of the wrong type is refused, naming entity, key and types", arguments: [
        ("i16", "3" as any Sendable, AttributeType.integer16, "String"),
        ("i16", 3.0 as any Sendable, .integer16, "Double"),
        ("i32", true as any Sendable, .integer32, "Bool"),
        ("i64", Decimal(1) as any Sendable, .integer64, "Decimal"),
        ("string", 42 as any Sendable, .string, "Int"),
        ("string", Data([65]) as any Sendable, .string, "Data"),
        ("bool", Date(timeIntervalSinceReferenceDate: 0) as any Sendable, .boolean, "Date"),
        ("bool", 1 as any Sendable, .boolean, "Int"),
        ("bool", "YES" as any Sendable, .boolean, "String"),
        ("date", 0.0 as any Sendable, .date, "Double"),
        ("date", "2001-01-01" as any Sendable, .date, "String"),
        ("binary", "bytes" as any Sendable, .binaryData, "String"),
        ("uuid", "8E2B5F3A-1C4D-4E6F-9A0B-1C2D3E4F5A6B" as any Sendable, .uuid, "String"),
        ("uri", "https://example.com" as any Sendable, .uri, "String"),
        ("objectID", "x-coredata:///Sample/t8E2B5F3A-1C4D-4E6F-9A0B-1C2D3E4F5A6B" as any Sendable, .objectID, "String"),
        ("double", "1.5" as any Sendable, .double, "String"),
        ("float", "1.5" as any Sendable, .float, "String"),
        ("decimal", "1.5" as any Sendable, .decimal, "String"),
    ])
    func wrongValueType(key: String, value: any Sendable, expected: AttributeType, found: String) throws {
        let stack = try Stack()
        let sample = try stack.sample()
        try sample.setValue(nil, forKey: key)
        #expect(throws: ObjectError.wrongValueType(entity: "Sample", key: key, expected: expected, found: found)) {
            try sample.setValue(value, forKey: key)
        }
        #expect(try sample.value(forKey: key) == nil, "a refused value is not stored")
    }

    @Test("setPrimitiveValue checks the stored form against the type")
    func primitiveTypeCheck() throws {
        let stack = try Stack()
        let sample = try stack.sample()
        #expect(throws: ObjectError.self) { try sample.setPrimitiveValue(.string("x"), forKey: "i16") }
        #expect(throws: ObjectError.self) { try sample.setPrimitiveValue(.integer(70_000), forKey: "i16") }
        #expect(throws: ObjectError.self) { try sample.setPrimitiveValue(.double(1), forKey: "float") }
        #expect(throws: ObjectError.self) { try sample.primitiveValue(forKey: "owner") }
        try sample.setPrimitiveValue(.integer(-32768), forKey: "i16")
        #expect(try sample.value(forKey: "i16") as? Int16 == Int16.min)
    }

    // MARK: Out of range

    @Test("A number that does not fit is refused as out of range", arguments: [
        ("i16", 70_000 as any Sendable),
        ("i16", Int(Int16.max) + 1 as any Sendable),
        ("i16", Int(Int16.min) - 1 as any Sendable),
        ("i16", UInt16.max as any Sendable),
        ("i32", Int64.max as any Sendable),
        ("i32", Int64(Int32.min) - 1 as any Sendable),
        ("i32", UInt32.max as any Sendable),
        ("i64", UInt64.max as any Sendable),
        ("i64", UInt(Int64.max) + 1 as any Sendable),
        ("float", 1e300 as any Sendable),
        ("float", -Double.greatestFiniteMagnitude as any Sendable),
        ("float", 0.1 as any Sendable),
        ("float", 16_777_217 as any Sendable),
        ("double", 9_007_199_254_740_993 as any Sendable),
        ("double", UInt64.max as any Sendable),
        ("float", UInt64.max as any Sendable),
    ])
    func outOfRange(key: String, value: any Sendable) throws {
        let stack = try Stack()
        let sample = try stack.sample()
        #expect(throws: ObjectError.valueOutOfRange(entity: "Sample", key: key, value: "\(value)")) {
            try sample.setValue(value, forKey: key)
        }
        #expect(try sample.value(forKey: key) == nil)
    }

    // MARK: Accepted conversions

    @Test("Integers of any width are accepted where they fit, and come back at the attribute's width")
    func integerWidths() throws {
        let stack = try Stack()
        let sample = try stack.sample()
        try sample.setValue(32767, forKey: "i16")
        #expect(try sample.value(forKey: "i16") as? Int16 == 32767)
        try sample.setValue(Int8(-128), forKey: "i16")
        #expect(try sample.value(forKey: "i16") as? Int16 == -128)
        try sample.setValue(UInt8(255), forKey: "i16")
        #expect(try sample.value(forKey: "i16") as? Int16 == 255)
        try sample.setValue(Int64(Int32.min), forKey: "i32")
        #expect(try sample.value(forKey: "i32") as? Int32 == Int32.min)
        try sample.setValue(UInt32(Int32.max), forKey: "i32")
        #expect(try sample.value(forKey: "i32") as? Int32 == Int32.max)
        try sample.setValue(Int16(-5), forKey: "i64")
        #expect(try sample.value(forKey: "i64") as? Int64 == -5)
        try sample.setValue(Int64.min, forKey: "i64")
        #expect(try sample.value(forKey: "i64") as? Int64 == Int64.min)
        try sample.setValue(UInt64(Int64.max), forKey: "i64")
        #expect(try sample.primitiveValue(forKey: "i64") == .integer(Int64.max))
    }

    @Test("Floats widen to Double; exact doubles narrow to Float; integers become Double, Float and Decimal")
    func numericWidening() throws {
        let stack = try Stack()
        let sample = try stack.sample()
        let third = Float(1) / 3
        try sample.setValue(third, forKey: "double")
        #expect(try sample.value(forKey: "double") as? Double == Double(third))
        try sample.setValue(0.5, forKey: "float")
        #expect(try sample.value(forKey: "float") as? Float == 0.5)
        try sample.setValue(Double(third), forKey: "float")
        #expect(try sample.value(forKey: "float") as? Float == third)
        try sample.setValue(7, forKey: "double")
        #expect(try sample.value(forKey: "double") as? Double == 7)
        try sample.setValue(-9_007_199_254_740_992, forKey: "double")
        #expect(try sample.value(forKey: "double") as? Double == -9_007_199_254_740_992)
        try sample.setValue(16_777_216, forKey: "float")
        #expect(try sample.value(forKey: "float") as? Float == 16_777_216)
        try sample.setValue(12, forKey: "decimal")
        #expect(try sample.value(forKey: "decimal") as? Decimal == Decimal(12))
        try sample.setValue(Int64.min, forKey: "decimal")
        #expect(try sample.value(forKey: "decimal") as? Decimal == Decimal(Int64.min))
        // A Decimal holds every UInt64, even those past Int64.max.
        try sample.setValue(UInt64.max, forKey: "decimal")
        #expect(try sample.value(forKey: "decimal") as? Decimal == Decimal(UInt64.max))
        #expect((try sample.value(forKey: "decimal") as? Decimal)?.description == "18446744073709551615")
        try sample.setValue(Substring("sub"), forKey: "string")
        #expect(try sample.value(forKey: "string") as? String == "sub")
        try sample.setValue([UInt8]([0, 255]), forKey: "binary")
        #expect(try sample.value(forKey: "binary") as? Data == Data([0, 255]))
    }

    @Test("nil clears a value")
    func nilClears() throws {
        let stack = try Stack()
        let sample = try stack.sample()
        try sample.setValue("x", forKey: "string")
        try sample.setValue(nil, forKey: "string")
        #expect(try sample.value(forKey: "string") == nil)
        #expect(try sample.primitiveValue(forKey: "string") == nil)
    }

    // MARK: Exactness

    static let doubles: [Double] = [
        -0.0, 0.0, .nan, Double(nan: 0x1234, signaling: false), -Double(nan: 0x5, signaling: false),
        .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .ulpOfOne, 0.1, -Double.leastNormalMagnitude / 4,
    ]

    @Test("Doubles keep their bits, -0.0 and NaN payloads included, through a save")
    func doubleBits() throws {
        let stack = try Stack()
        var objects: [(ManagedObject, Double)] = []
        for value in Self.doubles {
            let sample = try stack.sample()
            try sample.setValue(value, forKey: "double")
            guard case .double(let stored)? = try sample.primitiveValue(forKey: "double") else {
                Issue.record("no double stored for \(value)")
                continue
            }
            #expect(stored.bitPattern == value.bitPattern, "\(value)")
            objects.append((sample, value))
        }
        try stack.context.save()
        let reader = ManagedObjectContext(coordinator: stack.coordinator)
        for (object, value) in objects {
            let read = try reader.existingObject(with: object.objectID)
            let double = try #require(try read.value(forKey: "double") as? Double)
            #expect(double.bitPattern == value.bitPattern, "\(value) came back as \(double)")
            #expect(try read.primitiveValue(forKey: "double") == .double(value))
        }
    }

    @Test("Floats keep their bits, NaN payloads included")
    func floatBits() throws {
        let stack = try Stack()
        for value: Float in [-0.0, .nan, Float(nan: 0x2A, signaling: false), .leastNonzeroMagnitude, .infinity] {
            let sample = try stack.sample()
            try sample.setValue(value, forKey: "float")
            let read = try stack.reloaded(sample)
            let float = try #require(try read.value(forKey: "float") as? Float)
            #expect(float.bitPattern == value.bitPattern)
        }
    }

    @Test("A change of sign of zero or of NaN payload counts as a change")
    func bitChangesAreChanges() throws {
        let stack = try Stack()
        let sample = try stack.sample()
        try sample.setValue(0.0, forKey: "double")
        try stack.context.save()
        #expect(!sample.hasChanges)
        try sample.setValue(0.0, forKey: "double")
        #expect(!sample.isUpdated, "the same bits are no change")
        try sample.setValue(-0.0, forKey: "double")
        #expect(sample.isUpdated)
        try stack.context.save()
        try sample.setValue(Double.nan, forKey: "double")
        try stack.context.save()
        try sample.setValue(Double(nan: 7, signaling: false), forKey: "double")
        #expect(sample.isUpdated)
    }

    static let strings: [String] = [
        "", "plain", "nul\u{0}inside", "\u{0}", "tab\tnew\nline\rcr", "\u{1}\u{1F}\u{7F}",
        "\u{C9}cole", "E\u{301}cole", "\u{1F600}\u{1F3FD}", "\u{FEFF}bom", "a\u{301}\u{301}\u{301}", "\u{301}",
        "🇫🇷", "\\\"quoted\"\\", String(repeating: "long ", count: 2_000),
    ]

    @Test("Strings keep every scalar: NUL, controls, precomposed and decomposed forms")
    func stringScalars() throws {
        let stack = try Stack()
        var objects: [(ManagedObject, String)] = []
        for value in Self.strings {
            let sample = try stack.sample()
            try sample.setValue(value, forKey: "string")
            objects.append((sample, value))
        }
        try stack.context.save()
        let reader = ManagedObjectContext(coordinator: stack.coordinator)
        for (object, value) in objects {
            let read = try #require(try reader.existingObject(with: object.objectID).value(forKey: "string") as? String)
            #expect(Array(read.unicodeScalars) == Array(value.unicodeScalars), "\(value.debugDescription)")
            #expect(Array(read.utf8) == Array(value.utf8))
        }
    }

    @Test("Precomposed and decomposed É stay distinct, and switching forms is a change")
    func normalizationIsAChange() throws {
        let stack = try Stack()
        let precomposed = "\u{C9}"
        let decomposed = "E\u{301}"
        #expect(precomposed == decomposed, "Swift calls them equal; Strata must not")
        let sample = try stack.sample()
        try sample.setValue(precomposed, forKey: "string")
        try stack.context.save()
        try sample.setValue(decomposed, forKey: "string")
        #expect(sample.isUpdated, "switching normalization forms is a change")
        #expect(try sample.primitiveValue(forKey: "string") == .string(decomposed))
        #expect(try sample.primitiveValue(forKey: "string") != .string(precomposed))
        let read = try stack.reloaded(sample)
        let value = try #require(try read.value(forKey: "string") as? String)
        #expect(Array(value.unicodeScalars) == Array(decomposed.unicodeScalars))
        #expect(value.unicodeScalars.count == 2)
    }

    @Test("Dates keep their sub-second part bit for bit")
    func dates() throws {
        let stack = try Stack()
        for seconds in [0.000_001, 123_456_789.123_456_78, -978_307_200.5, 1e-9, -0.25, 4_102_444_800.999_999] {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            let sample = try stack.sample()
            try sample.setValue(date, forKey: "date")
            let read = try stack.reloaded(sample)
            let value = try #require(try read.value(forKey: "date") as? Date)
            #expect(value.timeIntervalSinceReferenceDate.bitPattern == seconds.bitPattern, "\(seconds)")
        }
    }

    @Test("Decimals keep their digits")
    func decimals() throws {
        let stack = try Stack()
        for text in ["12345678901234567890.123456789", "-0.000000000000000000000000001", "3.14159265358979323846264338327950288",
                     "0", "1e100", "-99999999999999999999999999999999999999"] {
            let decimal = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
            let sample = try stack.sample()
            try sample.setValue(decimal, forKey: "decimal")
            let read = try stack.reloaded(sample)
            let value = try #require(try read.value(forKey: "decimal") as? Decimal)
            #expect(value == decimal)
            #expect(value.description == decimal.description, "\(text)")
        }
    }

    @Test("Bytes, UUIDs, URLs and object IDs come back exactly")
    func otherTypes() throws {
        let stack = try Stack()
        let bytes = Data((0..<256).map { UInt8($0) })
        let uuid = UUID()
        let url = try #require(URL(string: "https://example.com/a%20b?q=%C3%A9#frag"))
        let id = ManagedObjectID(entityName: "Owner", storeIdentifier: UUID().uuidString, primaryKey: 3)
        let sample = try stack.sample()
        try sample.setValue(bytes, forKey: "binary")
        try sample.setValue(uuid, forKey: "uuid")
        try sample.setValue(url, forKey: "uri")
        try sample.setValue(id, forKey: "objectID")
        try sample.setValue(false, forKey: "bool")
        let read = try stack.reloaded(sample)
        #expect(try read.value(forKey: "binary") as? Data == bytes)
        #expect(try read.value(forKey: "uuid") as? UUID == uuid)
        #expect((try read.value(forKey: "uri") as? URL)?.absoluteString == url.absoluteString)
        #expect(try read.value(forKey: "objectID") as? ManagedObjectID == id)
        #expect(try read.value(forKey: "bool") as? Bool == false)
    }

    @Test("AttributeValue equality compares bits and scalars, and hashing agrees")
    func attributeValueEquality() {
        #expect(AttributeValue.double(0) != .double(-0.0))
        #expect(AttributeValue.double(.nan) == .double(.nan))
        #expect(AttributeValue.double(.nan) != .double(Double(nan: 1, signaling: false)))
        #expect(AttributeValue.string("\u{C9}") != .string("E\u{301}"))
        #expect(AttributeValue.integer(1) != .double(1))
        #expect(Set<AttributeValue>([.double(.nan), .double(.nan), .string("\u{C9}"), .string("E\u{301}")]).count == 3)
        #expect(AttributeValue.integer(70_000).matches(.integer32))
        #expect(!AttributeValue.integer(70_000).matches(.integer16))
        #expect(AttributeValue.binary(Data()).matches(.transformable))
    }

    // MARK: Relationships

    @Test("A relationship refuses an object of the wrong entity, another context, or a non-object")
    func relationshipValues() throws {
        let stack = try Stack()
        let sample = try stack.sample()
        let other = try stack.context.insertNewObject(forEntityName: "Other")
        #expect {
            try sample.setValue(other, forKey: "owner")
        } throws: { error in
            guard case .wrongValueType(let entity, let key, let expected, _)? = error as? ObjectError else { return false }
            return entity == "Sample" && key == "owner" && expected == nil
        }
        #expect(throws: ObjectError.wrongValueType(entity: "Sample", key: "owner", expected: nil, found: "String")) {
            try sample.setValue("Owner #1", forKey: "owner")
        }
        let foreignContext = ManagedObjectContext(coordinator: stack.coordinator)
        let foreignOwner = try foreignContext.insertNewObject(forEntityName: "Owner")
        #expect(throws: ObjectError.wrongContext(foreignOwner.objectID)) {
            try sample.setValue(foreignOwner, forKey: "owner")
        }
        let owner = try stack.context.insertNewObject(forEntityName: "Owner")
        #expect(throws: ObjectError.self) { try owner.setValue([sample, other], forKey: "samples") }
        #expect(throws: ObjectError.self) { try owner.setValue(sample, forKey: "samples") }
        #expect(throws: ObjectError.self) { try owner.setValue([foreignOwner], forKey: "samples") }
        #expect(try sample.value(forKey: "owner") == nil)
        #expect((try owner.value(forKey: "samples") as? Set<ManagedObject>)?.isEmpty == true)

        try sample.setValue(owner, forKey: "owner")
        #expect(try sample.value(forKey: "owner") as? ManagedObject === owner)
        #expect((try owner.value(forKey: "samples") as? Set<ManagedObject>) == [sample])
        #expect(throws: ObjectError.self) { try sample.setValue([owner], forKey: "siblings") }
    }

    @Test("A relationship to a parent entity takes objects of its sub-entities")
    func subEntityDestination() throws {
        let context = try makeContext(SampleModels.library())
        let author = try context.insertNewObject(forEntityName: "Author")
        let book = try context.insertNewObject(forEntityName: "Book")
        let magazine = try context.insertNewObject(forEntityName: "Magazine")
        let note = try context.insertNewObject(forEntityName: "Note")
        try author.setValue([book, magazine], forKey: "publications")
        #expect((try author.value(forKey: "publications") as? [ManagedObject])?.map(\.entity.name) == ["Book", "Magazine"])
        #expect(throws: ObjectError.self) { try author.setValue([note], forKey: "publications") }
        #expect(throws: ObjectError.abstractEntity("Publication")) {
            try context.insertNewObject(forEntityName: "Publication")
        }
    }
}
