import Foundation
import Strata
import StrataTestSupport
import Testing

/// objectsDidChange, willSave and didSave, through NotificationCenter and the async sequence.
@Suite("Notifications")
struct NotificationTests {
    private let didChange = ManagedObjectContext.objectsDidChangeNotification
    private let willSave = ManagedObjectContext.willSaveNotification
    private let didSave = ManagedObjectContext.didSaveNotification

    /// Alice and Carol, saved; then Bob inserted, Alice changed, Carol deleted (unsaved).
    private struct Changed {
        let context: ManagedObjectContext
        let alice, bob, carol: ManagedObject
    }

    private func seed(_ store: StoreUnderTest) throws -> ManagedObjectContext {
        let context = try store.makeContext(model: SampleModels.student())
        try context.insert("Student", ["id": 1, "name": "Alice", "age": 18])
        try context.insert("Student", ["id": 3, "name": "Carol", "age": 22])
        try context.save()
        return context
    }

    /// A seeded context, a recorder of its notifications, and Alice, fetched.
    private func seededAlice(_ store: StoreUnderTest) throws -> (ManagedObjectContext, NotificationRecorder, ManagedObject) {
        let context = try seed(store)
        let recorder = NotificationRecorder(context)
        return (context, recorder, try #require(try context.fetch(sortedRequest("Student")).first))
    }

    private func change(_ context: ManagedObjectContext) throws -> Changed {
        let students = try context.fetch(sortedRequest("Student"))
        let bob = try context.insert("Student", ["id": 2, "name": "Bob"])
        try students[0].setValue(19, forKey: "age")
        try context.delete(students[1])
        return Changed(context: context, alice: students[0], bob: bob, carol: students[1])
    }

    @Test("Each notification carries exactly the inserted, updated and deleted IDs", arguments: StoreUnderTest.all)
    func notificationCenter(store: StoreUnderTest) throws {
        let context = try seed(store)
        let recorder = NotificationRecorder(context)
        let changed = try change(context)
        let temporaryBob = changed.bob.objectID

        context.processPendingChanges()
        #expect(recorder.notifications == [PostedNotification(name: didChange, changes: ContextChanges(
            inserted: [temporaryBob], updated: [changed.alice.objectID], deleted: [changed.carol.objectID]))])
        // Nothing new: nothing posted.
        context.processPendingChanges()
        #expect(recorder.notifications.count == 1)

        try context.save()
        let permanentBob = changed.bob.objectID
        #expect(!permanentBob.isTemporaryID)
        #expect(recorder.notifications == [
            PostedNotification(name: didChange, changes: ContextChanges(
                inserted: [temporaryBob], updated: [changed.alice.objectID], deleted: [changed.carol.objectID])),
            PostedNotification(name: willSave, changes: ContextChanges(
                inserted: [temporaryBob], updated: [changed.alice.objectID], deleted: [changed.carol.objectID])),
            PostedNotification(name: didSave, changes: ContextChanges(
                inserted: [permanentBob], updated: [changed.alice.objectID], deleted: [changed.carol.objectID])),
        ])

        // A save with nothing to save posts nothing.
        try context.save()
        #expect(recorder.notifications.count == 3)
    }

    @Test("A save posts objectsDidChange for changes not yet processed, then willSave and didSave",
          arguments: StoreUnderTest.all)
    func saveProcessesPendingChanges(store: StoreUnderTest) throws {
        let (context, recorder, alice) = try seededAlice(store)
        try alice.setValue("Alicia", forKey: "name")
        try context.save()
        let only = ContextChanges(updated: [alice.objectID])
        #expect(recorder.notifications == [
            PostedNotification(name: didChange, changes: only),
            PostedNotification(name: willSave, changes: only),
            PostedNotification(name: didSave, changes: only),
        ])

        // Another context's notifications do not reach this observer.
        let other = context.freshContext()
        try other.insert("Student", ["id": 9, "name": "Zed"])
        try other.save()
        #expect(recorder.notifications.count == 3)
    }

    @Test("A change made twice, or undone, before a notification is reported once or not at all",
          arguments: StoreUnderTest.all)
    func repeatedAndUndoneChanges(store: StoreUnderTest) throws {
        let (context, recorder, alice) = try seededAlice(store)
        let kept = try context.insert("Student", ["id": 7, "name": "Kept"])
        let dropped = try context.insert("Student", ["id": 8, "name": "Dropped"])
        try context.delete(dropped)
        try alice.setValue(30, forKey: "age")
        try context.refresh(alice, mergeChanges: false)
        try alice.setValue(31, forKey: "age")
        context.processPendingChanges()

        let changes = try #require(recorder.notifications.last?.changes)
        #expect(changes.inserted == [kept.objectID])
        #expect(changes.updated == [alice.objectID])
        #expect(changes.deleted.isEmpty)
        // Changes that read the same are equal and hash the same, however they were made.
        let same = ContextChanges(inserted: [kept.objectID], updated: [alice.objectID])
        #expect(changes == same)
        #expect(Set([changes, same]).count == 1)
        var copy = changes
        copy.inserted.insert(alice.objectID)
        #expect(changes.inserted == [kept.objectID] && copy.inserted.count == 2)
    }

    @Test("A save's change sets read the same from many tasks at once", arguments: StoreUnderTest.all)
    func changesReadConcurrently(store: StoreUnderTest) async throws {
        let context = try seed(store)
        let recorder = NotificationRecorder(context)
        for id in 10..<210 { try context.insert("Student", ["id": id, "name": "Student \(id)"]) }
        try context.save()
        let changes = try #require(recorder.notifications.last { $0.name == didSave }?.changes)
        let expected = Set(try context.freshContext().fetchObjectIDs(sortedRequest("Student")).dropFirst(2))
        // The sets are made on first read, under a lock: every reader sees the whole set.
        let counts = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { changes.inserted == expected && changes.updated.isEmpty } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(counts == Array(repeating: true, count: 8))
        #expect(expected.count == 200)
    }

    @Test("A failed save posts willSave and no didSave", arguments: StoreUnderTest.all)
    func failedSave(store: StoreUnderTest) throws {
        let context = try seed(store)
        let recorder = NotificationRecorder(context)
        let nameless = try context.insert("Student", ["name": "No id"])
        #expect(throws: ValidationError.self) { try context.save() }
        #expect(recorder.names == [didChange, willSave])
        #expect(recorder.notifications.last?.changes == ContextChanges(inserted: [nameless.objectID]))
    }

    @Test("The async sequence delivers the same notifications", arguments: StoreUnderTest.all)
    func asyncSequence(store: StoreUnderTest) async throws {
        let context = try seed(store)
        let recorder = NotificationRecorder(context)
        let stream = context.notifications()
        let changed = try change(context)
        try context.save()
        try changed.alice.setValue(20, forKey: "age")
        context.processPendingChanges()

        var iterator = stream.makeAsyncIterator()
        var delivered: [PostedNotification] = []
        for _ in 0..<4 {
            guard let note = await iterator.next() else { break }
            delivered.append(PostedNotification(name: note.name, changes: note.changes))
        }
        #expect(delivered.map(\.name) == [didChange, willSave, didSave, didChange])
        #expect(delivered == recorder.notifications)
        #expect(delivered[2].changes == ContextChanges(
            inserted: [changed.bob.objectID], updated: [changed.alice.objectID], deleted: [changed.carol.objectID]))
        #expect(delivered[3].changes == ContextChanges(updated: [changed.alice.objectID]))
    }
}
