import Foundation
import Strata
import StrataTestSupport
import Testing

/// Scenario 16 with the default policy: the second of two conflicting saves fails.
@Suite("Optimistic locking")
struct OptimisticLockingTests {
    @Test("Scenario 16: the second save throws a merge conflict with both versions; the first save stays",
          arguments: StoreUnderTest.all)
    func secondSaveConflicts(store: StoreUnderTest) throws {
        let setup = try store.makeContext(model: SampleModels.student())
        let original = try setup.insert("Student", ["id": 1, "name": "Alice", "age": 18])
        try setup.save()
        let id = original.objectID

        let first = setup.freshContext()
        let second = setup.freshContext()
        let firstAlice = try first.existingObject(with: id)
        let secondAlice = try second.existingObject(with: id)
        try firstAlice.setValue("First", forKey: "name")
        try secondAlice.setValue("Second", forKey: "name")
        try secondAlice.setValue(40, forKey: "age")

        try first.save()
        let error = try #require(throws: StoreError.self) { try second.save() }
        guard case .mergeConflict(let conflicts) = error else {
            Issue.record("expected a merge conflict, got \(error)")
            return
        }
        #expect(conflicts.count == 1)
        let conflict = try #require(conflicts.first)
        #expect(conflict.objectID == id)
        #expect(conflict.oldVersion == 1)
        #expect(conflict.newVersion == 2)
        // The store's row, and the object as this context read it.
        #expect(conflict.persistedSnapshot?.attributes["name"] == .string("First"))
        #expect(conflict.persistedSnapshot?.attributes["age"] == .integer(18))
        #expect(conflict.objectSnapshot?.attributes["name"] == .string("Alice"))
        #expect(conflict.objectSnapshot?.attributes["age"] == .integer(18))
        #expect(error.description.contains(id.description))

        // The store keeps the first save; the second context keeps its changes.
        let checker = setup.freshContext()
        let stored = try checker.existingObject(with: id)
        #expect(try stored.string("name") == "First")
        #expect(try stored.value(forKey: "age") as? Int16 == 18)
        #expect(second.hasChanges)
        #expect(try secondAlice.string("name") == "Second")

        // After a merging refresh the second context saves on top of the first.
        try second.refresh(secondAlice, mergeChanges: true)
        try second.save()
        let mergedChecker = setup.freshContext()
        let merged = try mergedChecker.existingObject(with: id)
        #expect(try merged.string("name") == "Second")
        #expect(try merged.value(forKey: "age") as? Int16 == 40)
    }

    @Test("A conflicting save lands nothing, not even its other objects", arguments: StoreUnderTest.all)
    func conflictLandsNothing(store: StoreUnderTest) throws {
        let setup = try store.makeContext(model: SampleModels.student())
        let alice = try setup.insert("Student", ["id": 1, "name": "Alice"])
        let bob = try setup.insert("Student", ["id": 2, "name": "Bob"])
        try setup.save()

        let first = setup.freshContext()
        let second = setup.freshContext()
        try first.existingObject(with: alice.objectID).setValue("A1", forKey: "name")
        try second.existingObject(with: alice.objectID).setValue("A2", forKey: "name")
        try second.existingObject(with: bob.objectID).setValue("B2", forKey: "name")
        try second.insert("Student", ["id": 3, "name": "Carol"])
        try second.delete(try second.existingObject(with: bob.objectID))
        try first.save()

        #expect(throws: StoreError.self) { try second.save() }
        #expect(try setup.freshContext().strings(sortedRequest("Student", by: "id")) == ["A1", "Bob"])
    }

    @Test("Deleting an object another context changed meanwhile conflicts", arguments: StoreUnderTest.all)
    func deleteConflicts(store: StoreUnderTest) throws {
        let setup = try store.makeContext(model: SampleModels.student())
        let alice = try setup.insert("Student", ["id": 1, "name": "Alice"])
        try setup.save()
        let first = setup.freshContext()
        let second = setup.freshContext()
        try first.existingObject(with: alice.objectID).setValue("Changed", forKey: "name")
        try second.delete(try second.existingObject(with: alice.objectID))
        try first.save()

        let error = try #require(throws: StoreError.self) { try second.save() }
        guard case .mergeConflict(let conflicts) = error else {
            Issue.record("expected a merge conflict, got \(error)")
            return
        }
        #expect(conflicts.map(\.objectID) == [alice.objectID])
        #expect(conflicts.first?.newVersion == 2)
        #expect(conflicts.first?.objectSnapshot?.attributes["name"] == .string("Alice"))
        #expect(try setup.freshContext().strings(sortedRequest("Student")) == ["Changed"])
    }

    @Test("A save of many changed and deleted objects reports exactly those changed or deleted since they were read",
          arguments: StoreUnderTest.all)
    func manyObjectsFewConflicts(store: StoreUnderTest) throws {
        let setup = try store.makeContext(model: SampleModels.student())
        for number in 1...1_200 { try setup.insert("Student", ["id": number, "name": "S\(number)", "age": 18]) }
        try setup.save()

        let mine = setup.freshContext()
        let students = try mine.fetch(sortedRequest("Student", by: "id"))
        #expect(students.count == 1_200)
        // Another context changes three of them and deletes one after they were read here.
        let other = setup.freshContext()
        let elsewhere = try other.fetch(sortedRequest("Student", by: "id"))
        for index in [0, 599, 1_199] { try elsewhere[index].setValue("Changed", forKey: "name") }
        try other.delete(elsewhere[700])
        try other.save()

        for student in students[..<1_100] { try student.setValue(19, forKey: "age") }
        for student in students[1_100...] { try mine.delete(student) }
        let error = try #require(throws: StoreError.self) { try mine.save() }
        guard case .mergeConflict(let conflicts) = error else {
            Issue.record("expected a merge conflict, got \(error)")
            return
        }
        let expected = [0, 599, 700, 1_199].map { students[$0].objectID }
        #expect(Set(conflicts.map(\.objectID)) == Set(expected))
        #expect(conflicts.first { $0.objectID == students[700].objectID }?.newVersion == 0)
        #expect(conflicts.first { $0.objectID == students[599].objectID }?.newVersion == 2)
        #expect(conflicts.first { $0.objectID == students[1_199].objectID }?.objectSnapshot?.attributes["name"] == .string("S1200"))
        // Nothing landed.
        let checker = setup.freshContext()
        #expect(try checker.count("Student") == 1_199)
        #expect(try checker.fetch(sortedRequest("Student", by: "id")).allSatisfy { try $0.value(forKey: "age") as? Int16 == 18 })
    }

    @Test("A save of many changed objects, none deleted, reports exactly those changed or deleted elsewhere and lands nothing",
          arguments: StoreUnderTest.all)
    func manyUpdatesFewConflicts(store: StoreUnderTest) throws {
        let setup = try store.makeContext(model: SampleModels.student())
        for number in 1...1_200 { try setup.insert("Student", ["id": number, "name": "S\(number)", "age": 18]) }
        try setup.save()

        let mine = setup.freshContext()
        let students = try mine.fetch(sortedRequest("Student", by: "id"))
        let other = setup.freshContext()
        let elsewhere = try other.fetch(sortedRequest("Student", by: "id"))
        for index in [0, 599, 1_199] { try elsewhere[index].setValue("Changed", forKey: "name") }
        try other.delete(elsewhere[700])
        try other.save()

        for student in students { try student.setValue(19, forKey: "age") }
        let error = try #require(throws: StoreError.self) { try mine.save() }
        guard case .mergeConflict(let conflicts) = error else {
            Issue.record("expected a merge conflict, got \(error)")
            return
        }
        // Each with the version the store holds (0: the row is gone).
        let versions = Dictionary(uniqueKeysWithValues: conflicts.map { ($0.objectID, $0.newVersion) })
        #expect(versions == Dictionary(uniqueKeysWithValues: [(0, 2), (599, 2), (700, 0), (1_199, 2)].map { (students[$0].objectID, Int64($1)) }))
        let first = conflicts.first { $0.objectID == students[0].objectID }
        #expect(first?.persistedSnapshot?.attributes["name"] == .string("Changed"))
        #expect(first?.objectSnapshot?.attributes["age"] == .integer(18))
        let checker = setup.freshContext()
        #expect(try checker.count("Student") == 1_199)
        #expect(try checker.fetch(sortedRequest("Student", by: "id")).allSatisfy { try $0.value(forKey: "age") as? Int16 == 18 })
    }

    @Test("A save that changes objects changed elsewhere and breaks a uniqueness constraint fails as a merge conflict",
          arguments: StoreUnderTest.all)
    func mergeConflictBeforeConstraintConflict(store: StoreUnderTest) throws {
        let (context, _) = try ConstraintConflictTests.seeded(store)
        let books = try context.fetch(FetchRequest(entityName: "Book"))
        let other = context.freshContext()
        for book in try other.fetch(FetchRequest(entityName: "Book")) { try book.setValue("Elsewhere", forKey: "title") }
        try other.save()

        for book in books { try book.setValue("Here", forKey: "title") }
        _ = try ConstraintConflictTests.insertNewAnn(context)
        let error = try #require(throws: StoreError.self) { try context.save() }
        guard case .mergeConflict(let conflicts) = error else {
            Issue.record("expected a merge conflict, got \(error)")
            return
        }
        #expect(conflicts.map(\.objectID) == books.map(\.objectID))
        #expect(conflicts.map(\.newVersion) == [2])
        let checker = context.freshContext()
        #expect(try checker.fetch(FetchRequest(entityName: "Book")).map { try $0.value(forKey: "title") as? String } == ["Elsewhere"])
        #expect(try checker.count(for: FetchRequest(entityName: "Author")) == 1)
    }
}
