import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// Batch requests on the SQLite store, checked from outside with the `sqlite3` tool: rows and
/// their values, `Z_PRIMARYKEY`, `Z_OPT`, join rows and foreign keys, and rows never read.
@Suite("SQLite batch requests")
struct SQLiteBatchTests {
    private func sqlite3(_ file: URL, _ sql: String) throws -> [String] { try SQLiteShell.rows(file, sql) }

    /// Entity codes: Course 1, Lesson 2, Person 3, Student 4, Teacher 5. Course ⇄ Student lives
    /// in Z_1STUDENTS; Course ⇒ Lesson is ordered and cascades; Teacher → Student nullifies.
    private func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Person", isAbstract: true) {
                Attribute("name", .string, optional: false)
            }
            EntityDescription("Student", parent: "Person") {
                Attribute("year", .integer16)
                Attribute("born", .date)
                Attribute("card", .uuid)
                Attribute("active", .boolean)
                Attribute("score", .double)
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
                Relationship("lessons", toMany: "Lesson", inverse: "course", ordered: true, deleteRule: .cascade)
            }
            EntityDescription("Lesson") {
                Attribute("topic", .string)
                Relationship("course", to: "Course", inverse: "lessons")
            }
        }
    }

    private func open(_ url: URL) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        return ManagedObjectContext(coordinator: coordinator)
    }

    private func newStore() throws -> (URL, ManagedObjectContext) {
        let url = try TemporaryFolder.make().appendingPathComponent("school.sqlite")
        return (url, try open(url))
    }

    @Test("an insert writes rows with keys from Z_PRIMARYKEY, Z_OPT 1, and values in Core Data's column forms")
    func insertRows() throws {
        let (url, context) = try newStore()
        try context.insertNewObject(forEntityName: "Course").setValue("MTH101", forKey: "code")
        try context.save()

        var courses = BatchInsertRequest(entityName: "Course", objects: [["code": "A"], ["code": "B"], ["code": "C"]])
        courses.resultType = .objectIDs
        #expect(try context.execute(courses).objectIDs?.compactMap(\.primaryKey) == [2, 3, 4])
        #expect(try sqlite3(url, "SELECT Z_PK, Z_ENT, Z_OPT, ZCODE FROM ZCOURSE ORDER BY Z_PK")
            == ["1|1|1|MTH101", "2|1|1|A", "3|1|1|B", "4|1|1|C"])
        #expect(try sqlite3(url, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_MAX > 0") == ["Course|4"])

        // 1,500 students of a sub-entity: many multi-row statements, one transaction.
        let card = UUID(uuid: (0xA0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xFF))
        var students: [[String: Any?]] = []
        for i in 1...1_500 {
            var values: [String: Any?] = ["name": "s\(i)", "year": i % 12, "card": card, "active": i.isMultiple(of: 2)]
            values["born"] = Date(timeIntervalSinceReferenceDate: Double(i) + 0.25)
            values["score"] = i == 7 ? Double.nan : Double(i) / 4
            students.append(values)
        }
        var insert = BatchInsertRequest(entityName: "Student", objects: students)
        insert.resultType = .count
        #expect(try context.execute(insert).count == 1_500)
        #expect(try sqlite3(url, "SELECT count(*), min(Z_PK), max(Z_PK), min(Z_ENT), max(Z_ENT), min(Z_OPT), max(Z_OPT) FROM ZPERSON")
            == ["1500|1|1500|4|4|1|1"])
        #expect(try sqlite3(url, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_MAX > 0 ORDER BY Z_ENT") == ["Course|4", "Person|1500"])
        #expect(try sqlite3(url, "SELECT ZNAME, ZYEAR, ZBORN, hex(ZCARD), ZACTIVE, ZSCORE, ZTEACHER FROM ZPERSON WHERE Z_PK = 6")
            == ["s6|6|6.25|A00102030405060708090A0B0C0D0EFF|1|1.5|"])
        #expect(try sqlite3(url, "SELECT typeof(ZSCORE), hex(ZSCORE) FROM ZPERSON WHERE Z_PK = 7") == ["blob|7FF8000000000000"])
        #expect(try sqlite3(url, "SELECT count(*) FROM ZPERSON WHERE ZACTIVE = 1") == ["750"])

        // The next save takes the next key.
        let teacher = try context.insertNewObject(forEntityName: "Teacher")
        try teacher.setValue("Karl", forKey: "name")
        try context.save()
        #expect(teacher.objectID.primaryKey == 1_501)
    }

    @Test("a refused insert leaves no row and Z_PRIMARYKEY as it was")
    func refusedInsert() throws {
        let (url, context) = try newStore()
        _ = try context.execute(BatchInsertRequest(entityName: "Course", objects: [["code": "A"], ["code": "B"]]))
        let error = try #require(throws: BatchRequestError.self) {
            try context.execute(BatchInsertRequest(entityName: "Course", objects: (0..<300).map { ["code": $0 == 250 ? "B" : "N\($0)"] }))
        }
        guard case let .constraintConflict(index, _, _, otherIndex, existing) = error else {
            Issue.record("expected a constraint conflict, got \(error)")
            return
        }
        #expect(index == 250 && otherIndex == nil && existing?.primaryKey == 2)
        #expect(try sqlite3(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Course'") == ["2"])
        #expect(try sqlite3(url, "SELECT count(*) FROM ZCOURSE") == ["2"])
    }

    @Test("an update sets columns and raises Z_OPT of the matching rows only")
    func updateRaisesZOPT() throws {
        let (url, context) = try newStore()
        _ = try context.execute(BatchInsertRequest(entityName: "Student", objects: (1...6).map { (i: Int) -> [String: Any?] in ["name": "s\(i)", "year": i] }))
        var request = BatchUpdateRequest(entityName: "Person", predicate: try ObjectPredicate(format: "year >= 4"),
                                         propertiesToUpdate: ["name": "senior"])
        request.resultType = .count
        #expect(try context.execute(request).count == 3)
        #expect(try sqlite3(url, "SELECT Z_PK, Z_OPT, ZNAME FROM ZPERSON ORDER BY Z_PK")
            == ["1|1|s1", "2|1|s2", "3|1|s3", "4|2|senior", "5|2|senior", "6|2|senior"])
        _ = try context.execute(BatchUpdateRequest(entityName: "Student", propertiesToUpdate: ["active": true]))
        #expect(try sqlite3(url, "SELECT group_concat(Z_OPT), group_concat(ZACTIVE) FROM ZPERSON") == ["2,2,2,3,3,3|1,1,1,1,1,1"])
        #expect(context.registeredObjects.isEmpty)
    }

    @Test("a delete removes join rows, cascades through SQL, nullifies foreign keys and raises Z_OPT of the rows left")
    func deleteRows() throws {
        let (url, context) = try newStore()
        let course = try context.insertNewObject(forEntityName: "Course")
        try course.setValue("MTH101", forKey: "code")
        let other = try context.insertNewObject(forEntityName: "Course")
        try other.setValue("ART100", forKey: "code")
        let karl = try context.insertNewObject(forEntityName: "Teacher")
        try karl.setValue("Karl", forKey: "name")
        var students: [ManagedObject] = []
        for name in ["Ada", "Bob", "Cy"] {
            let student = try context.insertNewObject(forEntityName: "Student")
            try student.setValue(name, forKey: "name")
            try student.add(course, to: "courses")
            students.append(student)
        }
        try students[0].add(other, to: "courses")
        try students[0].setValue(karl, forKey: "teacher")
        try students[1].setValue(karl, forKey: "teacher")
        for topic in ["Limits", "Series", "Proofs"] {
            let lesson = try context.insertNewObject(forEntityName: "Lesson")
            try lesson.setValue(topic, forKey: "topic")
            try course.add(lesson, to: "lessons")
        }
        try context.save()
        #expect(try sqlite3(url, "SELECT count(*) FROM Z_1STUDENTS") == ["4"])
        let courseID = course.objectID, karlID = karl.objectID
        context.reset()

        var request = BatchDeleteRequest(objectIDs: [courseID])
        request.resultType = .objectIDs
        let result = try context.execute(request)
        #expect(result.count == 4, "the course and its three lessons")
        #expect(try sqlite3(url, "SELECT count(*) FROM ZLESSON") == ["0"])
        #expect(try sqlite3(url, "SELECT ZCODE FROM ZCOURSE") == ["ART100"])
        #expect(try sqlite3(url, "SELECT Z_1COURSES, Z_4STUDENTS FROM Z_1STUDENTS") == ["2|2"])
        #expect(try sqlite3(url, "SELECT ZNAME, Z_OPT FROM ZPERSON WHERE Z_ENT = 4 ORDER BY Z_PK") == ["Ada|2", "Bob|2", "Cy|2"])
        #expect(result.changes[ManagedObjectContext.updatedObjectsKey]?.count == 3)

        // The teacher's students lose their foreign key (and only they).
        #expect(try context.execute(BatchDeleteRequest(objectIDs: [karlID])).status)
        #expect(try sqlite3(url, "SELECT ZNAME, Z_OPT, ifnull(ZTEACHER, 'null') FROM ZPERSON ORDER BY Z_PK")
            == ["Ada|3|null", "Bob|3|null", "Cy|2|null"])
        #expect(context.registeredObjects.isEmpty, "no object was loaded into the context")
    }

    @Test("requests without a predicate never read a row: they work on rows whose values could not even be decoded")
    func noRowsRead() throws {
        let (url, context) = try newStore()
        _ = try context.execute(BatchInsertRequest(entityName: "Student", objects: (1...4).map { (i: Int) -> [String: Any?] in ["name": "s\(i)", "year": i] }))
        var teacher = BatchInsertRequest(entityName: "Teacher", objects: [["name": "Karl"]])
        teacher.resultType = .objectIDs
        let karl = try #require(try context.execute(teacher).objectIDs?.first)
        _ = try sqlite3(url, "UPDATE ZPERSON SET ZTEACHER = 5, ZYEAR = 'not a number' WHERE Z_PK = 2")
        #expect(throws: StoreError.self) { try context.fetch(FetchRequest(entityName: "Student")) }

        var update = BatchUpdateRequest(entityName: "Student", propertiesToUpdate: ["name": "renamed"])
        update.resultType = .count
        #expect(try context.execute(update).count == 4)
        var delete = BatchDeleteRequest(objectIDs: [karl])
        delete.resultType = .objectIDs
        let deleted = try context.execute(delete)
        #expect(deleted.objectIDs == [karl])
        #expect(deleted.changes[ManagedObjectContext.updatedObjectsKey]?.compactMap(\.primaryKey) == [2])
        let student = ManagedObjectID(entityName: "Student", storeIdentifier: karl.storeIdentifier ?? "", primaryKey: 2)
        #expect(try context.execute(BatchDeleteRequest(objectIDs: [student])).status)
        #expect(try context.fetch(FetchRequest(entityName: "Student")).count == 3)
        #expect(try sqlite3(url, "SELECT Z_PK, Z_OPT, ZNAME FROM ZPERSON ORDER BY Z_PK") == ["1|2|renamed", "3|2|renamed", "4|2|renamed"])
    }

    @Test("statement sizes and IN lists come in few shapes, so few statements are prepared")
    func statementShapes() {
        for count in [0, 1, 7, 70, 71, 1_000, 12_345] {
            let sizes = BatchSQL.statementSizes(count, largest: 71)
            #expect(sizes.reduce(0, +) == count)
            #expect(sizes.allSatisfy { $0 == 71 || $0.nonzeroBitCount == 1 })
        }
        let keys = (1...1_100).map(Int64.init)
        let lists = BatchSQL.inLists(keys)
        #expect(lists.map(\.values.count) == [512, 512, 128])
        #expect(lists.map(\.keys.count) == [512, 512, 76])
        #expect(lists.flatMap(\.keys).sorted() == keys)
        #expect(lists[2].values.last == .integer(1_100))
    }
}
