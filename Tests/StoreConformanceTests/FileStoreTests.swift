import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// What every store that keeps a file promises: data, metadata, UUID and primary keys survive
/// reopening; the type is told from the content; a failed write changes nothing.
@Suite("File stores")
struct FileStoreTests {
    /// A company saved into a fresh store of `store`'s type: the coordinator, the store, its
    /// file, and the IDs of Acme and its employees Ann, Bob and Cy (in that order).
    private func savedCompany(_ store: StoreUnderTest, folder: URL? = nil) throws
        -> (PersistentStoreCoordinator, any PersistentStore, URL, [ManagedObjectID]) {
        let (coordinator, persistentStore) = try store.makeCoordinator(model: SampleModels.company(), folder: folder)
        let url = try #require(persistentStore.url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let acme = try context.insertNewObject(forEntityName: "Employer")
        try acme.setValue("Acme", forKey: "name")
        var objects = [acme]
        for (name, salary) in [("Ann", 1.5), ("Bob", -0.0), ("Cy", Double(bitPattern: 0x7FF8_0000_0000_0042))] {
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue(name, forKey: "name")
            try employee.setValue(salary, forKey: "salary")
            try employee.setValue(acme, forKey: "whereIWork")
            objects.append(employee)
        }
        try context.save()
        return (coordinator, persistentStore, url, objects.map(\.objectID))
    }

    /// A new coordinator with the store at `url` added.
    private func reopen(_ store: StoreUnderTest, at url: URL) throws -> (PersistentStoreCoordinator, any PersistentStore) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.company())
        let persistentStore = try coordinator.addPersistentStore(type: store.type, at: url)
        return (coordinator, persistentStore)
    }

    /// Every employee as "name@employer:salary bits", sorted.
    private func employees(in context: ManagedObjectContext) throws -> [String] {
        try context.fetch(FetchRequest(entityName: "Employee")).map { employee in
            let name = try employee.value(forKey: "name") as? String ?? "?"
            let employer = try (employee.value(forKey: "whereIWork") as? ManagedObject)?.value(forKey: "name") as? String ?? "-"
            let salary = (try employee.value(forKey: "salary") as? Double)?.bitPattern ?? 0
            return "\(name)@\(employer):\(String(salary, radix: 16))"
        }.sorted()
    }

    private static let company = [
        "Ann@Acme:\(String((1.5 as Double).bitPattern, radix: 16))",
        "Bob@Acme:\(String((-0.0 as Double).bitPattern, radix: 16))",
        "Cy@Acme:7ff8000000000042",
    ]

    @Test("data, metadata and the store UUID survive reopening the file", arguments: StoreUnderTest.fileBacked)
    func reopening(store: StoreUnderTest) throws {
        let (coordinator, persistentStore, url, ids) = try savedCompany(store)
        let custom: [String: PropertyListValue] = [
            "app.version": .string("E\u{301}1.0\u{0}"),
            "app.launches": .integer(.max),
            "app.tuple": .array([.double(-0.0), .date(Date(timeIntervalSinceReferenceDate: 0.25)), .data(Data([0xFF]))]),
            "app.nested": .dictionary(["deeper": .dictionary(["flag": .bool(true)])]),
        ]
        try coordinator.setMetadata(coordinator.metadata(for: persistentStore).merging(custom) { _, new in new },
                                    for: persistentStore)
        // Metadata is written with the next save, as in Core Data.
        let context = ManagedObjectContext(coordinator: coordinator)
        let other = try context.insertNewObject(forEntityName: "Employer")
        try other.setValue("Other", forKey: "name")
        try context.save()
        let identifier = persistentStore.identifier

        let (again, reopened) = try reopen(store, at: url)
        #expect(reopened.identifier == identifier)
        #expect(reopened.metadata[StoreMetadataKey.storeUUID] == .string(identifier))
        for (key, value) in custom {
            let back = try #require(reopened.metadata[key], "metadata \(key) is missing")
            #expect(Identical.plist(value, back), "metadata \(key): \(back)")
        }
        let fresh = ManagedObjectContext(coordinator: again)
        #expect(try employees(in: fresh) == Self.company)
        let acme = try fresh.existingObject(with: ids[0])
        let staff = try #require(acme.value(forKey: "employees") as? Set<ManagedObject>)
        #expect(Set(staff.map(\.objectID)) == Set(ids.dropFirst()))
        #expect(try fresh.count(for: FetchRequest(entityName: "Employer")) == 2)
    }

    @Test("Scenario 15: a URI taken before closing resolves in a new coordinator on the same file",
          arguments: StoreUnderTest.fileBacked)
    func urisAcrossCoordinators(store: StoreUnderTest) throws {
        let (coordinator, _, url, ids) = try savedCompany(store)
        let uris = ids.map(\.uriRepresentation)
        // Delete Bob, so that keys after him would move if they were renumbered.
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.delete(context.existingObject(with: ids[2]))
        try context.save()

        let (again, _) = try reopen(store, at: url)
        let fresh = ManagedObjectContext(coordinator: again)
        for (index, uri) in uris.enumerated() where index != 2 {
            let id = try #require(again.managedObjectID(forURIRepresentation: uri), "\(uri) does not resolve")
            #expect(id == ids[index])
            let object = try fresh.existingObject(with: id)
            #expect(object.objectID.uriRepresentation == uri)
        }
        #expect(try fresh.existingObject(with: ids[1]).value(forKey: "name") as? String == "Ann")
        #expect(try fresh.existingObject(with: ids[3]).value(forKey: "name") as? String == "Cy")
        // Bob's URI still parses to an ID of this store, but no row answers it.
        let bob = try #require(again.managedObjectID(forURIRepresentation: uris[2]))
        #expect(throws: (any Error).self) { try fresh.existingObject(with: bob) }

        // A new object never takes a key that was handed out before, even a deleted one.
        let dee = try fresh.insertNewObject(forEntityName: "Employee")
        try dee.setValue("Dee", forKey: "name")
        try fresh.save()
        #expect(!ids.contains(dee.objectID))
        #expect(!uris.contains(dee.objectID.uriRepresentation))
        #expect((dee.objectID.primaryKey ?? 0) > ids.dropFirst().compactMap(\.primaryKey).max() ?? 0)
    }

    @Test("a second coordinator on the same file sees what the first saved once it reloads",
          arguments: StoreUnderTest.fileBacked)
    func secondCoordinator(store: StoreUnderTest) throws {
        let (first, _, url, _) = try savedCompany(store)
        let (second, secondStore) = try reopen(store, at: url)
        #expect(try employees(in: ManagedObjectContext(coordinator: second)) == Self.company)

        let writer = ManagedObjectContext(coordinator: first)
        let dee = try writer.insertNewObject(forEntityName: "Employee")
        try dee.setValue("Dee", forKey: "name")
        try writer.save()

        try second.remove(secondStore)
        try second.addPersistentStore(type: store.type, at: url)
        let reader = ManagedObjectContext(coordinator: second)
        #expect(try employees(in: reader) == (Self.company + ["Dee@-:0"]).sorted())
        #expect(try reader.existingObject(with: dee.objectID).value(forKey: "name") as? String == "Dee")
    }

    @Test("StoreType.detect tells the type from the content", arguments: StoreUnderTest.fileBacked)
    func detectOurFiles(store: StoreUnderTest) throws {
        let (_, _, url, _) = try savedCompany(store)
        #expect(try StoreType.detect(at: url) == store.type)
        // The name does not matter.
        let renamed = url.deletingLastPathComponent().appendingPathComponent("misleading.sqlite")
        try FileManager.default.copyItem(at: url, to: renamed)
        #expect(try StoreType.detect(at: renamed) == store.type)
        // Nor does it for a freshly created, empty store.
        let (_, empty) = try store.makeCoordinator(model: SampleModels.student())
        #expect(try StoreType.detect(at: try #require(empty.url)) == store.type)
    }

    @Test("StoreType.detect: SQLite by its header; nil for garbage and empty files; an error for a missing file")
    func detectOthers() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        func file(_ name: String, _ bytes: [UInt8]) throws -> URL {
            let url = folder.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url
        }
        #expect(try StoreType.detect(at: file("a.xml", Array("SQLite format 3\u{0}".utf8) + [UInt8](repeating: 0, count: 84)))
            == .sqlite)
        #expect(try StoreType.detect(at: file("b.binary", [])) == nil)
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(try StoreType.detect(at: file("c.binary", [0x00] + garbage)) == nil)
        #expect(try StoreType.detect(at: file("d.txt", Array("hello, world\n".utf8))) == nil)
        #expect(try StoreType.detect(at: file("e.xml", Array("<?xml version=\"1.0\"?><plist/>".utf8))) == nil)
        #expect(try StoreType.detect(at: file("f", Array("SQLite format 2\u{0}".utf8))) == nil)
        #expect(try StoreType.detect(at: file("g", Array(StoreType.binaryMagic.prefix(7)))) == nil)
        #expect(try StoreType.detect(at: file("h", [0xEF, 0xBB, 0xBF] + Array("<!-- c --><database>".utf8))) == .xml)
        #expect(try StoreType.detect(at: file("i", Array("<?xml version=\"1.0\"?>\n<!-- a > b -->\n<database>".utf8))) == .xml)
        #expect(try StoreType.detect(at: file("j", Array("<!DOCTYPE database [<!ELEMENT database ANY>]><database>".utf8))) == .xml)
        #expect(try StoreType.detect(at: file("k", Array("<!-- <database> -->\n<plist/>".utf8))) == nil)
        #expect(throws: StoreError.self) { try StoreType.detect(at: folder.appendingPathComponent("missing")) }
    }

    @Test("metadataForPersistentStore gives the UUID and version hashes without a model",
          arguments: StoreUnderTest.fileBacked)
    func metadataWithoutModel(store: StoreUnderTest) throws {
        let (_, persistentStore, url, _) = try savedCompany(store)
        let model = try SampleModels.company()
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: store.type, at: url)
        #expect(metadata[StoreMetadataKey.storeUUID] == .string(persistentStore.identifier))
        #expect(metadata[StoreMetadataKey.storeType] == .string(store.type.rawValue))
        #expect(metadata[StoreMetadataKey.modelVersionHashes]
            == .dictionary(model.entityVersionHashesByName.mapValues { .data($0) }))
        #expect(metadata[StoreMetadataKey.modelVersionHashes]?.dictionaryValue?.keys.sorted() == ["Employee", "Employer"])
        #expect(throws: StoreError.self) {
            try PersistentStoreCoordinator.metadataForPersistentStore(ofType: store.type, at: url.appendingPathExtension("missing"))
        }
    }

    @Test("a failed write throws StoreError.io, keeps the context's changes and the store's contents",
          arguments: StoreUnderTest.wholeFileWriters)
    func failedWrite(store: StoreUnderTest) throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (coordinator, _, url, ids) = try savedCompany(store, folder: folder)
        let context = ManagedObjectContext(coordinator: coordinator)
        let ann = try context.existingObject(with: ids[1])
        try ann.setValue("Annie", forKey: "name")
        let dee = try context.insertNewObject(forEntityName: "Employee")
        try dee.setValue("Dee", forKey: "name")
        let deeTemporary = dee.objectID
        try context.delete(context.existingObject(with: ids[3]))

        // Without its folder the temporary file cannot be created.
        try FileManager.default.removeItem(at: folder)
        do {
            try context.save()
            Issue.record("the save succeeded without a folder to write in")
        } catch let StoreError.io(file, operation, reason) {
            #expect(file == url.path)
            #expect(!operation.isEmpty && !reason.isEmpty)
        }
        #expect(context.hasChanges)
        #expect(context.insertedObjects.contains(dee))
        #expect(context.updatedObjects.contains(ann))
        #expect(context.deletedObjects.count == 1)
        #expect(dee.objectID == deeTemporary)
        #expect(context.registeredObject(for: deeTemporary) === dee)
        #expect(try ann.value(forKey: "name") as? String == "Annie")
        #expect(try employees(in: ManagedObjectContext(coordinator: coordinator)) == Self.company)

        // With the folder back, the same changes save.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try context.save()
        #expect(!context.hasChanges)
        #expect(!dee.objectID.isTemporaryID)
        #expect(context.registeredObject(for: dee.objectID) === dee)
        #expect(context.registeredObject(for: deeTemporary) == nil)
        let (again, _) = try reopen(store, at: url)
        #expect(try employees(in: ManagedObjectContext(coordinator: again)) == [
            "Annie@Acme:\(String((1.5 as Double).bitPattern, radix: 16))",
            "Bob@Acme:\(String((-0.0 as Double).bitPattern, radix: 16))",
            "Dee@-:0",
        ])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == [url.lastPathComponent])
    }
}
