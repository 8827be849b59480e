import Foundation
import Strata
import StrataTestSupport
import Testing

/// Persistent history Core Data wrote, read by Strata from Core Data's own tables.
@Suite("Core Data's persistent history")
struct AppleStoreHistoryTests {
    @Test("CoreDataPlus SampleModel2: the transaction of 126 inserts Core Data recorded reads back whole")
    func readsCoreDataHistory() throws {
        let fixture = try #require(AppleStoreFixture.all.first { $0.store.hasSuffix("/SampleModel2_V2.sqlite") })
        let file = try fixture.workingCopy()
        let model = try #require(try ManagedObjectModel.compiledModel(inStoreAt: file))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: file, options: [
            StoreOption.persistentHistoryTracking: .bool(true), StoreOption.readOnly: .bool(true),
        ])
        let result = try coordinator.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?))
        #expect(result.transactions.count == 1)
        let transaction = try #require(result.transactions.first)
        #expect(transaction.transactionNumber == 1)
        #expect(transaction.storeIdentifier == store.identifier)
        #expect(transaction.bundleIdentifier == "com.apple.dt.xctest.tool")
        #expect(transaction.processIdentifier == "xctest")
        #expect(transaction.author == nil && transaction.contextName == nil)
        #expect(transaction.timestamp == Date(timeIntervalSinceReferenceDate: 737057651.681977))
        let changes = try #require(transaction.changes)
        #expect(changes.count == 126)
        #expect(changes.allSatisfy { $0.changeType == .insert })
        // By entity as the file's ZENTITY codes give them: 1 Book, 2 GraphicNovel, 3 Feedback, 4 Page, 6 Author.
        let byEntity = Dictionary(grouping: changes, by: \.changedObjectID.entityName).mapValues(\.count)
        #expect(byEntity == ["Book": 2, "GraphicNovel": 1, "Feedback": 3, "Page": 119, "Author": 1])
        #expect(changes.map(\.changeID) == Array(1...126))
        #expect(changes.first?.changedObjectID.primaryKey == 75)
        // Every change names a page the store holds, none twice.
        #expect(Set(changes.map(\.changedObjectID)).count == 126)
        let context = ManagedObjectContext(coordinator: coordinator)
        for change in changes {
            #expect(try context.existingObject(with: change.changedObjectID).entity.name == change.changedObjectID.entityName)
        }
        #expect(result.token == PersistentHistoryToken(transactionNumbers: [store.identifier: 1]))
        #expect(try coordinator.currentPersistentHistoryToken() == result.token)
        // After its own token there is nothing.
        #expect(try coordinator.execute(.fetchHistory(after: transaction.token)).transactions.isEmpty)
    }
}
