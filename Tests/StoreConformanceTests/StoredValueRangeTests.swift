import Foundation
import Strata
@_spi(StoreImplementation) import StrataBinary
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
@_spi(StoreImplementation) import StrataXML
import Testing

/// A value its attribute cannot hold, written into a store file by another program (an
/// `Integer 16` holding 99999, a Boolean holding 7, text in a numeric column), is refused when
/// the store reads it, naming the file, the object, the attribute, the value and the range: it
/// never reaches an object, so nothing can export or convert it.
@Suite("Stored values out of their attribute's range")
struct StoredValueRangeTests {
    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Reading") {
                Attribute("name", .string)
                Attribute("level", .integer16)
                Attribute("count", .integer32)
                Attribute("flag", .boolean)
            }
        }
    }

    /// One bad value: the attribute, what the file holds (an attribute value for the atomic
    /// stores, an SQL literal for SQLite), and what the error must say was found.
    struct BadValue: Sendable, CustomStringConvertible {
        var attribute: String
        var value: AttributeValue
        var sql: String
        var found: String
        var description: String { "\(attribute) = \(sql)" }
    }

    static let badValues: [BadValue] = [
        BadValue(attribute: "level", value: .integer(99999), sql: "99999", found: "99999"),
        BadValue(attribute: "level", value: .integer(-32769), sql: "-32769", found: "-32769"),
        BadValue(attribute: "count", value: .integer(1 << 40), sql: "\(1 << 40)", found: "\(1 << 40)"),
        BadValue(attribute: "flag", value: .integer(7), sql: "7", found: "7"),
        BadValue(attribute: "count", value: .string("abc"), sql: "'abc'", found: "abc"),
    ]

    /// A store of `store`'s type holding one reading with valid values; its file and the object's ID.
    private func savedReading(_ store: StoreUnderTest) throws -> (URL, ManagedObjectID) {
        let (coordinator, persistentStore) = try store.makeCoordinator(model: Self.model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let reading = try context.insertNewObject(forEntityName: "Reading")
        try reading.setValuesForKeys(["name": "first", "level": Int16(5), "count": Int32(6), "flag": true])
        try context.save()
        return (try #require(persistentStore.url), reading.objectID)
    }

    /// Puts `bad` into the file at `url`, as another program would.
    private func damage(_ url: URL, of store: StoreUnderTest, with bad: BadValue) throws {
        let model = try Self.model()
        switch store.type {
        case .sqlite:
            _ = try SQLiteShell.rows(url, "UPDATE ZREADING SET Z\(bad.attribute.uppercased()) = \(bad.sql)")
        case .xml:
            try rewrite(url, format: XMLStoreFormat(), model: model, bad)
        case .binary:
            try rewrite(url, format: BinaryStoreFormat(), model: model, bad)
        default:
            Issue.record("no file to damage for \(store)")
        }
    }

    private func rewrite(_ url: URL, format: some AtomicStoreFormat, model: ManagedObjectModel, _ bad: BadValue) throws {
        var image = try format.read(from: url, model: model)
        for id in Array(image.objects.keys) { image.objects[id]?.attributes[bad.attribute] = bad.value }
        try format.write(image, to: url, model: model)
    }

    @Test("a fetch (or opening an atomic store) refuses the value, naming file, object, attribute, value and range",
          arguments: StoreUnderTest.fileBacked, badValues)
    func refusedOnRead(store: StoreUnderTest, bad: BadValue) throws {
        let (url, id) = try savedReading(store)
        try damage(url, of: store, with: bad)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let problem: StoredValueProblem
        do {
            try coordinator.addPersistentStore(type: store.type, at: url)
            let objects = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Reading"))
            Issue.record("fetched \(objects.count) objects, one of them holding \(bad)")
            return
        } catch StoreError.invalidStoredValue(let found) {
            problem = found
        }
        #expect(problem.file == url.path)
        #expect(problem.entityName == "Reading")
        #expect(problem.object == id.uriRepresentation.absoluteString)
        #expect(problem.attribute == bad.attribute)
        #expect(problem.found.contains(bad.found), "\(problem)")
        let description = StoreError.invalidStoredValue(problem).description
        for fragment in [url.path, "Reading", "/Reading/p1", "'\(bad.attribute)'", bad.found, problem.type.allowedValues] {
            #expect(description.contains(fragment), "\(description) lacks \(fragment)")
        }
    }

    @Test("faulting in an object of an SQLite store that holds an out-of-range value refuses it")
    func faultRefused() throws {
        let store = try #require(StoreUnderTest.all.first { $0.type == .sqlite })
        let (url, id) = try savedReading(store)
        _ = try SQLiteShell.rows(url, "UPDATE ZREADING SET ZLEVEL = 40000")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let reading = try context.object(with: id)
        #expect {
            _ = try reading.value(forKey: "name")
        } throws: { error in
            guard case StoreError.invalidStoredValue(let problem) = error else { return false }
            return problem.attribute == "level" && problem.found.contains("40000")
        }
    }

    @Test("values at the ends of each range are read as they are", arguments: StoreUnderTest.fileBacked)
    func boundsAccepted(store: StoreUnderTest) throws {
        let (coordinator, persistentStore) = try store.makeCoordinator(model: Self.model())
        let context = ManagedObjectContext(coordinator: coordinator)
        for (level, count, flag) in [(Int16.min, Int32.min, false), (Int16.max, Int32.max, true)] {
            try context.insertNewObject(forEntityName: "Reading").setValuesForKeys(["level": level, "count": count, "flag": flag])
        }
        try context.save()
        let url = try #require(persistentStore.url)
        let again = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try again.addPersistentStore(type: store.type, at: url)
        let reader = ManagedObjectContext(coordinator: again)
        let read = try reader.fetch(FetchRequest(entityName: "Reading"))
        let levels = try read.map { try $0.value(forKey: "level") as? Int16 }.compactMap { $0 }.sorted()
        #expect(levels == [Int16.min, Int16.max])
        let counts = try read.map { try $0.value(forKey: "count") as? Int32 }.compactMap { $0 }.sorted()
        #expect(counts == [Int32.min, Int32.max])
    }

    @Test("no store takes an out-of-range value from a program: setting it is refused", arguments: StoreUnderTest.all)
    func settingRefused(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        let reading = try context.insertNewObject(forEntityName: "Reading")
        #expect(throws: (any Error).self) { try reading.setValue(99999, forKey: "level") }
    }
}
