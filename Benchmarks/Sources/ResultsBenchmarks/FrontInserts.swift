import BenchmarkSupport
import Foundation
import Strata

/// What a save that inserts at the front of a large result costs the controller, for several
/// result sizes: `ResultsBenchmarks --front [rows …]` (default 100,000 and 1,000,000).
///
/// For each size: an SQLite store of `rows` items sorted by a random double in [0, 1,000,000),
/// a controller with a batch size of 50, then 20 rounds of 100 inserts whose values are below
/// every other (so each lands at index 0), each round processed (the controller's report) and
/// saved (the controller moves the rows to their permanent IDs). If the controller's cost grows
/// with the change and not with the result, the times are the same for every size.
enum FrontInserts {
    static func main(_ arguments: [String]) throws {
        let sizes = arguments.compactMap { Int($0) }
        for rows in sizes.isEmpty ? [100_000, 1_000_000] : sizes { try measure(rows: rows) }
    }

    final class Counter: FetchedResultsControllerDelegate {
        var inserts = 0
        var receivesSnapshots: Bool { false }
        func controller(_ controller: any FetchedResultsControlling, didChange object: ManagedObject,
                        at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            if type == .insert, let row = newIndexPath?[1], row < 100 { inserts += 1 }
        }
    }

    static func measure(rows: Int) throws {
        let folder = try ChildProcess.makeScratchFolder(prefix: "results-front")
        defer { try? FileManager.default.removeItem(at: folder) }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try LargeResults.model())
        try coordinator.addPersistentStore(type: .sqlite, at: folder.appendingPathComponent("items.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)
        var written = 0
        while written < rows {
            let end = Swift.min(rows, written + 50_000)
            let batch: [[String: Any?]] = (written..<end).map { index in
                ["section": "s", "value": Values.unit(6, index, 1) * 1_000_000, "note": "note \(index)"]
            }
            _ = try context.execute(BatchInsertRequest(entityName: "Item", objects: batch))
            written = end
        }
        var request = FetchRequest(entityName: "Item", sortDescriptors: [ObjectSortDescriptor(key: "value")])
        request.fetchBatchSize = 50
        let controller = FetchedResultsController<ManagedObject>(fetchRequest: request, managedObjectContext: context)
        let counter = Counter()
        controller.delegate = counter
        let fetch = try seconds { try controller.performFetch() }
        var reports: [Double] = []
        var saves: [Double] = []
        var next = -1.0
        for _ in 0..<20 {
            for _ in 0..<100 {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValuesForKeys(["section": "s", "value": next, "note": "front"])
                next -= 1
            }
            reports.append(seconds { context.processPendingChanges() })
            saves.append(try seconds { try context.save() })
        }
        precondition(counter.inserts == 2_000, "every insert was reported among the first 100 rows")
        precondition(controller.sections?.first?.numberOfObjects == rows + 2_000, "every insert is in the results")
        print(String(format: "front inserts, %d rows: performFetch %.2f s; per save of 100 inserts at the front (median of 20): report %.2f ms, save %.1f ms",
                     rows, fetch, median(reports) * 1000, median(saves) * 1000))
    }
}
