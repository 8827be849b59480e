import Foundation
import Strata
import StrataTestSupport
import Testing

/// A context pinned to a query generation reads one state of the store, on every store type.
@Suite("Query generations")
struct QueryGenerationTests {
    @Test("A pinned context does not see a later save of another context, in fetches or faults; unpinning does",
          arguments: StoreUnderTest.all)
    func pinnedSeesOneState(store: StoreUnderTest) throws {
        let setup = try store.makeContext(model: SampleModels.student())
        let ada = try setup.insert("Student", ["id": 1, "name": "Ada", "age": 18])
        try setup.save()

        let pinned = setup.freshContext()
        try pinned.setQueryGenerationFrom(.current)
        let token = try #require(pinned.queryGenerationToken)
        #expect(token != .current)
        #expect(try pinned.count("Student") == 1)

        let writer = setup.freshContext()
        try writer.existingObject(with: ada.objectID).setValue("Ada Lovelace", forKey: "name")
        let bob = try writer.insert("Student", ["id": 2, "name": "Bob", "age": 20])
        try writer.save()

        // Fetches, counts and faults read the generation.
        #expect(try pinned.count("Student") == 1)
        #expect(try pinned.strings(FetchRequest(entityName: "Student")) == ["Ada"])
        #expect(try pinned.existingObject(with: ada.objectID).string("name") == "Ada")
        #expect(throws: (any Error).self) { try pinned.existingObject(with: bob.objectID) }

        // Another context may share the generation by its token.
        let sharing = setup.freshContext()
        try sharing.setQueryGenerationFrom(token)
        #expect(sharing.queryGenerationToken == token)
        #expect(try sharing.count("Student") == 1)

        // Unpinned, the context reads the store as it is.
        try pinned.setQueryGenerationFrom(nil)
        #expect(pinned.queryGenerationToken == nil)
        #expect(try pinned.count("Student") == 2)
        let loaded = try pinned.existingObject(with: ada.objectID)
        try pinned.refresh(loaded, mergeChanges: false)
        #expect(try loaded.string("name") == "Ada Lovelace")
    }

    @Test("A pinned context's save lands and moves it to a new generation that sees the saves before it",
          arguments: StoreUnderTest.all)
    func saveMovesGeneration(store: StoreUnderTest) throws {
        let setup = try store.makeContext(model: SampleModels.student())
        try setup.insert("Student", ["id": 1, "name": "Ada", "age": 18])
        try setup.save()
        let pinned = setup.freshContext()
        try pinned.setQueryGenerationFrom(.current)
        let first = pinned.queryGenerationToken
        let writer = setup.freshContext()
        try writer.insert("Student", ["id": 2, "name": "Bob", "age": 20])
        try writer.save()
        #expect(try pinned.count("Student") == 1)

        try pinned.insert("Student", ["id": 3, "name": "Cy", "age": 22])
        try pinned.save()
        #expect(pinned.queryGenerationToken != nil && pinned.queryGenerationToken != first)
        #expect(try pinned.count("Student") == 3)
        #expect(try setup.freshContext().count("Student") == 3)
        #expect(throws: QueryGenerationError.self) {
            try setup.freshContext().setQueryGenerationFrom(QueryGenerationTokenProbe.stale(of: pinned))
        }
    }

    @Test("A pinned SQLite context keeps its snapshot while another coordinator writes the file")
    func sqliteSnapshotAcrossCoordinators() throws {
        let store = try #require(StoreUnderTest.all.first { $0.type == .sqlite })
        let (coordinator, added) = try store.makeCoordinator(model: SampleModels.student())
        let url = try #require(added.url)
        let setup = ManagedObjectContext(coordinator: coordinator)
        try setup.insert("Student", ["id": 1, "name": "Ada", "age": 18])
        try setup.save()
        let pinned = ManagedObjectContext(coordinator: coordinator)
        try pinned.setQueryGenerationFrom(.current)

        let other = PersistentStoreCoordinator(managedObjectModel: try SampleModels.student())
        try other.addPersistentStore(type: .sqlite, at: url)
        let writer = ManagedObjectContext(coordinator: other)
        for id in 2...50 { try writer.insert("Student", ["id": id, "name": "S\(id)", "age": 20]) }
        try writer.save()

        #expect(try pinned.count("Student") == 1)
        #expect(try ManagedObjectContext(coordinator: coordinator).count("Student") == 50)
        try pinned.setQueryGenerationFrom(nil)
        #expect(try pinned.count("Student") == 50)
    }
}

/// A token of a generation no context holds any more.
enum QueryGenerationTokenProbe {
    static func stale(of context: ManagedObjectContext) throws -> QueryGenerationToken {
        let probe = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        try probe.setQueryGenerationFrom(.current)
        let token = try #require(probe.queryGenerationToken)
        try probe.setQueryGenerationFrom(nil)
        return token
    }
}
