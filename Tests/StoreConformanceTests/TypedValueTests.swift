import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
import Testing

/// Typed reads and writes (`value(forKey:as:)`, `setValue` with an `AttributeConvertible`
/// value) answer exactly what the untyped ones answer, on objects loaded from every store.
@Suite("Typed values")
struct TypedValueTests {
    /// Every attribute of `Thing` in `StoreImageFixtures.everyTypeModel()` with a value, each of
    /// the Swift type `value(forKey:)` hands out.
    static let values: [(key: String, value: any AttributeConvertible)] = [
        ("int16", Int16(-12)), ("int32", Int32(70_000)), ("int64", Int64(1) << 40),
        ("decimal", Decimal(string: "12.340")!), ("double", 2.5), ("float", Float(0.25)),
        ("string", "Dune"), ("flag", true), ("date", Date(timeIntervalSince1970: 1_000_000)),
        ("blob", Data([1, 2, 3])), ("uuid", UUID(uuidString: "6B1C6F0E-3D2A-4C8B-9E7F-0123456789AB")!),
        ("link", URL(string: "https://example.com/a?b=c")!), ("opaque", Data([9, 8])),
        ("reference", ManagedObjectID(entityName: "Owner", storeIdentifier: "S", primaryKey: 4)),
    ]

    /// Whether the typed read of `key` as `T` gives what the untyped read cast to `T` gives, and
    /// whether that is a value.
    static func typedReadAgrees<T: AttributeConvertible & Equatable>(_ object: ManagedObject, _ key: String, _ type: T.Type) throws -> (agrees: Bool, isValue: Bool) {
        let typed = try object.value(forKey: key, as: T.self)
        return (typed == (try object.value(forKey: key) as? T), typed != nil)
    }

    /// The typed reads of `key` as every attribute Swift type: whether all agree with the
    /// untyped read, and how many give a value.
    static func typedReads(_ object: ManagedObject, _ key: String) throws -> (allAgree: Bool, values: Int) {
        let reads = [
            try typedReadAgrees(object, key, Int16.self), try typedReadAgrees(object, key, Int32.self),
            try typedReadAgrees(object, key, Int64.self), try typedReadAgrees(object, key, Decimal.self),
            try typedReadAgrees(object, key, Double.self), try typedReadAgrees(object, key, Float.self),
            try typedReadAgrees(object, key, String.self), try typedReadAgrees(object, key, Bool.self),
            try typedReadAgrees(object, key, Date.self), try typedReadAgrees(object, key, Data.self),
            try typedReadAgrees(object, key, UUID.self), try typedReadAgrees(object, key, URL.self),
            try typedReadAgrees(object, key, ManagedObjectID.self),
        ]
        return (reads.allSatisfy(\.agrees), reads.count(where: \.isValue))
    }

    /// How a set ended.
    enum Outcome: Equatable {
        case stored
        case refused(ObjectError)
        case failed(String)

        init(_ body: () throws -> Void) {
            do {
                try body()
                self = .stored
            } catch let error as ObjectError {
                self = .refused(error)
            } catch {
                self = .failed("\(error)")
            }
        }
    }

    /// Sets `value` on `object` through the typed setter (its static type is `T`).
    static func setTypedValue<T: AttributeConvertible>(_ value: T, on object: ManagedObject, forKey key: String) throws {
        try object.setValue(value, forKey: key)
    }

    @Test("Typed reads of saved values give what value(forKey:) as? T gives, for every type", arguments: StoreUnderTest.all)
    func typedReadsAgree(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: StoreImageFixtures.everyTypeModel())
        let thing = try context.insertNewObject(forEntityName: "Thing")
        for (key, value) in Self.values { try Self.setTypedValue(value, on: thing, forKey: key) }
        try context.save()

        let reader = context.freshContext()
        let read = try reader.object(with: thing.objectID)
        #expect(read.isFault)   // the first typed read loads it
        for (key, _) in Self.values {
            let (allAgree, values) = try Self.typedReads(read, key)
            #expect(allAgree, "\(key)")
            #expect(values == 1, "\(key) reads as \(values) Swift types")
        }
        #expect(try read.value(forKey: "string", as: String.self) == "Dune")
        #expect(try read.value(forKey: "int16", as: Int64.self) == nil)   // an Integer 16 reads as Int16 only
        #expect(try read.value(forKey: "float", as: Double.self) == nil)
        #expect(read.changedValues().isEmpty)

        let empty = try reader.insertNewObject(forEntityName: "Thing")
        #expect(try empty.value(forKey: "string", as: String.self) == nil)
        #expect(throws: ObjectError.unknownKey(entity: "Thing", key: "strings")) { try read.value(forKey: "strings", as: String.self) }
    }

    @Test("Typed setters convert and refuse exactly as the untyped setter does", arguments: StoreUnderTest.all)
    func typedSettersAgree(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: StoreImageFixtures.everyTypeModel())
        let typed = try context.insertNewObject(forEntityName: "Thing")
        let untyped = try context.insertNewObject(forEntityName: "Thing")
        let cases: [(key: String, value: any AttributeConvertible)] = [
            ("int16", Int64(7)), ("int16", Int64(70_000)), ("int16", Int32(-32_768)), ("int32", "seven"),
            ("int64", Int16(5)), ("double", Int16(3)), ("double", Float(0.5)), ("float", 0.5), ("float", 0.1),
            ("decimal", Int64(12)), ("decimal", 1.5), ("string", Data([1])), ("blob", "text"),
            ("opaque", Data([4])), ("opaque", "not data"), ("flag", Int16(1)), ("owner", "not an object"),
            ("tags", Int64(1)), ("nope", true), ("reference", UUID()), ("date", Date(timeIntervalSince1970: 5)),
        ]
        for (key, value) in cases {
            let typedOutcome = Outcome { try Self.setTypedValue(value, on: typed, forKey: key) }
            let untypedOutcome = Outcome { try untyped.setValue(value as Any, forKey: key) }
            #expect(typedOutcome == untypedOutcome, "\(key) = \(value)")
            if typedOutcome == .stored {
                #expect(try typed.primitiveValue(forKey: key) == untyped.primitiveValue(forKey: key), "\(key) = \(value)")
            }
        }
        #expect(try typed.primitiveValue(forKey: "int16") == .integer(-32_768))
        #expect(try typed.primitiveValue(forKey: "float") == .float(0.5))
        try context.save()
        let reader = context.freshContext()   // kept: objects hold their context weakly
        let reread = try reader.existingObject(with: typed.objectID)
        #expect(try reread.value(forKey: "int64", as: Int64.self) == 5)
        #expect(try reread.value(forKey: "decimal", as: Decimal.self) == 12)   // a Double is refused: 12 stays
    }

    @Test("A typed set records a change only when the value differs, and nil clears", arguments: StoreUnderTest.all)
    func typedSetTracksChanges(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: StoreImageFixtures.everyTypeModel())
        let thing = try context.insertNewObject(forEntityName: "Thing")
        try thing.setValue("Emma", forKey: "string")
        try thing.setValue(5, forKey: "int16")   // a literal: whichever setter, an Integer 16
        try thing.setValue(2.5, forKey: "float")
        try context.save()

        let reader = context.freshContext()
        let object = try reader.existingObject(with: thing.objectID)
        try object.setValue("Emma", forKey: "string")
        #expect(!object.hasChanges)
        #expect(try object.value(forKey: "int16", as: Int16.self) == 5)
        #expect(try object.value(forKey: "float", as: Float.self) == 2.5)
        try object.setValue(String?.none, forKey: "string")
        #expect(object.isUpdated)
        #expect(Set(object.changedValues().keys) == ["string"])
        #expect(try object.value(forKey: "string", as: String.self) == nil)
    }

    /// A type conformed outside Strata that says it is a Double and stores a string.
    struct Celsius: AttributeConvertible, Equatable {
        var degrees: Double
        static var attributeType: AttributeType { .double }
        init(degrees: Double) { self.degrees = degrees }
        init?(attributeValue value: AttributeValue) {
            guard case .double(let degrees) = value else { return nil }
            self.degrees = degrees
        }
        var attributeValue: AttributeValue { .string("\(degrees) °C") }
    }

    @Test("A type conformed elsewhere takes the untyped path; relationships and transformables read untyped", arguments: StoreUnderTest.all)
    func otherConformancesAndKeys(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: StoreImageFixtures.everyTypeModel())
        let thing = try context.insertNewObject(forEntityName: "Thing")
        let owner = try context.insertNewObject(forEntityName: "Owner")
        try thing.setValue(21.5, forKey: "double")
        try thing.setValue(Data([7]), forKey: "opaque")
        try thing.setValue(owner, forKey: "owner")
        #expect(throws: ObjectError.wrongValueType(entity: "Thing", key: "double", expected: .double, found: "Celsius")) {
            try Self.setTypedValue(Celsius(degrees: 3), on: thing, forKey: "double")
        }
        #expect(try thing.value(forKey: "double", as: Double.self) == 21.5)
        #expect(try thing.value(forKey: "double", as: Celsius.self) == nil)   // as `value(forKey:) as? Celsius`
        try context.save()

        let reader = context.freshContext()
        let read = try reader.existingObject(with: thing.objectID)
        #expect(try read.value(forKey: "owner", as: String.self) == nil)
        #expect(read[typed: "opaque", as: Data.self] == Data([7]))
        #expect(read[typed: "double", as: Double.self] == 21.5)
        #expect(read[typed: "owner", as: ManagedObject.self]?.objectID == owner.objectID)
        #expect(try read.value(forKey: "owner", as: ManagedObject.self)?.objectID == owner.objectID)
        #expect(try read.value(forKey: "string", as: ManagedObject.self) == nil)
        #expect(try read.value(forKey: "tags", as: ManagedObject.self) == nil)   // a to-many: a set, not an object
        #expect(throws: ObjectError.unknownKey(entity: "Thing", key: "owners")) { try read.value(forKey: "owners", as: ManagedObject.self) }
        let readOwner = try #require(try read.value(forKey: "owner", as: ManagedObject.self))
        #expect(try readOwner.value(forKey: "things", as: ManagedObject.self) == nil)
        // Keys spelled at run time, not the model's own strings, read the same.
        #expect(try read.value(forKey: SampleModels.respelled("owner"), as: ManagedObject.self)?.objectID == owner.objectID)
        #expect(try read.value(forKey: SampleModels.respelled("string"), as: ManagedObject.self) == nil)
        #expect(try read.value(forKey: SampleModels.respelled("tags"), as: ManagedObject.self) == nil)
        #expect(throws: ObjectError.unknownKey(entity: "Thing", key: "owners")) {
            try read.value(forKey: SampleModels.respelled("owners"), as: ManagedObject.self)
        }
        // A typed value of another Swift type that converts to the stored one changes nothing.
        try read.setValue(Int16(21), forKey: "int64")
        try reader.save()
        try read.setValue(Int64(21), forKey: "int64")
        #expect(!read.hasChanges)
    }

    @Test("A typed read of an object whose delete was saved throws as value(forKey:) does", arguments: StoreUnderTest.all)
    func typedReadOfDeletedObject(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: StoreImageFixtures.everyTypeModel())
        let thing = try context.insertNewObject(forEntityName: "Thing")
        try thing.setValue("gone", forKey: "string")
        try context.save()
        try context.delete(thing)
        try context.save()
        #expect(throws: ObjectError.objectDeleted(thing.objectID)) { try thing.value(forKey: "string", as: String.self) }
        #expect(throws: ObjectError.objectDeleted(thing.objectID)) { try thing.setValue("back", forKey: "string") }
        #expect(throws: ObjectError.objectDeleted(thing.objectID)) { try thing.value(forKey: "owner", as: ManagedObject.self) }
    }
}
