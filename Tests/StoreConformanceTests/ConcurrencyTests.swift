import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// Background contexts and the persistent container: only object IDs and plain values cross.
@Suite("Concurrency")
struct ConcurrencyTests {
    private func seed(_ store: StoreUnderTest, count: Int) throws -> PersistentStoreCoordinator {
        let context = try store.makeContext(model: SampleModels.student())
        for id in 1...count { try context.insert("Student", ["id": id, "name": "Student \(id)", "age": 10]) }
        try context.save()
        return context.persistentStoreCoordinator
    }

    @Test("Scenario 13: a background context fetches and saves while a confined context keeps working",
          arguments: StoreUnderTest.all)
    func backgroundWhileConfinedWorks(store: StoreUnderTest) async throws {
        let coordinator = try seed(store, count: 20)
        let background = BackgroundContext(coordinator: coordinator, name: "export")

        async let exported: [ManagedObjectID] = background.perform { context in
            let request = sortedRequest("Student", by: "id", predicate: try ObjectPredicate(format: "id <= 20"))
            let students = try context.fetch(request)
            for student in students {
                let age = try student.value(forKey: "age") as? Int16 ?? 0
                try student.setValue(age + 1, forKey: "age")
            }
            try context.insert("Student", ["id": 100, "name": "Background", "age": 1])
            try context.save()
            return students.map(\.objectID)
        }

        // Meanwhile, the confined context inserts and saves its own objects.
        let confined = ManagedObjectContext(coordinator: coordinator)
        for id in 200..<205 { try confined.insert("Student", ["id": id, "name": "Main \(id)", "age": 30]) }
        try confined.save()
        #expect(try confined.count(for: FetchRequest(
            entityName: "Student", predicate: try ObjectPredicate(format: "id >= 200"))) == 5)

        let ids = try await exported
        #expect(ids.count == 20)
        #expect(ids.allSatisfy { !$0.isTemporaryID })
        // The IDs resolve in the confined context, with the background's saved values.
        let first = try confined.existingObject(with: ids[0])
        #expect(try first.value(forKey: "id") as? Int64 == 1)
        #expect(try first.value(forKey: "age") as? Int16 == 11)
        let fresh = confined.freshContext()
        #expect(try fresh.count("Student") == 26)
        let ages = try fresh.fetch(sortedRequest("Student", by: "id", predicate: try ObjectPredicate(format: "id <= 20")))
            .map { try $0.value(forKey: "age") as? Int16 ?? -1 }
        #expect(ages == Array(repeating: 11, count: 20))
        #expect(try fresh.strings(sortedRequest("Student", predicate: try ObjectPredicate(format: "id == 100"))) == ["Background"])
    }

    @Test("performAndWait runs on the context's queue and returns its value", arguments: StoreUnderTest.all)
    func performAndWait(store: StoreUnderTest) throws {
        let coordinator = try seed(store, count: 3)
        let background = BackgroundContext(coordinator: coordinator)
        let count = try background.performAndWait { context in try context.count("Student") }
        #expect(count == 3)

        let (newID, nested) = try background.performAndWait { context in
            let object = try context.insert("Student", ["id": 4, "name": "Dan", "age": 9])
            try context.save()
            // Nested performAndWait runs inline instead of deadlocking.
            let nested = try background.performAndWait { inner in try inner.count("Student") }
            return (object.objectID, nested)
        }
        #expect(nested == 4)
        #expect(!newID.isTemporaryID)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.existingObject(with: newID).string("name") == "Dan")
        // The background context keeps its objects between calls: an unsaved insert is still there
        // (unchanged objects nothing uses are freed, as in Core Data).
        let pendingID = try background.performAndWait { context in
            try context.insert("Student", ["id": 5, "name": "Eve", "age": 10]).objectID
        }
        let stillRegistered = background.performAndWait { context in
            context.registeredObject(for: pendingID) != nil && context.hasChanges
        }
        #expect(stillRegistered)
    }

    @Test("Many background contexts save concurrently without losing a row", arguments: StoreUnderTest.all)
    func concurrentSaves(store: StoreUnderTest) async throws {
        let coordinator = try seed(store, count: 1)
        let ids = try await withThrowingTaskGroup(of: [ManagedObjectID].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    try await BackgroundContext(coordinator: coordinator).perform { context in
                        let objects = try (0..<10).map { index in
                            try context.insert("Student", ["id": 1_000 + worker * 10 + index, "name": "W\(worker)"])
                        }
                        try context.save()
                        return objects.map(\.objectID)
                    }
                }
            }
            var all: [ManagedObjectID] = []
            for try await part in group { all += part }
            return all
        }
        #expect(ids.count == 80)
        #expect(Set(ids).count == 80)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.count("Student") == 81)
        #expect(Set(try context.fetchObjectIDs(FetchRequest(
            entityName: "Student", predicate: try ObjectPredicate(format: "id >= 1000")))) == Set(ids))
    }

    @Test("Scenario 3: a PersistentContainer with this store type; saveContext saves only with changes",
          arguments: StoreUnderTest.all)
    @MainActor
    func persistentContainer(store: StoreUnderTest) async throws {
        let container = PersistentContainer(name: "DogWalk", managedObjectModel: try SampleModels.student())
        container.storeDescriptions = [ContainerStoreDescription(type: store.type, url: store.hasFile ? try store.storeURL() : nil)]
        try container.loadPersistentStores()
        #expect(container.persistentStoreCoordinator.persistentStores.map(\.type) == [store.type])

        let context = container.viewContext
        #expect(context.concurrencyType == .mainQueue)
        let recorder = NotificationRecorder(context)
        try container.saveContext()
        #expect(recorder.names.isEmpty)

        let walk = try context.insert("Student", ["id": 1, "name": "Walk"])
        try container.saveContext()
        #expect(!context.hasChanges)
        #expect(!walk.objectID.isTemporaryID)
        #expect(recorder.names.filter { $0 == ManagedObjectContext.didSaveNotification }.count == 1)
        try container.saveContext()
        #expect(recorder.names.filter { $0 == ManagedObjectContext.willSaveNotification }.count == 1)

        // Background work through the container sees the saved object and hands back IDs.
        let walkID = walk.objectID
        let found = try await container.performBackgroundTask { context in
            try context.fetchObjectIDs(FetchRequest(entityName: "Student"))
        }
        #expect(found == [walkID])
        let addedID = try await container.newBackgroundContext().perform { context in
            let object = try context.insert("Student", ["id": 2, "name": "Run"])
            try context.save()
            return object.objectID
        }
        #expect(try context.existingObject(with: addedID).string("name") == "Run")
        #expect(try context.count("Student") == 2)
    }
}
