import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
import Testing

/// Every atomic format's files: written whole, read back, their metadata read alone, and
/// stores saved through the coordinator keeping exact values and refusing to overflow.
@Suite("Atomic store formats: files and stores")
struct AtomicFormatFileTests {
    let model: ManagedObjectModel

    init() throws {
        model = try StoreImageFixtures.everyTypeModel()
    }

    /// ``StoreImageFixtures/everyValueImage(model:type:)`` for the format, and the URL of a file
    /// `name` in a new temporary folder (removed when the test process exits).
    private func everyValueFile(_ format: AtomicFormat, named name: String) throws -> (StoreImage, URL) {
        let image = StoreImageFixtures.everyValueImage(model: model, type: format.storeType)
        return (image, try TemporaryFolder.make().appendingPathComponent(format.fileName(name)))
    }

    @Test("files: written whole and checked, read back, and their metadata read alone", arguments: AtomicFormat.allCases)
    func files(format: AtomicFormat) throws {
        let driver = format.driver
        let (image, url) = try everyValueFile(format, named: "store")
        let folder = url.deletingLastPathComponent()
        try driver.format.write(image, to: url, model: model)
        let problem = try driver.fileProblem(at: url)
        #expect(problem == nil, "\(problem ?? "")")
        let read = try driver.format.read(from: url, model: model)
        // The file keeps the model's compiled form in its metadata too.
        var expected = image
        expected.metadata = try image.metadata(withCompiledModelOf: model)
        #expect(Identical.differences(expected, read).isEmpty)
        let metadata = try driver.readMetadata(from: url)
        #expect(Identical.metadata(metadata, expected.metadata))
        #expect(try StoreType.detect(at: url) == format.storeType)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [format.fileName("store")])
    }

    @Test("the metadata reads without the objects: damaged objects do not stop it", arguments: AtomicFormat.allCases)
    func metadataWithoutObjects(format: AtomicFormat) throws {
        let driver = format.driver
        let (image, url) = try everyValueFile(format, named: "damaged-objects")
        try Data(driver.damagingObjects(driver.encode(image, model: model))).write(to: url)
        #expect(throws: StoreError.self) { try driver.format.read(from: url, model: model) }
        let metadata = try driver.readMetadata(from: url)
        #expect(Identical.metadata(metadata, image.metadata))
        let viaCoordinator = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: format.storeType, at: url)
        #expect(viaCoordinator[StoreMetadataKey.storeUUID] == .string(StoreImageFixtures.storeIdentifier))
    }

    @Test("a store saved through the coordinator keeps exact values across reopening",
          arguments: AtomicFormat.allCases, ExactValues.all)
    func throughTheStack(format: AtomicFormat, values: ExactValues) throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(format.fileName("stack"))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: format.storeType, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let object = try context.insertNewObject(forEntityName: "Thing")
        try object.setValue(values.string, forKey: "string")
        try object.setValue(Double(bitPattern: values.doubleBits), forKey: "double")
        try object.setValue(Float(bitPattern: values.floatBits), forKey: "float")
        try object.setValue(Decimal(string: "12345678901234567890.123456789", locale: Locale(identifier: "en_US_POSIX"))!,
                            forKey: "decimal")
        try object.setValue(Date(timeIntervalSinceReferenceDate: values.date), forKey: "date")
        try context.save()
        let problem = try format.driver.fileProblem(at: url)
        #expect(problem == nil, "\(problem ?? "")")

        let again = PersistentStoreCoordinator(managedObjectModel: model)
        try again.addPersistentStore(type: format.storeType, at: url)
        let reader = ManagedObjectContext(coordinator: again)
        let loaded = try reader.existingObject(with: object.objectID)
        #expect((try loaded.value(forKey: "string") as? String).map { Array($0.unicodeScalars) }
            == Array(values.string.unicodeScalars))
        #expect((try loaded.value(forKey: "double") as? Double)?.bitPattern == values.doubleBits)
        #expect((try loaded.value(forKey: "float") as? Float)?.bitPattern == values.floatBits)
        #expect((try loaded.value(forKey: "decimal") as? Decimal)?.description == "12345678901234567890.123456789")
        #expect((try loaded.value(forKey: "date") as? Date)?.timeIntervalSinceReferenceDate.bitPattern
            == values.date.bitPattern)
        #expect(loaded.managedObjectContext === reader)
    }

    /// A context on a store of the format holding the pets store changed by `edit`, in `folder`.
    private func petsContext(
        _ format: AtomicFormat, in folder: URL, edit: (inout StoreImage) -> Void
    ) throws -> ManagedObjectContext {
        let model = try PetsModel.make()
        let url = folder.appendingPathComponent(format.fileName("pets"))
        var image = PetsModel.image()
        image.stampMetadata(type: format.storeType, model: model)
        edit(&image)
        try format.driver.format.write(image, to: url, model: model)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: format.storeType, at: url)
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test("a next primary key at Int64.max: inserting throws instead of overflowing", arguments: AtomicFormat.allCases)
    func exhaustedPrimaryKeys(format: AtomicFormat) throws {
        try TemporaryFolder.with { folder in
            let context = try petsContext(format, in: folder) { $0.nextPrimaryKeys["Person"] = .max }
            let person = try context.insertNewObject(forEntityName: "Person")
            try person.setValue("Zed", forKey: "name")
            #expect(throws: StoreError.self) { try context.save() }
            #expect(context.hasChanges)
        }
    }

    @Test("versions at Int64.max: changing the object saves or throws, never traps", arguments: AtomicFormat.allCases)
    func versionAtTheLimit(format: AtomicFormat) throws {
        try TemporaryFolder.with { folder in
            let ann = ManagedObjectID(entityName: "Person", storeIdentifier: PetsModel.image().identifier, primaryKey: 1)
            let context = try petsContext(format, in: folder) { $0.objects[ann]?.version = .max }
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
}

/// Values a store must keep to the bit, saved through the whole stack.
struct ExactValues: Sendable, CustomTestStringConvertible {
    var name: String
    /// Text with a byte-order mark, both spellings of É, NUL and line ends.
    var string: String
    /// A NaN with a payload.
    var doubleBits: UInt64
    /// The smallest subnormal float.
    var floatBits: UInt32
    /// Seconds since the reference date, below one.
    var date: Double
    var testDescription: String { name }

    static let all = [
        ExactValues(name: "positive NaN payload and subnormal", string: "E\u{301}\u{0}\r",
                    doubleBits: 0x7FF8_0000_0000_ABCD, floatBits: 0x0000_0001, date: 0.123_456_789),
        ExactValues(name: "negative NaN payload and subnormal", string: "\u{FEFF}E\u{301}\u{0}\r\n\u{C9}",
                    doubleBits: 0xFFF8_0000_0000_ABCD, floatBits: (-Float.leastNonzeroMagnitude).bitPattern,
                    date: -0.123_456_789),
    ]
}
