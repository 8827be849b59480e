import Dispatch
import Foundation
import Strata
import StrataTestSupport
import Testing

/// Fetches on a background context: `async` methods that return what may cross, and Core Data's
/// asynchronous fetch request with its completion block on the context's queue.
@Suite("Asynchronous fetch")
struct AsyncFetchTests {
    private func students(_ store: StoreUnderTest) throws -> PersistentStoreCoordinator {
        let context = try store.makeContext(model: SampleModels.student())
        for (id, name, age) in [(1, "Alice", 18), (2, "Bob", 20), (3, "Carol", 22), (4, "Dave", 19)] {
            try context.insert("Student", ["id": id, "name": name, "age": age])
        }
        try context.save()
        return context.persistentStoreCoordinator
    }

    private func adults() throws -> FetchRequest<ManagedObject> {
        sortedRequest("Student", by: "id", predicate: try ObjectPredicate(format: "age >= 19"))
    }

    @Test("IDs, counts, dictionaries and transformed objects come back from the background queue",
          arguments: StoreUnderTest.all)
    func asyncMethods(store: StoreUnderTest) async throws {
        let coordinator = try students(store)
        let background = BackgroundContext(coordinator: coordinator, name: "fetcher")
        let request = try adults()
        let expectedIDs = try ManagedObjectContext(coordinator: coordinator).fetchObjectIDs(request)

        #expect(try await background.fetchObjectIDs(request) == expectedIDs)
        #expect(try await background.count(for: request) == 3)
        #expect(try await background.fetch(request) { try $0.value(forKey: "name") as? String ?? "" } == ["Bob", "Carol", "Dave"])
        var ages = request
        ages.propertiesToFetch = [.expression(ExpressionDescription(name: "total", expression: .sum("age"), resultType: .integer64))]
        #expect(try await background.fetchDictionaries(ages).map(\.storedValues) == [["total": .integer(61)]])
        // The objects lived on the background context while the transform used them; unchanged
        // and no longer used, they are not kept (a context holds unchanged objects weakly).
        let registered = background.performAndWait { context in context.registeredObjects.count }
        #expect(registered == 0)
    }

    @Test("An asynchronous fetch request calls its completion block on the context's queue with the result",
          arguments: StoreUnderTest.all)
    func completionBlock(store: StoreUnderTest) async throws {
        let coordinator = try students(store)
        let background = BackgroundContext(coordinator: coordinator)
        let seen = Recorder<String>()
        var request = try adults()
        request.fetchBatchSize = 2
        let operation = background.execute(AsynchronousFetchRequest(fetchRequest: request) { result in
            // The objects are used where they live: on the context's queue.
            seen.append("\(result.managedObjectContext.concurrencyType) \(result.operationError == nil) \(result.fetchRequest.fetchRequest.fetchBatchSize)")
            guard case .objects(let students)? = result.finalResult else { return seen.append("not objects") }
            for student in students { seen.append((try? student.string("name")) ?? "?") }
        })
        #expect(!operation.isCancelled)
        await operation.wait()
        #expect(seen.elements == ["privateQueue true 2", "Bob", "Carol", "Dave"])

        // The result type of the request decides what the block receives.
        let counted = Recorder<Int>()
        var countRequest = try adults()
        countRequest.resultType = .count
        await background.execute(AsynchronousFetchRequest(fetchRequest: countRequest) { result in
            if case .count(let count)? = result.finalResult { counted.append(count) }
        }).wait()
        #expect(counted.elements == [3])

        // A failing request hands the block its error.
        let failures = Recorder<String>()
        await background.execute(AsynchronousFetchRequest(fetchRequest: FetchRequest(entityName: "Nope")) { result in
            failures.append(result.finalResult == nil ? "no result" : "a result")
            failures.append(result.operationError.map { "\($0)" } ?? "no error")
        }).wait()
        #expect(failures.elements == ["no result", ObjectError.unknownEntity("Nope").description])
    }

    @Test("A cancelled asynchronous fetch does not run; its block receives the cancellation",
          arguments: StoreUnderTest.all)
    func cancellation(store: StoreUnderTest) async throws {
        let coordinator = try students(store)
        let background = BackgroundContext(coordinator: coordinator)
        // Keep the context's queue busy so the fetch cannot start before it is cancelled.
        let gate = Gate()
        // A thread of its own, so that no worker thread of the shared pools is held.
        Thread { background.performAndWait { _ in gate.holdQueue() } }.start()
        await gate.held()
        let outcomes = Recorder<String>()
        let operation = background.execute(AsynchronousFetchRequest(fetchRequest: try adults()) { result in
            outcomes.append(result.operationError.map { "\($0)" } ?? "ran")
        })
        operation.cancel()
        #expect(operation.isCancelled)
        gate.release()
        await operation.wait()
        #expect(outcomes.elements == [FetchRequestError.cancelled.description])
    }
}

/// Holds a queue until released, without blocking the test's own task while it waits.
private final class Gate: Sendable {
    private let state = Locked<(held: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
    private let open = DispatchSemaphore(value: 0)

    /// Runs on the held queue: says it is holding, then waits to be released.
    func holdQueue() {
        let waiter = state.withLock { state in
            state.held = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
        open.wait()
    }

    /// Returns once the queue is held.
    func held() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.held { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func release() { open.signal() }
}
