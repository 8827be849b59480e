import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@testable @_spi(StoreImplementation) import StrataSQLite
import StrataTestSupport
import Testing

/// What only the SQLite store has: Core Data's schema as another tool sees it, transactions that
/// roll back, and files that are not stores.
@Suite("SQLite store")
struct SQLiteStoreTests {
    /// Runs the `sqlite3` shell on `file` and returns its output lines.
    private func sqlite3(_ file: URL, _ sql: String) throws -> [String] { try SQLiteShell.rows(file, sql) }

    /// The School model: Person (abstract) → Student, Teacher; Course ⇄ Student many-to-many;
    /// Course → Lesson ordered one-to-many; Course.code unique.
    func schoolModel() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Person", isAbstract: true) {
                Attribute("name", .string, optional: false)
            }
            EntityDescription("Student", parent: "Person") {
                Attribute("year", .integer16)
                Relationship("courses", toMany: "Course", inverse: "students")
                Relationship("teacher", to: "Teacher", inverse: "students")
            }
            EntityDescription("Teacher", parent: "Person") {
                Attribute("salary", .decimal)
                Relationship("students", toMany: "Student", inverse: "teacher")
            }
            EntityDescription("Course", uniquenessConstraints: [["code"]]) {
                Attribute("code", .string, optional: false)
                Relationship("students", toMany: "Student", inverse: "courses")
                Relationship("lessons", toMany: "Lesson", inverse: "course", ordered: true)
            }
            EntityDescription("Lesson") {
                Attribute("topic", .string)
                Relationship("course", to: "Course", inverse: "lessons")
            }
        }
    }

    func open(_ url: URL, model: ManagedObjectModel) throws -> (PersistentStoreCoordinator, ManagedObjectContext) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        return (coordinator, ManagedObjectContext(coordinator: coordinator))
    }

    @Test("the file has Core Data's tables, columns, keys and metadata, as the sqlite3 tool sees them")
    func schemaFromOutside() throws {
        let model = try schoolModel()
        let url = try TemporaryFolder.make().appendingPathComponent("school.sqlite")
        do {
            let (_, context) = try open(url, model: model)
            let course = try context.insertNewObject(forEntityName: "Course")
            try course.setValue("MTH101", forKey: "code")
            let ada = try context.insertNewObject(forEntityName: "Student")
            try ada.setValue("Ada", forKey: "name")
            try ada.setValue(Int16(11), forKey: "year")
            try ada.add(course, to: "courses")
            let karl = try context.insertNewObject(forEntityName: "Teacher")
            try karl.setValue("Karl", forKey: "name")
            try karl.setValue(Decimal(string: "61234.56"), forKey: "salary")
            try ada.setValue(karl, forKey: "teacher")
            for topic in ["Limits", "Series"] {
                let lesson = try context.insertNewObject(forEntityName: "Lesson")
                try lesson.setValue(topic, forKey: "topic")
                try course.insert(lesson, at: 0, in: "lessons")
            }
            try context.save()
        }
        let tables = try sqlite3(url, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        #expect(tables == ["ZCOURSE", "ZLESSON", "ZPERSON", "Z_1STUDENTS", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"])
        // The compiled model, as Core Data keeps it: one row of raw DEFLATE.
        #expect(try sqlite3(url, "SELECT sql FROM sqlite_master WHERE name = 'Z_MODELCACHE'") == ["CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"])
        #expect(try sqlite3(url, "SELECT COUNT(*), length(Z_CONTENT) > 1000 FROM Z_MODELCACHE") == ["1|1"])
        #expect(try sqlite3(url, "SELECT name FROM pragma_table_info('ZPERSON')")
                == ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZYEAR", "ZTEACHER", "ZSALARY"])
        #expect(try sqlite3(url, "SELECT name FROM pragma_table_info('ZLESSON')") == ["Z_PK", "Z_ENT", "Z_OPT", "ZTOPIC", "ZCOURSE", "Z_FOK_COURSE"])
        #expect(try sqlite3(url, "SELECT name FROM pragma_table_info('Z_1STUDENTS')") == ["Z_1COURSES", "Z_4STUDENTS"])
        #expect(try sqlite3(url, "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                == ["1|Course|0|1", "2|Lesson|0|2", "3|Person|0|2", "4|Student|3|0", "5|Teacher|3|0"])
        #expect(try sqlite3(url, "SELECT Z_ENT, ZNAME, ZYEAR, ZTEACHER, ZSALARY FROM ZPERSON ORDER BY Z_PK")
                == ["4|Ada|11|2|", "5|Karl|||61234.56"])
        // Inserted at position 0 each time: Series first, then Limits.
        #expect(try sqlite3(url, "SELECT ZTOPIC, ZCOURSE, Z_FOK_COURSE FROM ZLESSON ORDER BY Z_FOK_COURSE") == ["Series|1|1", "Limits|1|2"])
        #expect(try sqlite3(url, "SELECT Z_1COURSES, Z_4STUDENTS FROM Z_1STUDENTS") == ["1|1"])
        #expect(try sqlite3(url, "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'Z_Course_UNIQUE%'") == ["Z_Course_UNIQUE_code"])
        // As in Core Data's own files: an entity index only on the table of a tree with sub-entities.
        #expect(try sqlite3(url, "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%Z_ENT_INDEX' ORDER BY name")
                == ["ZPERSON_Z_ENT_INDEX"])
        #expect(try sqlite3(url, "PRAGMA journal_mode") == ["wal"])
        let uuid = try #require(try sqlite3(url, "SELECT Z_UUID FROM Z_METADATA").first)
        let metadata = try SQLiteStore.readMetadata(at: url)
        #expect(metadata[StoreMetadataKey.storeUUID] == .string(uuid))
        #expect(metadata[StoreMetadataKey.storeType] == .string("SQLite"))
        #expect(metadata[StoreMetadataKey.modelVersionHashes] == .dictionary(model.entityVersionHashesByName.mapValues { .data($0) }))
        #expect(try StoreType.detect(at: url) == .sqlite)
    }

    @Test("a save that breaks a uniqueness constraint half-way changes nothing and keeps the context's changes")
    func failedSaveRollsBack() throws {
        let model = try schoolModel()
        let url = try TemporaryFolder.make().appendingPathComponent("school.sqlite")
        let (coordinator, context) = try open(url, model: model)
        let first = try context.insertNewObject(forEntityName: "Course")
        try first.setValue("MTH101", forKey: "code")
        try context.save()

        let renamed = try context.existingObject(with: first.objectID)
        try renamed.setValue("PHY110", forKey: "code")
        let fresh = try context.insertNewObject(forEntityName: "Course")
        try fresh.setValue("ART100", forKey: "code")
        let clash = try context.insertNewObject(forEntityName: "Course")
        try clash.setValue("ART100", forKey: "code")
        do {
            try context.save()
            Issue.record("saved two courses with the code ART100")
        } catch StoreError.constraintConflict(let conflicts) {
            #expect(conflicts.count == 1)
            #expect(conflicts.first?.entityName == "Course")
            #expect(conflicts.first?.properties == ["code"])
            // Within one save: both new objects, no stored row.
            #expect(conflicts.first?.databaseObjectID == nil)
            #expect(Set(conflicts.first?.conflictingObjectIDs ?? []) == [fresh.objectID, clash.objectID])
            #expect([fresh.objectID, clash.objectID].contains(try #require(conflicts.first?.objectID)))
        }
        #expect(context.hasChanges)
        #expect(context.insertedObjects.count == 2)
        #expect(context.updatedObjects.contains(renamed))

        let other = ManagedObjectContext(coordinator: coordinator)
        let codes = try other.fetch(FetchRequest(entityName: "Course")).map { try $0.value(forKey: "code") as? String }
        #expect(codes == ["MTH101"], "the store holds what it held before the failed save")
        #expect(try sqlite3(url, "SELECT count(*) FROM ZCOURSE") == ["1"])

        try clash.setValue("ART200", forKey: "code")
        try context.save()
        #expect(try sqlite3(url, "SELECT ZCODE FROM ZCOURSE ORDER BY Z_PK") == ["PHY110", "ART100", "ART200"])
    }

    @Test("SQL in values is data: quotes, semicolons and comments are stored as written")
    func sqlInValues() throws {
        let model = try schoolModel()
        let url = try TemporaryFolder.make().appendingPathComponent("school.sqlite")
        let hostile = "x'); DROP TABLE ZCOURSE; -- \" ` \\ \u{0} ;"
        let (_, context) = try open(url, model: model)
        let course = try context.insertNewObject(forEntityName: "Course")
        try course.setValue(hostile, forKey: "code")
        try context.save()
        let reader = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        let found = try reader.fetch(FetchRequest(entityName: "Course", predicate: try ObjectPredicate(format: "code == %@", hostile)))
        #expect(found.count == 1)
        #expect(try found.first?.value(forKey: "code") as? String == hostile)
        #expect(try sqlite3(url, "SELECT count(*) FROM ZCOURSE") == ["1"])
    }

    @Test("a file that is not a database, a foreign database or a truncated store is a corruptStore error")
    func notAStore() throws {
        let model = try schoolModel()
        let folder = try TemporaryFolder.make()

        let text = folder.appendingPathComponent("text.sqlite")
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: text)
        #expect { try SQLiteStore(description: StoreDescription(type: .sqlite, url: text, model: model)) } throws: { error in
            guard case StoreError.corruptStore(let file, _, _) = error else { return false }
            return file == text.path
        }

        let foreign = folder.appendingPathComponent("foreign.sqlite")
        _ = try sqlite3(foreign, "CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('x');")
        #expect { try SQLiteStore(description: StoreDescription(type: .sqlite, url: foreign, model: model)) } throws: { error in
            guard case StoreError.corruptStore(_, _, let reason) = error else { return false }
            return reason.contains("not a Core Data store")
        }
        #expect(try sqlite3(foreign, "SELECT name FROM people") == ["x"], "a foreign database is left as it was")

        let store = folder.appendingPathComponent("store.sqlite")
        do {
            let (_, context) = try open(store, model: model)
            for index in 0..<200 {
                let course = try context.insertNewObject(forEntityName: "Course")
                try course.setValue("C\(index)", forKey: "code")
            }
            try context.save()
        }
        _ = try sqlite3(store, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;")
        let bytes = try Data(contentsOf: store)
        // (An empty file is an empty database, which opens as a new store, as in Core Data.)
        for length in [50, 100, 512, 4096, bytes.count / 2] where length < bytes.count {
            let truncated = folder.appendingPathComponent("truncated-\(length).sqlite")
            try bytes.prefix(length).write(to: truncated)
            // A cut that leaves the schema readable shows up when the rows are read.
            let error = #expect(throws: StoreError.self, "a store cut at \(length) of \(bytes.count) bytes") {
                let opened = try SQLiteStore(description: StoreDescription(type: .sqlite, url: truncated, model: model))
                _ = try opened.fetch(StoreFetchRequest(entityNames: ["Course"]))
            }
            guard let error else { continue }
            guard case .corruptStore(let file, _, _) = error else {
                Issue.record("a store cut at \(length) of \(bytes.count) bytes: \(error), not corruptStore")
                continue
            }
            #expect(file == truncated.path, "a store cut at \(length) of \(bytes.count) bytes")
        }
    }

    @Test("another model version is refused by name, without touching the file")
    func incompatibleModel() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("school.sqlite")
        _ = try open(url, model: schoolModel())
        let other = try ManagedObjectModel {
            EntityDescription("Course") { Attribute("code", .integer32) }
        }
        #expect { try SQLiteStore(description: StoreDescription(type: .sqlite, url: url, model: other)) } throws: { error in
            guard case StoreError.incompatibleModel(_, let entities) = error else { return false }
            return entities.contains("Course")
        }
    }
}

extension SQLiteStoreTests {
    @Test("many snapshots at once: one query per table and 512 keys, in the order asked, unknown and foreign IDs left out")
    func manySnapshots() throws {
        let model = try schoolModel()
        let url = try TemporaryFolder.make().appendingPathComponent("school.sqlite")
        let (coordinator, context) = try open(url, model: model)
        var courses: [ManagedObject] = []
        for index in 0..<1200 {
            let course = try context.insertNewObject(forEntityName: "Course")
            try course.setValue("C\(index)", forKey: "code")
            courses.append(course)
        }
        try context.save()
        let ids = courses.map(\.objectID)   // permanent since the save
        let store = try #require(coordinator.persistentStores.first)
        let wanted = Array(ids.reversed()) + [
            ManagedObjectID(entityName: "Course", storeIdentifier: store.identifier, primaryKey: 99_999),
            ManagedObjectID(entityName: "Lesson", storeIdentifier: store.identifier, primaryKey: 1),
            ManagedObjectID(entityName: "Course", storeIdentifier: "ANOTHER-STORE", primaryKey: 1),
        ]
        let sqlite = try #require(store as? SQLiteStore)
        let (snapshots, statements) = try statementsRun(on: sqlite) { try sqlite.snapshots(for: wanted) }
        #expect(snapshots.map(\.objectID) == Array(ids.reversed()))
        #expect(snapshots.first?.attributes["code"] == .string("C1199"))
        // 1,201 course keys (the unknown one included) in lists of at most 512: three queries of
        // ZCOURSE; one of ZLESSON; the foreign ID costs none. Nothing else runs.
        let keysPerQuery = 512
        let courseQueries = (ids.count + 1 + keysPerQuery - 1) / keysPerQuery
        #expect(statements.filter { $0.contains("FROM ZCOURSE WHERE Z_PK IN (") }.count == courseQueries, "\(statements)")
        #expect(statements.filter { $0.contains("FROM ZLESSON WHERE Z_PK IN (") }.count == 1, "\(statements)")
        #expect(statements.count == courseQueries + 1, "\(statements)")
    }
}

extension SQLiteStoreTests {
    @Test("a compound index and an indexed attribute are indexes of the entity's table, columns in order, and fetches use them")
    func compoundIndex() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Trip", indexes: [
                FetchIndexDescription(name: "byCityAndDay", elements: [.init(property: "city"), .init(property: "day", ascending: false)]),
            ]) {
                Attribute("day", .integer32)
                Attribute("city", .string)
                Attribute("rating", .integer16, indexed: true)
            }
            // Another table with a column of the same name, which the index must not be on.
            EntityDescription("Note") { Attribute("city", .string) }
        }
        let url = try TemporaryFolder.make().appendingPathComponent("trips.sqlite")
        let (coordinator, context) = try open(url, model: model)
        for (city, day, rating) in [("Paris", 1, 3), ("Paris", 2, 5), ("Rome", 1, 4), ("Paris", 3, 4)] {
            let trip = try context.insertNewObject(forEntityName: "Trip")
            try trip.setValuesForKeys(["city": city, "day": Int32(day), "rating": Int16(rating)])
        }
        try context.save()

        // As the sqlite3 tool sees the file: each index on ZTRIP, its columns in the declared
        // order (not the attributes' order), the compound one descending on its second.
        #expect(try sqlite3(url, "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND name IN ('Z_Trip_byCityAndDay', 'ZTRIP_ZRATING_INDEX') ORDER BY name")
                == ["ZTRIP_ZRATING_INDEX|ZTRIP", "Z_Trip_byCityAndDay|ZTRIP"])
        #expect(try sqlite3(url, "SELECT seqno, name, desc, coll FROM pragma_index_xinfo('Z_Trip_byCityAndDay') WHERE key = 1 ORDER BY seqno")
                == ["0|ZCITY|0|BINARY", "1|ZDAY|1|BINARY"])
        #expect(try sqlite3(url, "SELECT seqno, name FROM pragma_index_info('ZTRIP_ZRATING_INDEX') ORDER BY seqno") == ["0|ZRATING"])
        #expect(try sqlite3(url, "SELECT name FROM pragma_index_list('ZNOTE')").isEmpty)

        // A fetch on both columns searches the compound index on both; one on the rating, its own.
        let store = try #require(coordinator.persistentStores.first as? SQLiteStore)
        let both = StoreFetchRequest(entityNames: ["Trip"], predicate: try ObjectPredicate(format: "city == 'Paris' AND day == 2"))
        let plan = try store.queryPlan(for: both)
        #expect(plan.contains { $0.contains("USING INDEX Z_Trip_byCityAndDay (ZCITY=? AND ZDAY=?)") }, "\(plan)")
        let rated = StoreFetchRequest(entityNames: ["Trip"], predicate: try ObjectPredicate(format: "rating == 4"))
        let ratingPlan = try store.queryPlan(for: rated)
        #expect(ratingPlan.contains { $0.contains("USING INDEX ZTRIP_ZRATING_INDEX (ZRATING=?)") }, "\(ratingPlan)")
        // And the fetch it plans finds the one row.
        let found = try store.fetch(both)
        #expect(found.map { $0.attributes["rating"] } == [.integer(5)])
    }

    @Test("sibling entities that each declare an attribute of one name, of different types, keep their own values")
    func siblingAttributes() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Thing", isAbstract: true) { Attribute("name", .string) }
            EntityDescription("Counter", parent: "Thing") { Attribute("value", .integer64) }
            EntityDescription("Label", parent: "Thing") { Attribute("value", .string) }
        }
        let url = try TemporaryFolder.make().appendingPathComponent("things.sqlite")
        do {
            let (_, context) = try open(url, model: model)
            let counter = try context.insertNewObject(forEntityName: "Counter")
            try counter.setValue(Int64(42), forKey: "value")
            let label = try context.insertNewObject(forEntityName: "Label")
            try label.setValue("42", forKey: "value")
            let zero = try context.insertNewObject(forEntityName: "Label")
            try zero.setValue("007", forKey: "value")
            try context.save()
        }
        #expect(try sqlite3(url, "SELECT name, type FROM pragma_table_info('ZTHING') WHERE name LIKE 'ZVALUE%'") == ["ZVALUE|BLOB"])
        let (_, context) = try open(url, model: model)
        let counters = try context.fetch(FetchRequest(entityName: "Counter")).map { try $0.value(forKey: "value") as? Int64 }
        let labels = try context.fetch(FetchRequest(entityName: "Label", sortDescriptors: [ObjectSortDescriptor(key: "value")]))
            .map { try $0.value(forKey: "value") as? String }
        #expect(counters == [42])
        #expect(labels == ["007", "42"])
        let found = try context.fetch(FetchRequest(entityName: "Label", predicate: try ObjectPredicate(format: "value == '007'")))
        #expect(found.count == 1)
    }
}
