import Dispatch
import Foundation
import Strata
import StrataTestSupport
import Testing

/// `perform` and `performAndWait` on every kind of context, with Core Data's timing: a performed
/// block is one user event, whose changes are processed when it ends.
@Suite("Perform")
struct PerformTests {
    /// Lets the work queued on the main queue before now run.
    @MainActor
    private func drainMainQueue() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { done.resume() }
        }
    }

    @Test("Main-queue context: perform never runs inline; the block's changes are posted when it ends",
          arguments: StoreUnderTest.all)
    @MainActor
    func mainQueuePerform(store: StoreUnderTest) async throws {
        let (coordinator, _) = try store.makeCoordinator(model: SampleModels.student())
        let context = ManagedObjectContext(coordinator: coordinator, concurrencyType: .mainQueue)
        let recorder = NotificationRecorder(context)
        var steps: [String] = []
        context.perform {
            steps.append("block")
            do {
                try context.insert("Student", ["id": 1, "name": "Alice"])
            } catch {
                Issue.record("insert failed: \(error)")
            }
            // Still inside the event: nothing posted yet.
            steps.append("posted \(recorder.notifications.count)")
        }
        steps.append("after perform")
        #expect(steps == ["after perform"])
        await drainMainQueue()
        #expect(steps == ["after perform", "block", "posted 0"])
        #expect(recorder.names == [ManagedObjectContext.objectsDidChangeNotification])
        #expect(recorder.notifications.first?.changes.inserted.count == 1)
    }

    @Test("Main-queue context: performAndWait runs inline, nests, and posts nothing by itself",
          arguments: StoreUnderTest.all)
    @MainActor
    func mainQueuePerformAndWait(store: StoreUnderTest) throws {
        let (coordinator, _) = try store.makeCoordinator(model: SampleModels.student())
        let context = ManagedObjectContext(coordinator: coordinator, concurrencyType: .mainQueue)
        let recorder = NotificationRecorder(context)
        var steps: [String] = []
        let count = try context.performAndWait {
            steps.append("outer")
            try context.performAndWait {
                steps.append("inner")
                try context.insert("Student", ["id": 2, "name": "Bob"])
            }
            return try context.count("Student")
        }
        steps.append("after")
        #expect(steps == ["outer", "inner", "after"])
        #expect(count == 1)
        // The count processed the changes (as every fetch does); the block itself added nothing.
        #expect(recorder.names == [ManagedObjectContext.objectsDidChangeNotification])
    }

    @Test("Private context: a performed block is a user event, objects-did-change posted as it ends",
          arguments: StoreUnderTest.all)
    func privatePerform(store: StoreUnderTest) async throws {
        let (coordinator, _) = try store.makeCoordinator(model: SampleModels.student())
        let name = "perform-test-\(UUID())"
        let background = BackgroundContext(coordinator: coordinator, name: name)
        let posted = Recorder<ContextChanges>()
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.objectsDidChangeNotification, object: nil, queue: nil
        ) { note in
            guard (note.object as? ManagedObjectContext)?.name == name else { return }
            posted.append(note.contextChanges ?? ContextChanges())
        }
        defer { NotificationCenter.default.removeObserver(token) }

        let id = try await background.perform { context in
            try context.insert("Student", ["id": 3, "name": "Carol"]).objectID
        }
        #expect(posted.elements.map(\.inserted) == [[id]])

        // A block that throws still ends the event.
        struct Stop: Error {}
        await #expect(throws: Stop.self) {
            try await background.perform { context in
                try context.insert("Student", ["id": 4, "name": "Dan"])
                throw Stop()
            }
        }
        #expect(posted.elements.count == 2)

        // ManagedObjectContext.perform on the private context itself queues on its queue.
        let order = try await background.perform { context in
            let steps = Recorder<String>()
            context.perform { steps.append("queued block") }
            steps.append("after perform")
            return steps
        }
        _ = try await background.perform { _ in 0 }
        #expect(order.elements == ["after perform", "queued block"])
    }

    @Test("Confined context: perform runs at once and processes the changes", arguments: StoreUnderTest.all)
    func confinedPerform(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.student())
        let recorder = NotificationRecorder(context)
        context.perform {
            _ = try? context.insert("Student", ["id": 5, "name": "Eve"])
        }
        #expect(recorder.names == [ManagedObjectContext.objectsDidChangeNotification])
        #expect(try context.performAndWait { try context.count("Student") } == 1)
    }
}
