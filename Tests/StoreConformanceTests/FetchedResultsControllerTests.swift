import Foundation
import Strata
import StrataTestSupport
import Testing

/// The fetched results controller on every store type: sections, change reports in Core Data's
/// index path convention, the cache, child and merging contexts.
@Suite("Fetched results controller", .serialized)
struct FetchedResultsControllerTests {
    /// A fresh controller's sections for `request` in `context`: what a new fetch gives.
    private func freshSnapshot(_ context: ManagedObjectContext, _ request: FetchRequest<ManagedObject> = ResultsModel.employees,
                               sectionNameKeyPath: String? = "sectionName") throws -> ResultsSnapshot {
        let controller = FetchedResultsController<ManagedObject>(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: sectionNameKeyPath)
        try controller.performFetch()
        return controller.snapshot
    }

    private func employee(_ context: ManagedObjectContext, _ name: String, _ height: Double, _ section: String?) throws -> ManagedObject {
        try context.insert("Employee", ["name": name, "height": height, "sectionName": section,
                                        "birthday": Date(timeIntervalSince1970: height * 86_400)])
    }

    @Test("Employees by section: inserts, deletes, section changes and updates are reported",
          arguments: StoreUnderTest.all)
    func employeesBySection(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: ResultsModel.model)
        let ann = try employee(context, "ann", 10, "1")
        _ = try employee(context, "bob", 20, "1")
        let cid = try employee(context, "cid", 5, "2")
        let dan = try employee(context, "dan", 30, "4")
        try context.save()

        let controller = FetchedResultsController<ManagedObject>(
            fetchRequest: ResultsModel.employees, managedObjectContext: context, sectionNameKeyPath: "sectionName")
        let delegate = RecordingDelegate()
        delegate.titles["4"] = "sectionName 4"
        controller.delegate = delegate
        try controller.performFetch()
        delegate.start(from: controller)
        #expect(delegate.calls.isEmpty)   // performFetch reports nothing
        #expect(controller.sections?.map(\.name) == ["1", "2", "4"])
        #expect(controller.sections?.map(\.numberOfObjects) == [2, 1, 1])
        #expect(controller.sectionIndexTitles == ["1", "2", "sectionName 4"])
        #expect(controller.section(forSectionIndexTitle: "sectionName 4", at: 2) == 2)
        #expect(try controller.sections?[0].objects.map { try $0.string("name") } == ["ann", "bob"])
        for (s, section) in (controller.sections ?? []).enumerated() {
            for row in 0..<section.numberOfObjects {
                let path = IndexPath(indexes: [s, row])
                #expect(controller.indexPath(forObject: controller.object(at: path)) == path)
            }
        }

        // Delete and save: one row delete at its old index path.
        try context.delete(cid)
        try context.save()
        #expect(delegate.takeCalls() == ["will", "section- 1 2", "delete 1/0", "did"])

        // Insert into a new section "3" (between "1" and "4").
        let lxz = try employee(context, "lxz 15", 15, "3")
        try context.save()
        // Inserted, then given its permanent ID by the save: a move in place, so that lists
        // keyed by object ID take the new ID.
        #expect(delegate.takeCalls() == ["will", "section+ 1 3", "insert 1/0", "did", "will", "move 1/0>1/0", "did"])
        #expect(controller.indexPath(forObject: lxz) == IndexPath(indexes: [1, 0]))

        // Insert into an existing section, before its first row.
        _ = try employee(context, "eve", 1, "1")
        context.processPendingChanges()
        #expect(delegate.takeCalls() == ["will", "insert 0/0", "did"])
        try context.save()
        #expect(delegate.takeCalls() == ["will", "move 0/0>0/0", "did"])   // the permanent ID only

        // Change the section key: a move across sections, the old section emptied.
        try dan.setValue("1", forKey: "sectionName")
        try context.save()
        #expect(delegate.takeCalls() == ["will", "section- 2 4", "move 2/0>0/3", "did"])

        // Change the sort key within a section: a move.
        try ann.setValue(25.0, forKey: "height")
        try context.save()
        #expect(delegate.takeCalls() == ["will", "move 0/1>0/2", "did"])

        // Change an attribute the order does not read: an update in place.
        try ann.setValue("anne", forKey: "name")
        try context.save()
        #expect(delegate.takeCalls() == ["will", "update 0/2", "did"])

        // A change that touches no fetched object reports nothing.
        _ = try context.insert("Event", ["timeStamp": Date()])
        try context.save()
        #expect(delegate.takeCalls().isEmpty)

        #expect(delegate.snapshot == controller.snapshot)
        #expect(controller.snapshot == (try freshSnapshot(context)))
        #expect(controller.snapshot == (try freshSnapshot(context.freshContext())))
        #expect(controller.snapshot.sections.map(\.name) == ["1", "3"])
    }

    @Test("Events by time stamp descending, batch size 20, cache \"Root\": a second controller reuses the cache",
          arguments: StoreUnderTest.all)
    func eventsWithCache(store: StoreUnderTest) throws {
        let folder = try TemporaryFolder.make()
        FetchedResultsController<ManagedObject>.cacheDirectory = folder
        let context = try store.makeContext(model: ResultsModel.model)
        for day in 0..<100 { try context.insert("Event", ["timeStamp": Date(timeIntervalSince1970: Double(day) * 86_400)]) }
        try context.save()
        var request = FetchRequest(entityName: "Event", sortDescriptors: [ObjectSortDescriptor(key: "timeStamp", ascending: false)])
        request.fetchBatchSize = 20
        FetchedResultsController<ManagedObject>.deleteCache(withName: "Root")
        let cacheFile = folder.appendingPathComponent("Root.strataresults")

        let first = FetchedResultsController<ManagedObject>(fetchRequest: request, managedObjectContext: context, cacheName: "Root")
        try first.performFetch()
        #expect(first.sections?.count == 1)
        #expect(first.fetchedObjectIDs?.count == 100)
        let newest = first.object(at: IndexPath(indexes: [0, 0]))
        #expect(try newest.value(forKey: "timeStamp") as? Date == Date(timeIntervalSince1970: 99 * 86_400))
        let last = first.object(at: IndexPath(indexes: [0, 99]))
        #expect(try last.value(forKey: "timeStamp") as? Date == Date(timeIntervalSince1970: 0))
        let written = try Data(contentsOf: cacheFile)

        // A second controller with the same request and cache finds the file current and
        // leaves it as it was; it gives the same sections.
        Thread.sleep(forTimeInterval: 0.01)
        let second = FetchedResultsController<ManagedObject>(fetchRequest: request, managedObjectContext: context.freshContext(), cacheName: "Root")
        let before = try FileManager.default.attributesOfItem(atPath: cacheFile.path)[.modificationDate] as? Date
        try second.performFetch()
        let after = try FileManager.default.attributesOfItem(atPath: cacheFile.path)[.modificationDate] as? Date
        #expect(before == after)
        #expect(second.snapshot == first.snapshot)
        #expect(second.object(at: IndexPath(indexes: [0, 50])).objectID == first.object(at: IndexPath(indexes: [0, 50])).objectID)

        // A changed request makes the cache stale: it is computed again and rewritten.
        var changed = request
        changed.predicate = try ObjectPredicate(format: "timeStamp > %@", Date(timeIntervalSince1970: 49.5 * 86_400))
        let third = FetchedResultsController<ManagedObject>(fetchRequest: changed, managedObjectContext: context, cacheName: "Root")
        try third.performFetch()
        #expect(third.fetchedObjectIDs?.count == 50)
        #expect(try Data(contentsOf: cacheFile) != written)

        // A change the controller reports removes its cache; deleteCache(withName:) too.
        try context.insert("Event", ["timeStamp": Date(timeIntervalSince1970: 200 * 86_400)])
        try context.save()
        #expect(third.fetchedObjectIDs?.count == 51)
        #expect(!FileManager.default.fileExists(atPath: cacheFile.path))
        try first.performFetch()
        #expect(FileManager.default.fileExists(atPath: cacheFile.path))
        FetchedResultsController<ManagedObject>.deleteCache(withName: "Root")
        #expect(!FileManager.default.fileExists(atPath: cacheFile.path))
    }

    @Test("A controller on a child context follows the child's changes", arguments: StoreUnderTest.all)
    func childContext(store: StoreUnderTest) throws {
        let parent = try store.makeContext(model: ResultsModel.model)
        _ = try employee(parent, "ann", 10, "1")
        try parent.save()
        let child = ManagedObjectContext(parent: parent)
        let controller = FetchedResultsController<ManagedObject>(
            fetchRequest: ResultsModel.employees, managedObjectContext: child, sectionNameKeyPath: "sectionName")
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        delegate.start(from: controller)
        let bob = try employee(child, "bob", 5, "1")
        child.processPendingChanges()
        #expect(delegate.takeCalls() == ["will", "insert 0/0", "did"])
        try bob.setValue("2", forKey: "sectionName")
        try child.save()
        #expect(delegate.takeCalls() == ["will", "section+ 1 2", "move 0/0>1/0", "did"])
        #expect(delegate.snapshot == controller.snapshot)
        #expect(controller.snapshot == (try freshSnapshot(child)))
        try parent.save()
        #expect(controller.snapshot.sections.map(\.objectIDs.count) == [1, 1])
    }

    @Test("A delegate that receives no snapshots gets every other call and no snapshot", arguments: StoreUnderTest.all)
    func noSnapshots(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: ResultsModel.model)
        _ = try employee(context, "ann", 10, "1")
        try context.save()
        let controller = FetchedResultsController<ManagedObject>(
            fetchRequest: ResultsModel.employees, managedObjectContext: context, sectionNameKeyPath: "sectionName")
        let delegate = RecordingDelegate()
        delegate.receivesSnapshots = false
        controller.delegate = delegate
        try controller.performFetch()
        delegate.start(from: controller)
        _ = try employee(context, "bob", 5, "2")
        context.processPendingChanges()
        #expect(delegate.takeCalls() == ["will", "section+ 1 2", "insert 1/0", "did"])
        #expect(delegate.snapshots.isEmpty && delegate.differences.isEmpty)
        #expect(delegate.snapshot == controller.snapshot)
        delegate.receivesSnapshots = true
        try context.delete(try #require(context.fetch(ResultsModel.employees).first))
        context.processPendingChanges()
        #expect(delegate.snapshots == [controller.snapshot])
    }

    @Test("A controller on a context that merges another's saves", arguments: StoreUnderTest.all)
    func mergingContext(store: StoreUnderTest) throws {
        let writer = try store.makeContext(model: ResultsModel.model)
        let ann = try employee(writer, "ann", 10, "1")
        let bob = try employee(writer, "bob", 20, "1")
        try writer.save()
        let reader = writer.freshContext()
        let controller = FetchedResultsController<ManagedObject>(
            fetchRequest: ResultsModel.employees, managedObjectContext: reader, sectionNameKeyPath: "sectionName")
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        delegate.start(from: controller)

        let cid = try employee(writer, "cid", 15, "2")
        try ann.setValue(30.0, forKey: "height")
        try writer.delete(bob)
        let bobID = bob.objectID
        try writer.save()
        try ManagedObjectContext.mergeChanges(fromRemoteContextSave: [
            ManagedObjectContext.insertedObjectsKey: [cid.objectID],
            ManagedObjectContext.updatedObjectsKey: [ann.objectID],
            ManagedObjectContext.deletedObjectsKey: [bobID],
        ], into: [reader])
        #expect(Set(delegate.takeCalls()) == ["will", "delete 0/1", "move 0/0>0/0", "section+ 1 2", "insert 1/0", "did"])
        #expect(delegate.snapshot == controller.snapshot)
        #expect(controller.snapshot == (try freshSnapshot(reader.freshContext())))
        #expect(controller.snapshot.sections.map(\.objectIDs) == [[ann.objectID], [cid.objectID]])
    }

    @Test("A live query yields the result, then each changed result, and ends when cancelled",
          arguments: StoreUnderTest.all)
    func liveQuery(store: StoreUnderTest) async throws {
        let context = try store.makeContext(model: ResultsModel.model)
        _ = try employee(context, "ann", 10, "1")
        try context.save()
        let updates = try context.changes(for: ResultsModel.employees, sectionNameKeyPath: "sectionName")
        var iterator = updates.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.snapshot.sections.map(\.objectIDs.count) == [1])
        #expect(first?.difference.objectChanges.map(\.type) == [.insert])
        _ = try employee(context, "bob", 5, "2")
        try context.save()
        let second = await iterator.next()
        #expect(second?.snapshot.sections.map(\.name) == ["1", "2"])
        #expect(second.map { $0.difference.applied(to: first!.snapshot) } == second?.snapshot)

        // Cancelled: the iteration ends, and the next change stops the query.
        let task = Task { () -> Int in
            var count = 0
            for await _ in updates { count += 1 }
            return count
        }
        task.cancel()
        _ = await task.value
        try context.insert("Employee", ["name": "cid", "height": 1.0, "sectionName": "1"])
        try context.save()
    }

    @Test("A live query ends when its context goes away")
    func liveQueryEndsWithContext() async throws {
        var context: ManagedObjectContext? = try StoreUnderTest.all[0].makeContext(model: ResultsModel.model)
        let updates = try context!.changes(for: ResultsModel.employees, sectionNameKeyPath: "sectionName")
        context = nil
        var count = 0
        for await _ in updates { count += 1 }
        #expect(count == 1)
    }
}

