import Foundation
import Strata
import StrataTestSupport
import Testing

/// Saves made by another coordinator or process reach a context through the remote-change
/// notification and persistent history. SQLite only: the atomic stores are for one writing
/// process, and only a store that detects remote changes (`RemoteChangeDetectingStore`) posts
/// the notification.
@Suite("Remote changes")
struct RemoteChangeTests {
    private static let options: [String: PropertyListValue] = [
        StoreOption.persistentHistoryTracking: .bool(true), StoreOption.remoteChangeNotificationPost: .bool(true),
        StoreOption.remoteChangeCheckInterval: .double(0.01),
    ]

    private static func context(_ url: URL) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try CrashSafetyTests.model())
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// Fetches in `context` until `done` holds (a fetch is where a following context merges), at
    /// most ten seconds.
    private static func fetchUntil(_ context: ManagedObjectContext, _ done: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            _ = try context.count(for: FetchRequest(entityName: "Counter"))
            if try done() { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    @Test("Another coordinator's save posts the remote-change notification with the history token")
    func notificationCarriesToken() async throws {
        let url = try TemporaryFolder.make().appendingPathComponent("remote.sqlite")
        let watcher = try Self.context(url)
        let writer = try Self.context(url)
        let coordinator = watcher.persistentStoreCoordinator
        let received = Locked<[PersistentHistoryToken]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.remoteChangeNotification, object: coordinator, queue: nil
        ) { note in
            if let token = note.userInfo?[PersistentStoreCoordinator.remoteChangeHistoryTokenKey] as? PersistentHistoryToken {
                received.withLock { $0.append(token) }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.insertNewObject(forEntityName: "Counter").setValue(Int64(1), forKey: "value")
        try writer.save()
        let store = try #require(coordinator.persistentStores.first)
        let expected = PersistentHistoryToken(transactionNumbers: [store.identifier: 1])
        let deadline = Date().addingTimeInterval(10)
        while !received.withLock({ $0.contains(expected) }) && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        // (Opening the writer's store may post one first: it is a write to the file too.)
        #expect(received.withLock { $0.last } == expected)
    }

    @Test("A context that merges automatically sees another coordinator's inserts, updates and deletes; its own edits stay")
    func followsAnotherCoordinator() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("follow.sqlite")
        let follower = try Self.context(url)
        let writer = try Self.context(url)
        let kept = try writer.insertNewObject(forEntityName: "Counter")
        try kept.setValue(Int64(1), forKey: "value")
        let doomed = try writer.insertNewObject(forEntityName: "Item")
        try doomed.setValue(Int64(7), forKey: "index")
        try writer.save()

        follower.automaticallyMergesChangesFromParent = true
        let counter = try follower.existingObject(with: kept.objectID)
        let item = try follower.existingObject(with: doomed.objectID)
        #expect(try counter.value(forKey: "value") as? Int64 == 1)
        #expect(try item.value(forKey: "index") as? Int64 == 7)
        try item.setValue(Int64(8), forKey: "index")   // a local edit of an object another coordinator changes

        try kept.setValue(Int64(2), forKey: "value")
        let added = try writer.insertNewObject(forEntityName: "Counter")
        try added.setValue(Int64(3), forKey: "value")
        try writer.save()
        try Self.fetchUntil(follower) { try counter.value(forKey: "value") as? Int64 == 2 }
        #expect(try counter.value(forKey: "value") as? Int64 == 2, "the update reached the follower")
        #expect(try item.value(forKey: "index") as? Int64 == 8, "its own pending edit stays")

        try writer.delete(doomed)
        try writer.save()
        try Self.fetchUntil(follower) { item.isDeleted || item.managedObjectContext == nil }
        #expect(item.managedObjectContext == nil || item.isDeleted, "the delete reached the follower")
        #expect(try follower.count(for: FetchRequest(entityName: "Item")) == 0)
    }

    @Test("Two processes on one SQLite file, each saving 1,000 small changes while the other merges automatically")
    func twoProcessesFollowEachOther() throws {
        let executable = try #require(CrashSafetyTests.saveLoopExecutable(), "StoreSaveLoop is not built next to the test binary")
        let url = try TemporaryFolder.make().appendingPathComponent("followers.sqlite")
        _ = try Self.context(url)   // the schema and history tables, made once before both start
        let runs = try [1, 2].map { tag in
            let process = Process()
            process.executableURL = executable
            process.arguments = ["SQLite", url.path, "--follow", "1000", "\(tag)"]
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            return (process, output, errors)
        }
        for (process, output, errors) in runs {
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "a follower failed: \(message)")
            let words = printed.split(whereSeparator: \.isWhitespace)
            // followed N merged M during D total T
            #expect(words.count == 8 && words[0] == "followed" && words[1] == "1000", "a follower reported \(printed)")
            #expect(words.count == 8 && words[3] == "1000", "every Item of the other process merged from history: \(printed)")
            #expect(words.count == 8 && words[7] == "2000", "every Item in the store, none twice: \(printed)")
        }
        let context = try Self.context(url)
        #expect(try context.count(for: FetchRequest(entityName: "Item")) == 2000)
        let history = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?))
        #expect(history.transactions.count == 2000)
        #expect(Set(history.transactions.compactMap(\.author)) == ["follower-1", "follower-2"])
    }
}
