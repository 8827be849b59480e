import Foundation
@_spi(StoreImplementation) import ExampleStore
import Strata
import StrataTestSupport
import Testing

/// Persistent history on every store type: the example store, on the core protocol alone,
/// refuses history requests.
@Suite("Persistent history")
struct PersistentHistoryTests {
    /// Students whose name is kept in history on deletion.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Student") {
                { () -> Attribute in
                    var name = Attribute("name", .string)
                    name.description.preservesValueInHistoryOnDeletion = true
                    return name
                }()
                Attribute("age", .integer16)
            }
        }
    }

    /// A coordinator on one store of `store`'s type with history on (at `url` when it has a file).
    static func coordinator(_ store: StoreUnderTest, url: URL?, values: Bool = false) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        var options: [String: PropertyListValue] = [StoreOption.persistentHistoryTracking: .bool(true)]
        if values { options[StoreOption.persistentHistoryValues] = .bool(true) }
        try coordinator.addPersistentStore(type: store.type, at: url, options: options)
        return coordinator
    }

    static var historyStores: [StoreUnderTest] { StoreUnderTest.all.filter { $0.type != ExampleStore.storeType } }

    @Test("Each save records a transaction with its author, context name, process and changes; tombstones keep the marked values",
          arguments: historyStores)
    func recordsTransactions(store: StoreUnderTest) throws {
        let url = store.hasFile ? try store.storeURL() : nil
        let coordinator = try Self.coordinator(store, url: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        context.transactionAuthor = "tester"
        context.name = "main"
        let ada = try context.insert("Student", ["name": "Ada", "age": Int16(20)])
        let bob = try context.insert("Student", ["name": "Bob", "age": Int16(21)])
        try context.save()
        try ada.setValue(Int16(22), forKey: "age")
        try context.save()
        try context.delete(bob)
        try context.save()

        let all = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(all.map(\.transactionNumber) == [1, 2, 3])
        #expect(all.allSatisfy { $0.author == "tester" && $0.contextName == "main" })
        #expect(all.allSatisfy { $0.processIdentifier == ProcessInfo.processInfo.processName })
        #expect(all[0].changes?.map(\.changeType) == [.insert, .insert])
        #expect(Set(all[0].changes?.map(\.changedObjectID) ?? []) == [ada.objectID, bob.objectID])
        let update = try #require(all[1].changes?.first)
        #expect(update.changeType == .update && update.changedObjectID == ada.objectID)
        #expect(update.updatedProperties == ["age"])
        #expect(update.oldValues == nil && update.newValues == nil)
        let deletion = try #require(all[2].changes?.first)
        #expect(deletion.changeType == .delete && deletion.changedObjectID == bob.objectID)
        #expect(deletion.tombstone == ["name": .string("Bob")])
        #expect(all[1].timestamp >= all[0].timestamp && all[2].timestamp >= all[1].timestamp)
        let changeIDs = all.flatMap { $0.changes ?? [] }.map(\.changeID)
        #expect(changeIDs == changeIDs.sorted() && Set(changeIDs).count == 4)

        // A store opened again (a file store) reads the same history.
        if let url {
            let reopened = try Self.coordinator(store, url: url)
            #expect(try reopened.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions == all)
        }
    }

    @Test("Batch insert, update and delete each record a transaction, as a save does", arguments: historyStores)
    func recordsBatchRequests(store: StoreUnderTest) throws {
        let url = store.hasFile ? try store.storeURL() : nil
        let coordinator = try Self.coordinator(store, url: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        context.transactionAuthor = "importer"
        context.name = "batches"
        var insert = BatchInsertRequest(entityName: "Student", objects: [["name": "Ada", "age": Int16(20)], ["name": "Bob", "age": Int16(21)]])
        insert.resultType = .objectIDs
        let ids = try #require(try context.execute(insert).objectIDs)
        #expect(ids.count == 2)
        let (ada, bob) = (ids[0], ids[1])
        // Setting a value a row already has is recorded too: the request set it.
        var update = BatchUpdateRequest(entityName: "Student", predicate: try ObjectPredicate(format: "name == 'Ada'"),
                                        propertiesToUpdate: ["age": Int16(30)])
        update.resultType = .objectIDs
        #expect(try context.execute(update).objectIDs == [ada])
        var delete = BatchDeleteRequest(objectIDs: [bob])
        delete.resultType = .objectIDs
        #expect(try context.execute(delete).objectIDs == [bob])

        let all = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(all.map(\.transactionNumber) == [1, 2, 3])
        #expect(all[0].changes?.map(\.changeType) == [.insert, .insert])
        #expect(all[0].changes?.map(\.changedObjectID) == [ada, bob])
        #expect(all[1].changes?.map(\.changeType) == [.update])
        #expect(all[1].changes?.first?.changedObjectID == ada)
        #expect(all[1].changes?.first?.updatedProperties == ["age"])
        let deletion = try #require(all[2].changes?.first)
        #expect(all[2].changes?.count == 1)
        #expect(deletion.changeType == .delete && deletion.changedObjectID == bob)
        #expect(deletion.tombstone == ["name": .string("Bob")])
        #expect(all.allSatisfy { $0.processIdentifier == ProcessInfo.processInfo.processName })
        // Recorded with the author and name of the context that executed them, as a save is.
        #expect(all.allSatisfy { $0.author == "importer" && $0.contextName == "batches" })

        // What a batch request changed is what another context learns from history.
        let token = all[0].token
        let later = try context.execute(.fetchHistory(after: token)).transactions
        #expect(later.flatMap { $0.changes ?? [] }.map(\.changedObjectID) == [ada, bob])
        if let url {
            let reopened = try Self.coordinator(store, url: url)
            #expect(try reopened.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions == all)
        }
    }

    @Test("A batch update records old and new values when the store keeps them", arguments: historyStores)
    func batchUpdateValues(store: StoreUnderTest) throws {
        let coordinator = try Self.coordinator(store, url: store.hasFile ? try store.storeURL() : nil, values: true)
        let context = ManagedObjectContext(coordinator: coordinator)
        _ = try context.execute(BatchInsertRequest(entityName: "Student", objects: [["name": "Ada", "age": Int16(20)]]))
        _ = try context.execute(BatchUpdateRequest(entityName: "Student", propertiesToUpdate: ["age": Int16(31)]))
        let all = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        let change = try #require(all.last?.changes?.first)
        #expect(change.changeType == .update)
        #expect(change.oldValues == ["age": .integer(20)])
        #expect(change.newValues == ["age": .integer(31)])
    }

    @Test("A batch delete records the objects whose relationships it nullified as updates of them",
          arguments: historyStores, [false, true])
    func batchDeleteNullifies(store: StoreUnderTest, values: Bool) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.company())
        var options: [String: PropertyListValue] = [StoreOption.persistentHistoryTracking: .bool(true)]
        if values { options[StoreOption.persistentHistoryValues] = .bool(true) }
        try coordinator.addPersistentStore(type: store.type, at: store.hasFile ? try store.storeURL() : nil, options: options)
        let context = ManagedObjectContext(coordinator: coordinator)
        let acme = try context.insert("Employer", ["name": "Acme"])
        let ann = try context.insert("Employee", ["name": "Ann"])
        try ann.setValue(acme, forKey: "whereIWork")
        try context.save()
        let token = try coordinator.currentPersistentHistoryToken()

        _ = try context.execute(BatchDeleteRequest(objectIDs: [acme.objectID]))
        let transactions = try context.execute(.fetchHistory(after: token)).transactions
        #expect(transactions.count == 1)
        let changes = try #require(transactions.first?.changes)
        #expect(changes.map(\.changeType) == [.update, .delete])
        #expect(changes.map(\.changedObjectID) == [ann.objectID, acme.objectID])
        #expect(changes.first?.updatedProperties == ["whereIWork"])
        if values {
            #expect(changes.first?.oldValues == ["whereIWork": .objectID(acme.objectID)])
            #expect(changes.first?.newValues == [:])
        } else {
            #expect(changes.first?.oldValues == nil)
        }
    }

    @Test("History after a token, after a date, for given transactions, by predicate and limit; deleted before a token",
          arguments: historyStores)
    func readsAndDeletes(store: StoreUnderTest) throws {
        let coordinator = try Self.coordinator(store, url: store.hasFile ? try store.storeURL() : nil)
        let context = ManagedObjectContext(coordinator: coordinator)
        for (index, author) in ["a", "b", "a", "c"].enumerated() {
            context.transactionAuthor = author
            try context.insert("Student", ["name": "S\(index)"])
            try context.save()
            Thread.sleep(forTimeInterval: 0.002)   // distinct timestamps for the date bound
        }
        let all = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(all.count == 4)

        // Tokens survive encoding.
        let data = try JSONEncoder().encode(all[1].token)
        let token = try JSONDecoder().decode(PersistentHistoryToken.self, from: data)
        #expect(token == all[1].token)
        #expect(try context.execute(.fetchHistory(after: token)).transactions.map(\.transactionNumber) == [3, 4])
        #expect(try context.execute(.fetchHistory(after: all[2])).transactions.map(\.transactionNumber) == [4])
        #expect(try context.execute(.fetchHistory(after: all[1].timestamp)).transactions.map(\.transactionNumber) == [3, 4])
        #expect(try context.execute(.fetchHistory(for: [all[0], all[3]])).transactions.map(\.transactionNumber) == [1, 4])

        var byAuthor = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        byAuthor.transactionPredicate = try ObjectPredicate(format: "author == %@", "a")
        #expect(try context.execute(byAuthor).transactions.map(\.transactionNumber) == [1, 3])
        byAuthor.fetchLimit = 1
        #expect(try context.execute(byAuthor).transactions.map(\.transactionNumber) == [1])
        var count = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        count.resultType = .count
        #expect(try context.execute(count).count == 4)
        var inserts = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        inserts.changePredicate = try ObjectPredicate(format: "changeType == 0 AND entityName == 'Student'")
        inserts.resultType = .transactionsOnly
        let listed = try context.execute(inserts).transactions
        #expect(listed.count == 4 && listed.allSatisfy { $0.changes == nil })

        // Deleting before a token removes that transaction and those before it.
        let deleted = try context.execute(.deleteHistory(before: all[1].token))
        #expect(deleted.count == 2)
        #expect(try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions.map(\.transactionNumber) == [3, 4])
        // Numbers go on after a deletion.
        try context.insert("Student", ["name": "S4"])
        try context.save()
        #expect(try coordinator.currentPersistentHistoryToken()?.transactionNumber(forStore: all[0].storeIdentifier) == 5)
        #expect(try context.execute(.deleteHistory(before: nil as PersistentHistoryToken?)).count == 3)
        #expect(try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions.isEmpty)
    }

    @Test("With the values option an update records the old and new values of what it changed", arguments: historyStores)
    func recordsValues(store: StoreUnderTest) throws {
        let url = store.hasFile ? try store.storeURL() : nil
        let coordinator = try Self.coordinator(store, url: url, values: true)
        let context = ManagedObjectContext(coordinator: coordinator)
        let ada = try context.insert("Student", ["name": "Ada", "age": Int16(20)])
        try context.save()
        try ada.setValue(Int16(21), forKey: "age")
        try ada.setValue(nil, forKey: "name")
        try context.save()
        func check(_ coordinator: PersistentStoreCoordinator) throws {
            let update = try #require(try coordinator.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions.last?.changes?.first)
            #expect(update.updatedProperties == ["age", "name"])
            #expect(update.oldValues == ["age": .integer(20), "name": .string("Ada")])
            #expect(update.newValues == ["age": .integer(21)])
        }
        try check(coordinator)
        if let url { try check(try Self.coordinator(store, url: url, values: true)) }
    }

    @Test("Without the option nothing is recorded, and a store without history refuses history requests",
          arguments: StoreUnderTest.all)
    func refusals(store: StoreUnderTest) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let added = try coordinator.addPersistentStore(type: store.type, at: store.hasFile ? try store.storeURL() : nil)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insert("Student", ["name": "Ada"])
        try context.save()
        let error = try #require(throws: PersistentHistoryError.self) {
            try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?))
        }
        if store.type == ExampleStore.storeType {
            #expect(error == .unsupportedStore(storeIdentifier: added.identifier, type: store.type.rawValue))
        } else {
            #expect(error == .notTracked(storeIdentifier: added.identifier))
        }
        #expect(try coordinator.currentPersistentHistoryToken() == nil)
    }
}
