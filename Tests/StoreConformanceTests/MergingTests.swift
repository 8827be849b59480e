import Foundation
import Strata
import StrataTestSupport
import Testing

/// Contexts that follow each other's saves: merging did-save changes, automatic merging,
/// refreshing, stale rows and faults whose row is gone.
@Suite("Merging")
struct MergingTests {
    /// A context on a fresh store holding the employer Acme and the employees Ann (salary 100,
    /// at Acme) and Bob (salary 50), saved; their IDs.
    private func company(_ store: StoreUnderTest) throws -> (ManagedObjectContext, acme: ManagedObjectID, ann: ManagedObjectID, bob: ManagedObjectID) {
        let context = try store.makeContext(model: SampleModels.company())
        let acme = try context.insert("Employer", ["name": "Acme"])
        let ann = try context.insert("Employee", ["name": "Ann", "salary": 100.0, "whereIWork": acme])
        let bob = try context.insert("Employee", ["name": "Bob", "salary": 50.0])
        try context.save()
        return (context, acme.objectID, ann.objectID, bob.objectID)
    }

    /// The changes of the last did-save `context` posts while `body` runs.
    private func savedChanges(of context: ManagedObjectContext, _ body: () throws -> Void) throws -> ContextChanges {
        let recorder = NotificationRecorder(context)
        try body()
        return try #require(recorder.notifications.last { $0.name == ManagedObjectContext.didSaveNotification }?.changes)
    }

    private func names(_ context: ManagedObjectContext) throws -> [String] {
        try context.strings(sortedRequest("Employee"))
    }

    @Test("Merged inserts are registered as faults that read the saved values", arguments: StoreUnderTest.all)
    func mergedInsertsAreFaults(store: StoreUnderTest) throws {
        let (saver, _, _, _) = try company(store)
        let viewer = saver.freshContext()
        let changes = try savedChanges(of: saver) {
            try saver.insert("Employee", ["name": "Cy", "salary": 10.0])
            try saver.insert("Employee", ["name": "Di", "salary": 20.0])
            try saver.save()
        }
        #expect(changes.inserted.count == 2)
        for id in changes.inserted { #expect(viewer.registeredObject(for: id) == nil) }

        let note = Notification(name: ManagedObjectContext.didSaveNotification, object: nil,
                                userInfo: [ManagedObjectContext.changesUserInfoKey: changes])
        try viewer.mergeChanges(fromContextDidSave: note)
        let merged = changes.inserted.compactMap { viewer.registeredObject(for: $0) }
        #expect(merged.count == 2)
        #expect(merged.allSatisfy { $0.isFault })
        #expect(Set(try merged.map { try $0.string("name") }) == ["Cy", "Di"])
        #expect(!viewer.hasChanges)
        #expect(try names(viewer) == ["Ann", "Bob", "Cy", "Di"])
    }

    @Test("A notification without context changes is refused with a typed error", arguments: [StoreUnderTest.all[0]])
    func notificationWithoutChanges(store: StoreUnderTest) throws {
        let (context, _, _, _) = try company(store)
        let note = Notification(name: Notification.Name("Elsewhere"))
        #expect(throws: ObjectError.missingContextChanges(notification: "Elsewhere")) {
            try context.mergeChanges(fromContextDidSave: note)
        }
    }

    @Test("A merged update refreshes the object and keeps this context's edits, property by property",
          arguments: StoreUnderTest.all)
    func mergedUpdatesKeepLocalEdits(store: StoreUnderTest) throws {
        let (saver, _, annID, _) = try company(store)
        let editor = saver.freshContext()
        let other = try editor.insert("Employer", ["name": "Other"])
        try editor.save()
        let ann = try editor.existingObject(with: annID)
        let saverAnn = try saver.existingObject(with: annID)

        // Both change the name; each changes one more property of its own.
        try ann.setValue("Annie", forKey: "name")
        try ann.setValue(other, forKey: "whereIWork")
        let changes = try savedChanges(of: saver) {
            try saverAnn.setValue("Anna", forKey: "name")
            try saverAnn.setValue(200.0, forKey: "salary")
            try saver.save()
        }
        #expect(changes.updated.contains(annID))

        editor.mergeChanges(fromContextDidSave: changes)
        #expect(try ann.string("name") == "Annie", "the local edit of the conflicting property wins")
        #expect(try ann.value(forKey: "salary") as? Double == 200, "the saved change of the other property comes in")
        #expect(try ann.value(forKey: "whereIWork") as? ManagedObject === other, "the local edit of another property stays")
        #expect(editor.hasChanges && ann.isUpdated)
        #expect((try ann.committedValues(forKeys: ["name"])["name"] ?? nil) as? String == "Anna")

        // The merge took the saved version: the save goes through, on top of the other one.
        try editor.save()
        let checker = saver.freshContext()
        let check = try checker.existingObject(with: annID)
        #expect(try check.string("name") == "Annie")
        #expect(try check.value(forKey: "salary") as? Double == 200)
        #expect(try (check.value(forKey: "whereIWork") as? ManagedObject)?.string("name") == "Other")
    }

    @Test("A merged delete stays registered with its values, reads as deleted and leaves fetches",
          arguments: StoreUnderTest.all)
    func mergedDeletesLeaveFetches(store: StoreUnderTest) throws {
        let (saver, acmeID, annID, bobID) = try company(store)
        let viewer = saver.freshContext()
        let ann = try viewer.existingObject(with: annID)
        let acme = try viewer.existingObject(with: acmeID)
        #expect(try acme.objects("employees") == [ann])
        let bob = try viewer.existingObject(with: bobID)
        try bob.setValue(75.0, forKey: "salary")
        let changes = try savedChanges(of: saver) {
            try saver.delete(try saver.existingObject(with: annID))
            try saver.delete(try saver.existingObject(with: bobID))
            try saver.save()
        }

        viewer.mergeChanges(fromContextDidSave: changes)
        #expect(viewer.registeredObject(for: annID) === ann)
        #expect(ann.isDeleted && bob.isDeleted)
        #expect(try ann.string("name") == "Ann", "the last values stay readable")
        #expect(!viewer.hasChanges, "the local change of a deleted object goes with it")
        #expect(viewer.updatedObjects.isEmpty && viewer.deletedObjects.isEmpty)
        #expect(try names(viewer).isEmpty)
        #expect(try viewer.count("Employee") == 0)
        #expect(try acme.objects("employees").isEmpty)
        #expect(throws: ObjectError.objectNotFound(annID)) { try viewer.existingObject(with: annID) }
        try viewer.delete(ann)
        #expect(!viewer.hasChanges, "nothing is left to delete")
        try viewer.save()
    }

    @Test("Merging batch-request IDs: a batch delete leaves deleted objects registered and out of fetches",
          arguments: StoreUnderTest.all)
    func mergedBatchDelete(store: StoreUnderTest) throws {
        let (context, acmeID, annID, _) = try company(store)
        let viewer = context.freshContext()
        let ann = try viewer.existingObject(with: annID)
        let acme = try viewer.existingObject(with: acmeID)
        #expect(try acme.objects("employees") == [ann])
        let recorder = NotificationRecorder(viewer)

        var request = BatchDeleteRequest(objectIDs: [annID])
        request.resultType = .objectIDs
        let result = try context.execute(request)
        try ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [viewer])
        #expect(viewer.registeredObject(for: annID) === ann)
        #expect(ann.isDeleted)
        #expect(try ann.value(forKey: "salary") as? Double == 100)
        #expect(try names(viewer) == ["Bob"])
        #expect(try acme.objects("employees").isEmpty, "a loaded object that held it is refreshed")
        let notice = try #require(recorder.notifications.last)
        #expect(notice.name == ManagedObjectContext.objectsDidChangeNotification)
        #expect(notice.changes.deleted == [annID])
        #expect(notice.changes.updated == [acmeID])
    }

    @Test("objectsDidChange names what the merge touched; didMergeChanges names every ID merged",
          arguments: StoreUnderTest.all)
    func mergeNotifications(store: StoreUnderTest) throws {
        let (saver, acmeID, annID, bobID) = try company(store)
        let viewer = saver.freshContext()
        let held = [try viewer.existingObject(with: annID), try viewer.existingObject(with: bobID)]
        let recorder = NotificationRecorder(viewer)
        let merges = Recorder<ContextChanges>()
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didMergeChangesNotification, object: viewer, queue: nil) { note in
            merges.append(note.contextChanges ?? ContextChanges())
        }
        defer { NotificationCenter.default.removeObserver(token) }

        let changes = try savedChanges(of: saver) {
            try saver.existingObject(with: annID).setValue(1.0, forKey: "salary")
            try saver.existingObject(with: acmeID).setValue("Acme Inc", forKey: "name")
            try saver.delete(try saver.existingObject(with: bobID))
            try saver.insert("Employee", ["name": "Cy"])
            try saver.save()
        }
        viewer.mergeChanges(fromContextDidSave: changes)
        let notice = try #require(recorder.notifications.last)
        #expect(notice.name == ManagedObjectContext.objectsDidChangeNotification)
        #expect(notice.changes.inserted == changes.inserted)
        #expect(notice.changes.updated == [annID, acmeID], "registered objects are refreshed, faults (Acme) too")
        #expect(notice.changes.deleted == [bobID])
        #expect(merges.elements == [changes])
        #expect(held.allSatisfy { $0.managedObjectContext === viewer })
    }

    @Test("A child that merges automatically follows its parent's saves and its siblings' saves into the parent",
          arguments: StoreUnderTest.all)
    func childFollowsParent(store: StoreUnderTest) throws {
        let (parent, _, annID, _) = try company(store)
        let child = ManagedObjectContext(parent: parent)
        child.automaticallyMergesChangesFromParent = true
        let childAnn = try child.existingObject(with: annID)
        try childAnn.setValue("Annie", forKey: "name")

        try parent.existingObject(with: annID).setValue(300.0, forKey: "salary")
        let cy = try parent.insert("Employee", ["name": "Cy"])
        try parent.save()
        #expect(try childAnn.value(forKey: "salary") as? Double == 300)
        #expect(try childAnn.string("name") == "Annie")
        #expect(child.registeredObject(for: cy.objectID)?.isFault == true)

        let sibling = ManagedObjectContext(parent: parent)
        try sibling.existingObject(with: annID).setValue(400.0, forKey: "salary")
        try sibling.save()
        #expect(try childAnn.value(forKey: "salary") as? Double == 400)

        // A child that does not merge keeps what it read.
        let still = ManagedObjectContext(parent: parent)
        let stillAnn = try still.existingObject(with: annID)
        try parent.existingObject(with: annID).setValue(500.0, forKey: "salary")
        try parent.save()
        #expect(try stillAnn.value(forKey: "salary") as? Double == 400)
        #expect(try childAnn.value(forKey: "salary") as? Double == 500)
        try child.save()
        #expect(try parent.existingObject(with: annID).string("name") == "Annie")
    }

    @Test("A confined root context that merges automatically takes its siblings' saves when next used",
          arguments: StoreUnderTest.all)
    func confinedRootsFollowEachOther(store: StoreUnderTest) throws {
        let (first, _, annID, _) = try company(store)
        let second = first.freshContext()
        second.automaticallyMergesChangesFromParent = true
        let ann = try second.existingObject(with: annID)

        try first.existingObject(with: annID).setValue(110.0, forKey: "salary")
        try first.insert("Employee", ["name": "Cy"])
        try first.save()
        #expect(try ann.value(forKey: "salary") as? Double == 100, "not merged until the context is used")
        #expect(try names(second) == ["Ann", "Bob", "Cy"])
        #expect(try ann.value(forKey: "salary") as? Double == 110)

        // The other way round: the first context does not merge, so it keeps what it loaded.
        let firstAnn = try first.existingObject(with: annID)
        try ann.setValue(120.0, forKey: "salary")
        try second.save()
        first.processPendingChanges()
        #expect(try firstAnn.value(forKey: "salary") as? Double == 110)
        first.automaticallyMergesChangesFromParent = true
        try ann.setValue(130.0, forKey: "salary")
        try second.save()
        first.processPendingChanges()
        #expect(try firstAnn.value(forKey: "salary") as? Double == 130)

        second.automaticallyMergesChangesFromParent = false
        try firstAnn.setValue(140.0, forKey: "salary")
        try first.save()
        second.processPendingChanges()
        #expect(try ann.value(forKey: "salary") as? Double == 130)
    }

    @Test("A background context and a main-queue context merge each other's saves on their own queues",
          arguments: StoreUnderTest.all)
    @MainActor
    func queuedRootsFollowEachOther(store: StoreUnderTest) async throws {
        let (seeder, _, annID, _) = try company(store)
        let coordinator = seeder.persistentStoreCoordinator
        let background = BackgroundContext(coordinator: coordinator)
        let view = ManagedObjectContext(coordinator: coordinator, concurrencyType: .mainQueue)
        view.automaticallyMergesChangesFromParent = true
        let viewAnn = try view.existingObject(with: annID)

        let before = try await background.perform { context in
            context.automaticallyMergesChangesFromParent = true
            let ann = try context.existingObject(with: annID)
            let salary = try ann.value(forKey: "salary") as? Double
            try ann.setValue(150.0, forKey: "salary")
            try context.save()
            // An unsaved change keeps the object registered until the next work on the queue.
            try ann.setValue("Ann (background)", forKey: "name")
            return salary
        }
        #expect(before == 100)
        // The merge was sent to the main queue before this task resumed there.
        await Task.yield()
        #expect(try viewAnn.value(forKey: "salary") as? Double == 150)

        try viewAnn.setValue(160.0, forKey: "salary")
        try view.save()
        let after = try await background.perform { context in
            // No fetch here: the merge ran on this queue before this work.
            let ann = context.registeredObject(for: annID)
            return [try ann?.value(forKey: "salary") as? Double == 160, try ann?.string("name") == "Ann (background)"]
        }
        #expect(after == [true, true])
    }

    @Test("refreshAllObjects turns unchanged objects into faults and keeps unsaved changes", arguments: StoreUnderTest.all)
    func refreshAll(store: StoreUnderTest) throws {
        let (saver, _, annID, bobID) = try company(store)
        let viewer = saver.freshContext()
        let ann = try viewer.existingObject(with: annID)
        let bob = try viewer.existingObject(with: bobID)
        try ann.setValue("Annie", forKey: "name")
        let inserted = try viewer.insert("Employee", ["name": "Cy"])

        try saver.existingObject(with: annID).setValue(101.0, forKey: "salary")
        try saver.existingObject(with: bobID).setValue(51.0, forKey: "salary")
        try saver.save()
        #expect(try bob.value(forKey: "salary") as? Double == 50)

        try viewer.refreshAllObjects()
        #expect(bob.isFault)
        #expect(try bob.value(forKey: "salary") as? Double == 51)
        #expect(try ann.string("name") == "Annie")
        #expect(try ann.value(forKey: "salary") as? Double == 101)
        #expect(ann.isUpdated && inserted.isInserted)
        #expect(try inserted.string("name") == "Cy")
        try viewer.save()
        #expect(try names(saver.freshContext()) == ["Annie", "Bob", "Cy"])
    }

    @Test("shouldDeleteInaccessibleFaults: a fault whose row is gone becomes a deleted object (the default), or throws",
          arguments: StoreUnderTest.all)
    func inaccessibleFaults(store: StoreUnderTest) throws {
        let (saver, acmeID, annID, bobID) = try company(store)
        let strict = saver.freshContext()
        let lenient = saver.freshContext()
        // Core Data's default.
        #expect(lenient.shouldDeleteInaccessibleFaults)
        strict.shouldDeleteInaccessibleFaults = false
        let strictAnn = try strict.object(with: annID)
        let lenientAnn = try lenient.object(with: annID)
        let lenientAcme = try lenient.object(with: acmeID)
        try saver.delete(try saver.existingObject(with: annID))
        try saver.delete(try saver.existingObject(with: acmeID))
        try saver.save()

        #expect(throws: ObjectError.objectNotFound(annID)) { try strictAnn.value(forKey: "name") }
        #expect(strictAnn.isFault && !strictAnn.isDeleted)

        #expect(try lenientAnn.value(forKey: "name") == nil)
        #expect(try lenientAnn.value(forKey: "whereIWork") == nil)
        #expect(!lenientAnn.isFault && lenientAnn.isDeleted)
        #expect(try lenientAcme.objects("employees").isEmpty)
        #expect(!lenient.hasChanges)
        #expect(throws: ObjectError.objectNotFound(annID)) { try lenient.existingObject(with: annID) }
        #expect(throws: ObjectError.objectNotFound(annID)) { try strict.existingObject(with: annID) }
        // Objects whose row is there are not touched.
        #expect(try lenient.existingObject(with: bobID).string("name") == "Bob")
        try lenient.save()
    }

    @Test("stalenessInterval: a fault fires from a cached row younger than it, else reads the store",
          arguments: StoreUnderTest.all)
    func staleness(store: StoreUnderTest) throws {
        let (coordinator, counting) = try CountingStore.coordinator(store, model: SampleModels.company())
        let seeder = ManagedObjectContext(coordinator: coordinator)
        let ann = try seeder.insert("Employee", ["name": "Ann"])
        try seeder.save()
        _ = try seeder.freshContext().fetch(FetchRequest(entityName: "Employee"))   // the row is cached now

        func storeReads(staleness: TimeInterval) throws -> Int {
            let context = seeder.freshContext()
            context.stalenessInterval = staleness
            counting.reset()
            #expect(try context.object(with: ann.objectID).string("name") == "Ann")
            return counting.singleSnapshots + counting.batchSnapshots
        }
        #expect(seeder.stalenessInterval < 0)
        #expect(try storeReads(staleness: -1) == 0)
        #expect(try storeReads(staleness: 3600) == 0)
        #expect(try storeReads(staleness: 0) == 1)
        // The read just now cached the row again: it is young.
        #expect(try storeReads(staleness: 3600) == 0)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(try storeReads(staleness: 0.01) == 1)
    }
}
