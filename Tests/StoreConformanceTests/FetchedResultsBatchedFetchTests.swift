import Foundation
import Strata
import StrataTestSupport
import Testing

/// A batched controller's `performFetch()` on every store type gives the sections an unbatched
/// one gives (the SQLite store reads them from its rows' IDs and key columns in one query, the
/// others from the objects), whatever the keys: nil values, ties broken by ID, a section key
/// that is not the first sort key, a predicate, unsaved changes.
@Suite("Fetched results controller, batched fetch", .serialized)
struct FetchedResultsBatchedFetchTests {
    private func snapshot(_ request: FetchRequest<ManagedObject>, batchSize: Int, _ context: ManagedObjectContext,
                          sections keyPath: String?) throws -> ResultsSnapshot {
        var request = request
        request.fetchBatchSize = batchSize
        let controller = FetchedResultsController<ManagedObject>(fetchRequest: request, managedObjectContext: context,
                                                                 sectionNameKeyPath: keyPath)
        try controller.performFetch()
        return controller.snapshot
    }

    /// 60 employees: levels 0...2 (nil for every seventh), sections "a"..."c" following the
    /// level, heights with ties.
    private func seed(_ context: ManagedObjectContext) throws {
        for index in 0..<60 {
            let level = index % 7 == 0 ? nil : Int32(index % 3)
            try context.insert("Employee", ["name": "e\(index)", "level": level, "height": Double(index % 5),
                                            "sectionName": level.map { ["a", "b", "c"][Int($0)] }])
        }
        try context.save()
    }

    @Test("Batched and unbatched controllers give the same sections", arguments: StoreUnderTest.all)
    func sameSections(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: ResultsModel.model)
        try seed(context)
        let reader = context.freshContext()
        let byLevel = FetchRequest(entityName: "Employee", sortDescriptors: [
            ObjectSortDescriptor(key: "level"), ObjectSortDescriptor(key: "height", ascending: false),
        ])
        let cases: [(FetchRequest<ManagedObject>, String?)] = [
            (byLevel, "level"),
            (byLevel, "sectionName"),   // the section key is not the first sort key
            (ResultsModel.employees, "sectionName"),
            (FetchRequest(entityName: "Employee", sortDescriptors: [ObjectSortDescriptor(key: "height")]), nil),
        ]
        for (request, keyPath) in cases {
            let whole = try snapshot(request, batchSize: 0, reader, sections: keyPath)
            #expect(whole.objectIDs.count == 60)
            #expect(try snapshot(request, batchSize: 10, reader, sections: keyPath) == whole)
        }
        var tall = ResultsModel.employees
        tall.predicate = try ObjectPredicate(format: "height >= 3")
        let tallWhole = try snapshot(tall, batchSize: 0, reader, sections: "sectionName")
        #expect(tallWhole.objectIDs.count == 24)
        #expect(try snapshot(tall, batchSize: 10, reader, sections: "sectionName") == tallWhole)

        // Unsaved changes count: the store's rows alone are not the answer.
        let first = try #require(try reader.fetch(ResultsModel.employees).first)
        try reader.delete(first)
        try reader.insert("Employee", ["name": "new", "height": 9.0, "sectionName": "a", "level": Int32(0)])
        let changed = try snapshot(ResultsModel.employees, batchSize: 10, reader, sections: "sectionName")
        #expect(changed == (try snapshot(ResultsModel.employees, batchSize: 0, reader, sections: "sectionName")))
        #expect(changed.objectIDs.count == 60 && !changed.objectIDs.contains(first.objectID))
    }

    @Test("A batched fetch whose first sort key does not order the sections is refused", arguments: StoreUnderTest.all)
    func refusedBatched(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: ResultsModel.model)
        try seed(context)
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [ObjectSortDescriptor(key: "height")])
        request.fetchBatchSize = 10
        let controller = FetchedResultsController<ManagedObject>(fetchRequest: request, managedObjectContext: context.freshContext(),
                                                                 sectionNameKeyPath: "sectionName")
        #expect(throws: FetchedResultsError.self) { try controller.performFetch() }
    }
}
