import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@testable import StrataSQLite
import StrataTestSupport
import Testing

/// A save of more new objects than ``StoreOption/sqliteNewObjectsPerPart`` hands them to the
/// SQLite store a part at a time, inside one transaction, leaving out the to-manys the
/// destinations' rows carry; the saved objects then read and change as after any save.
@Suite("SQLite store: saves of new objects in parts")
struct SQLitePartedSaveTests {
    static func model(ordered: Bool = false, constrained: Bool = false) throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Person", uniquenessConstraints: constrained ? [["name"]] : []) {
                Attribute("name", .string)
                Relationship("pets", toMany: "Pet", inverse: "owner", ordered: ordered)
                Relationship("friends", toMany: "Person", inverse: "friends")
            }
            EntityDescription("Pet") {
                Attribute("name", .string)
                Relationship("owner", to: "Person", inverse: "pets")
            }
        }
    }

    /// A coordinator on a new file whose store takes `perPart` new objects a part.
    static func open(_ url: URL, model: ManagedObjectModel, perPart: Int64 = 3,
                     options: [String: PropertyListValue] = [:]) throws -> (PersistentStoreCoordinator, SQLiteStore) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        var all = options
        all[StoreOption.sqliteNewObjectsPerPart] = .integer(perPart)
        let store = try #require(try coordinator.addPersistentStore(type: .sqlite, at: url, options: all) as? SQLiteStore)
        return (coordinator, store)
    }

    /// Ten persons, the first seven with pets (person i has i mod 3 of them), persons 0 and 1
    /// friends; inserted pets first for half of them, so that parts mix owners and pets.
    static func insertFamilies(_ context: ManagedObjectContext) throws -> [ManagedObject] {
        var persons: [ManagedObject] = []
        for index in 0..<10 {
            let person = try context.insertNewObject(forEntityName: "Person")
            try person.setValue("p\(index)", forKey: "name")
            persons.append(person)
        }
        for index in 0..<7 {
            for pet in 0..<(index % 3) {
                let animal = try context.insertNewObject(forEntityName: "Pet")
                try animal.setValue("p\(index)-\(pet)", forKey: "name")
                try animal.setValue(persons[index], forKey: "owner")
            }
        }
        try persons[0].setValue(Set([persons[1]]), forKey: "friends")
        return persons
    }

    /// Each pet's name and its owner's, in name order: what the file holds.
    static func petsAndOwners(_ file: URL) throws -> [String] {
        try SQLiteShell.rows(file, "SELECT ZPET.ZNAME || ':' || ifnull(ZPERSON.ZNAME, '-') FROM ZPET LEFT JOIN ZPERSON ON ZPERSON.Z_PK = ZPET.ZOWNER ORDER BY ZPET.ZNAME")
    }

    @Test("every row and relationship lands in one transaction, as a whole save writes them")
    func landsAsWhole() throws {
        let folder = try TemporaryFolder.make()
        let model = try Self.model()
        var files: [URL] = []
        for perPart in [Int64(3), 1_000] {
            let url = folder.appendingPathComponent("families-\(perPart).sqlite")
            let (coordinator, store) = try Self.open(url, model: model, perPart: perPart)
            #expect(store.newObjectsPerPart(ofSaving: 17) == (perPart == 3 ? 3 : nil))
            let context = ManagedObjectContext(coordinator: coordinator)
            _ = try Self.insertFamilies(context)
            let (_, sql) = try statementsRun(on: store) { try context.save() }
            // Two for the keys of each root entity, one for the rows.
            #expect(sql.filter { $0.hasPrefix("BEGIN") }.count == 3)
            #expect(sql.filter { $0 == "COMMIT" }.count == 3)
            #expect(!context.hasChanges)
            files.append(url)
        }
        #expect(try Self.petsAndOwners(files[0]) == Self.petsAndOwners(files[1]))
        #expect(try Self.petsAndOwners(files[0]) == ["p1-0:p1", "p2-0:p2", "p2-1:p2", "p4-0:p4", "p5-0:p5", "p5-1:p5"])
        #expect(try SQLiteShell.rows(files[0], "SELECT count(*) FROM ZPERSON") == ["10"])
        let friends = "SELECT Z_1FRIENDS || '-' || Z_1FRIENDS1 FROM Z_1FRIENDS ORDER BY 1"
        #expect(try SQLiteShell.rows(files[0], friends) == SQLiteShell.rows(files[1], friends))
        #expect(try SQLiteShell.rows(files[0], friends).isEmpty == false)
    }

    @Test("the saved objects read, change, roll back and save again after a save in parts")
    func savedObjectsBehave() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("after.sqlite")
        let (coordinator, _) = try Self.open(url, model: Self.model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let persons = try Self.insertFamilies(context)
        try context.save()
        let two = persons[2]
        let pets = try #require(try two.value(forKey: "pets") as? Set<ManagedObject>)
        #expect(Set(try pets.map { try #require(try $0.value(forKey: "name") as? String) }) == ["p2-0", "p2-1"])

        // An attribute change leaves the to-many out of the changes; the saved pets are read.
        try two.setValue("Two", forKey: "name")
        #expect(Set(two.changedValues().keys) == ["name"])
        let saved = try #require(try two.committedValues(forKeys: ["pets"])["pets"] as? Set<ManagedObject>)
        #expect(saved == pets)

        // A pet moved away and rolled back returns; moved and saved, it lands.
        let moved = try #require(pets.first { (try? $0.value(forKey: "name") as? String) == "p2-0" })
        try moved.setValue(persons[9], forKey: "owner")
        #expect(Set(two.changedValues().keys) == ["name", "pets"])
        context.rollback()
        #expect(try two.value(forKey: "pets") as? Set<ManagedObject> == pets)
        #expect(try two.value(forKey: "name") as? String == "p2")
        try moved.setValue(persons[9], forKey: "owner")
        try context.save()
        #expect(try Self.petsAndOwners(url).contains("p2-0:p9"))

        // A new coordinator reads the same graph.
        let (reader, _) = try Self.open(url, model: Self.model())
        let readContext = ManagedObjectContext(coordinator: reader)
        var request = FetchRequest(entityName: "Person")
        request.predicate = try ObjectPredicate(format: "name == %@", "p9")
        let nine = try #require(try readContext.fetch(request).first)
        #expect(try (nine.value(forKey: "pets") as? Set<ManagedObject>)?.count == 1)
    }

    @Test("a conflict in the last part leaves nothing in the file; resolved, the save lands whole")
    func conflictRollsBackEveryPart() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("conflict.sqlite")
        let (coordinator, _) = try Self.open(url, model: Self.model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let first = try context.insertNewObject(forEntityName: "Person")
        try first.setValue("first", forKey: "name")
        try context.save()

        // Another context saves a change of the person this context then changes too.
        let otherContext = ManagedObjectContext(coordinator: coordinator)
        try otherContext.existingObject(with: first.objectID).setValue("elsewhere", forKey: "name")
        try otherContext.save()

        try first.setValue("here", forKey: "name")
        let persons = try Self.insertFamilies(context)
        #expect(throws: StoreError.self) { try context.save() }
        #expect(try SQLiteShell.rows(url, "SELECT count(*) FROM ZPERSON") == ["1"])
        #expect(try SQLiteShell.rows(url, "SELECT count(*) FROM ZPET") == ["0"])
        #expect(persons.allSatisfy { $0.objectID.isTemporaryID })
        #expect(context.insertedObjects.count == 16)

        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        #expect(try SQLiteShell.rows(url, "SELECT count(*) FROM ZPERSON") == ["11"])
        #expect(try Self.petsAndOwners(url).count == 6)
        #expect(try SQLiteShell.rows(url, "SELECT ZNAME FROM ZPERSON WHERE Z_PK = 1") == ["here"])
    }

    @Test("a part that fails leaves out every part before it")
    func failedPartRollsBack() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("failed.sqlite")
        let (_, store) = try Self.open(url, model: Self.model())
        let keys = try store.allocatePrimaryKeys(rootEntity: "Person", count: 4)
        func person(_ key: Int64) -> ObjectSnapshot {
            ObjectSnapshot(objectID: ManagedObjectID(entityName: "Person", storeIdentifier: store.identifier, primaryKey: key),
                           attributes: ["name": .string("p\(key)")])
        }
        struct Stop: Error {}
        var parts = [StoreSaveRequest(inserted: [person(keys[0]), person(keys[1])]), StoreSaveRequest(inserted: [person(keys[2])])]
        #expect(throws: Stop.self) {
            try store.save(inParts: {
                guard !parts.isEmpty else { throw Stop() }
                return parts.removeFirst()
            })
        }
        #expect(try SQLiteShell.rows(url, "SELECT count(*) FROM ZPERSON") == ["0"])
        parts = [StoreSaveRequest(inserted: [person(keys[0]), person(keys[1])]), StoreSaveRequest(inserted: [person(keys[3])])]
        try store.save(inParts: { parts.isEmpty ? nil : parts.removeFirst() })
        #expect(try SQLiteShell.rows(url, "SELECT ZNAME FROM ZPERSON ORDER BY Z_PK") == ["p1", "p2", "p4"])
    }

    @Test("a pet in a new person's to-many that does not hold the person is written from the to-many, as a whole save does")
    func toManyNotHeldGoesWhole() throws {
        let folder = try TemporaryFolder.make()
        let model = try Self.model()
        var files: [URL] = []
        for perPart in [Int64(2), 1_000] {
            let url = folder.appendingPathComponent("refreshed-\(perPart).sqlite")
            let (coordinator, _) = try Self.open(url, model: model, perPart: perPart)
            let context = ManagedObjectContext(coordinator: coordinator)
            let rex = try context.insertNewObject(forEntityName: "Pet")
            try rex.setValue("rex", forKey: "name")
            try context.save()
            // Rex moves to a new person, then its own change is refreshed away: the person's
            // to-many still lists it, its row does not name the person.
            let persons = try Self.insertFamilies(context)
            try rex.setValue(persons[8], forKey: "owner")
            try context.refresh(rex, mergeChanges: false)
            try context.save()
            files.append(url)
        }
        #expect(try Self.petsAndOwners(files[0]) == Self.petsAndOwners(files[1]))
    }

    @Test("a save goes whole where a part cannot be written alone", arguments: ["history", "ordered", "constrained", "small"])
    func wholeWhereNeeded(_ case: String) throws {
        let url = try TemporaryFolder.make().appendingPathComponent("\(`case`).sqlite")
        let model = try Self.model(ordered: `case` == "ordered", constrained: `case` == "constrained")
        let options: [String: PropertyListValue] = `case` == "history" ? [StoreOption.persistentHistoryTracking: .bool(true)] : [:]
        let (coordinator, store) = try Self.open(url, model: model, options: options)
        #expect(store.newObjectsPerPart(ofSaving: `case` == "small" ? 3 : 17) == nil)
        let context = ManagedObjectContext(coordinator: coordinator)
        _ = try Self.insertFamilies(context)
        try context.save()
        #expect(try Self.petsAndOwners(url).count == 6)
        if `case` == "ordered" {
            #expect(try SQLiteShell.rows(url, "SELECT group_concat(Z_FOK_OWNER) FROM (SELECT Z_FOK_OWNER FROM ZPET WHERE ZNAME LIKE 'p5-%' ORDER BY ZNAME)") == ["1,2"])
        }
    }

    @Test("a part size that is not a whole number of at least 1 is refused when the store opens",
          arguments: [PropertyListValue.integer(0), .integer(-3), .string("many")])
    func badPartSizeRefused(_ value: PropertyListValue) throws {
        let url = try TemporaryFolder.make().appendingPathComponent("bad.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        #expect(throws: StoreError.self) {
            try coordinator.addPersistentStore(type: .sqlite, at: url, options: [StoreOption.sqliteNewObjectsPerPart: value])
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
