import Foundation
import Strata
@_spi(StoreImplementation) import StrataBinary
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// A relationship in a store file that names an object the file does not hold (another program
/// deleted the row, edited the XML, wrote the binary file): reading keeps going on every store
/// type that can hold such data, and the store reports it. The relationship reads as nil, but
/// for an SQLite fetch, which gives a fault of the missing object that throws when fired.
@Suite("Dangling references")
struct DanglingReferenceTests {
    /// A store of the company model with Acme ← Alice and Bolt ← Bob, then Acme removed from
    /// the file behind Strata's back, leaving Alice's `whereIWork` naming it. Returns the file,
    /// Alice's ID and Acme's primary key.
    private func storeWithDanglingToOne(_ store: StoreUnderTest, model: ManagedObjectModel) throws
        -> (url: URL, alice: ManagedObjectID, acmeKey: Int64) {
        let (alice, acme, url): (ManagedObjectID, ManagedObjectID, URL) = try {
            let (coordinator, opened) = try store.makeCoordinator(model: model)
            let context = ManagedObjectContext(coordinator: coordinator)
            let acme = try context.insert("Employer", ["name": "Acme"])
            let bolt = try context.insert("Employer", ["name": "Bolt"])
            try context.insert("Employee", ["name": "Alice", "whereIWork": acme])
            try context.insert("Employee", ["name": "Bob", "whereIWork": bolt])
            try context.save()
            let alice = try #require(context.fetch(FetchRequest(entityName: "Employee")).first { try $0.string("name") == "Alice" })
            return (alice.objectID, acme.objectID, try #require(opened.url))
        }()
        let acmeKey = try #require(acme.primaryKey)
        switch store.type {
        case .sqlite:
            _ = try SQLiteShell.rows(url, "DELETE FROM ZEMPLOYER WHERE Z_PK = \(acmeKey)")
        case .xml:
            // Cut Acme's <object> element out of the text.
            var text = try String(contentsOf: url, encoding: .utf8)
            let name = try #require(text.range(of: ">Acme<"))
            let start = try #require(text.range(of: "<object ", options: .backwards, range: text.startIndex..<name.lowerBound))
            let end = try #require(text.range(of: "</object>\n", range: name.upperBound..<text.endIndex))
            text.removeSubrange(start.lowerBound..<end.upperBound)
            try Data(text.utf8).write(to: url)
        case .binary:
            // Rewrite the file without Acme, Alice still naming it (the writer writes references as given).
            var image = try BinaryStoreFormat().read(from: url, model: model)
            image.objects[acme] = nil
            try BinaryStoreFormat().write(image, to: url, model: model)
        default:
            Issue.record("no way to make a dangling reference in a \(store) store")
        }
        return (url, alice, acmeKey)
    }

    @Test("a to-one naming a missing object reads as nil, and the store reports it",
          arguments: StoreUnderTest.fileBacked)
    func danglingToOne(store: StoreUnderTest) throws {
        let model = try SampleModels.company()
        let (url, aliceID, acmeKey) = try storeWithDanglingToOne(store, model: model)

        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let opened = try coordinator.addPersistentStore(type: store.type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let employees = try context.fetch(sortedRequest("Employee"))
        #expect(try employees.map { try $0.string("name") } == ["Alice", "Bob"], "the fetch keeps going")
        let alice = try #require(employees.first)
        #expect(alice.objectID == aliceID)
        if store.type == .sqlite {
            // A fetch does not look up each to-one's row: the to-one is a fault of the missing
            // object. Fired, it becomes a deleted object (shouldDeleteInaccessibleFaults, the
            // default), or throws, naming it (Core Data's "could not fulfill a fault").
            let missing = ManagedObjectID(entityName: "Employer", storeIdentifier: opened.identifier, primaryKey: acmeKey)
            let destination = try #require(try alice.value(forKey: "whereIWork") as? ManagedObject)
            #expect(destination.objectID == missing)
            #expect(try destination.value(forKey: "name") == nil)
            #expect(destination.isDeleted)
            let strict = ManagedObjectContext(coordinator: coordinator)
            strict.shouldDeleteInaccessibleFaults = false
            let strictAlice = try strict.existingObject(with: aliceID)
            let strictDestination = try #require(try strictAlice.value(forKey: "whereIWork") as? ManagedObject)
            #expect(throws: ObjectError.objectNotFound(missing)) { try strictDestination.value(forKey: "name") }
        } else {
            #expect(try alice.value(forKey: "whereIWork") == nil, "the dangling to-one reads as nil")
            // As a fault fired on its own, too.
            let fresh = context.freshContext()
            #expect(try fresh.existingObject(with: aliceID).value(forKey: "whereIWork") == nil)
        }
        // Read whole (export, convert), the to-one is nil on every store type.
        let image = try opened.contentsImage()
        #expect(image.objects[aliceID] != nil)
        #expect(image.objects[aliceID]?.toOne["whereIWork"] == nil)
        #expect(try context.strings(sortedRequest("Employer")) == ["Bolt"])

        let checking = try #require(opened as? any IntegrityCheckingStore)
        let dangling = try checking.danglingReferences()
        #expect(dangling.count == 1, "\(dangling)")
        #expect(dangling.first?.source == aliceID)
        #expect(dangling.first?.relationship == "whereIWork")
        #expect(dangling.first?.destinationEntityName == "Employer")
        if store.type == .xml {
            #expect(dangling.first?.destinationName?.hasPrefix("z") == true, "the XML object id: \(dangling)")
        } else {
            #expect(dangling.first?.destinationPrimaryKey == acmeKey)
        }
        let problems = try checking.integrityProblems()
        #expect(problems.map(\.kindName) == ["dangling-reference"], "\(problems)")
        #expect(problems.first?.file == url.path)
        #expect(problems.first?.objectID == aliceID)

        // The store still saves.
        try alice.setValue("Alice B.", forKey: "name")
        try context.save()
        let after = context.freshContext()
        #expect(try after.strings(sortedRequest("Employee")) == ["Alice B.", "Bob"])
        if store.writesWholeFile {
            // The file written anew holds the objects' own references only.
            #expect(try checking.danglingReferences().isEmpty)
        } else {
            // SQLite writes the changed columns only: the dangling column stays as it was.
            #expect(try checking.danglingReferences().map(\.source) == [aliceID])
        }
    }

    @Test("a clean store reports no problems", arguments: StoreUnderTest.all.filter(\.checksIntegrity))
    func clean(store: StoreUnderTest) throws {
        let (coordinator, opened) = try store.makeCoordinator(model: SampleModels.company())
        let context = ManagedObjectContext(coordinator: coordinator)
        let acme = try context.insert("Employer", ["name": "Acme"])
        try context.insert("Employee", ["name": "Alice", "whereIWork": acme])
        try context.insert("Employee", ["name": "Bob"])
        try context.save()
        let checking = try #require(opened as? any IntegrityCheckingStore)
        #expect(try checking.danglingReferences().isEmpty)
        #expect(try checking.integrityProblems().isEmpty)
    }
}
