// ResultsBenchmarks: what a fetched results controller costs to follow a save, against a fresh
// performFetch() in the same run, and what it weighs next to its fetched IDs.
//
//   swift build -c release --package-path Benchmarks --product ResultsBenchmarks
//   Benchmarks/.build/release/ResultsBenchmarks [objects] [rounds]
//
// An SQLite store of `objects` items (default 100,000) in 10 sections; `rounds` (default 30)
// batches of 100 changes (sort-key moves, section changes, inserts, deletes, other updates).
// Reported: the median time the controller takes to report one batch (the objects-did-change
// pass of processPendingChanges(), delegate calls included), the median fresh performFetch(),
// their ratio, and the heap a batched controller (batch size 50) holds.
//
//   Benchmarks/.build/release/ResultsBenchmarks --large [rows]
//
// The peak resident size of a controller over `rows` (default 1,000,000) SQLite rows with a
// batch size of 50, read front to back with object(at:) (LargeResults.swift).
//
//   Benchmarks/.build/release/ResultsBenchmarks --front [rows …]
//
// The controller's cost per save of 100 inserts at the front of results of each size (default
// 100,000 and 1,000,000; FrontInserts.swift): the same for every size.
import BenchmarkSupport
import CMallocInfo
import Foundation
import Strata

if let phase = CommandLine.arguments.dropFirst().first, phase.hasPrefix("--") {
    if phase == "--front" {
        try FrontInserts.main(Array(CommandLine.arguments.dropFirst(2)))
    } else {
        try LargeResults.main(Array(CommandLine.arguments.dropFirst()))
    }
    exit(0)
}

final class CountingDelegate: FetchedResultsControllerDelegate {
    var changes = 0
    var receivesSnapshots: Bool { false }   // the per-object calls only: no O(n) snapshot a batch
    func controller(_ controller: any FetchedResultsControlling, didChange object: ManagedObject,
                    at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        changes += 1
    }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The data set's pseudo-random values.
enum Values: PseudoRandomValues {}


let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let count = arguments.first ?? 100_000
let rounds = arguments.dropFirst().first ?? 30

let model = try ManagedObjectModel {
    EntityDescription("Item") {
        Attribute("section", .string)
        Attribute("value", .double)
        Attribute("note", .string)
    }
}
let folder = try ChildProcess.makeScratchFolder(prefix: "results-benchmark")
let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
try coordinator.addPersistentStore(type: .sqlite, at: folder.appendingPathComponent("items.sqlite"))
let context = ManagedObjectContext(coordinator: coordinator)
var batch: [[String: Any?]] = []
for index in 0..<count {
    batch.append(["section": "s\(index % 10)", "value": Values.unit(1, index, 1) * 1_000_000, "note": "n\(index)"])
}
_ = try context.execute(BatchInsertRequest(entityName: "Item", objects: batch))
batch = []

let request = FetchRequest(entityName: "Item", sortDescriptors: [ObjectSortDescriptor(key: "section"), ObjectSortDescriptor(key: "value")])

// Memory: a batched controller keeps IDs and sort keys, no objects.
let memoryContext = ManagedObjectContext(coordinator: coordinator)
var batched = request
batched.fetchBatchSize = 50
let heapBefore = cmallocinfo_heap_in_use()
let memoryController = FetchedResultsController<ManagedObject>(fetchRequest: batched, managedObjectContext: memoryContext, sectionNameKeyPath: "section")
try memoryController.performFetch()
let heapAfter = cmallocinfo_heap_in_use()
let idBytes = count * MemoryLayout<ManagedObjectID>.stride

// A fresh performFetch(), three times.
var fetchTimes: [Double] = []
for _ in 0..<3 {
    let fresh = FetchedResultsController<ManagedObject>(fetchRequest: request, managedObjectContext: ManagedObjectContext(coordinator: coordinator),
                                                        sectionNameKeyPath: "section")
    fetchTimes.append(try seconds { try fresh.performFetch() })
}

// The controller following saves of 100 changes.
let controller = FetchedResultsController<ManagedObject>(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "section")
let delegate = CountingDelegate()
controller.delegate = delegate
try controller.performFetch()
var reportTimes: [Double] = []
var saveTimes: [Double] = []
var step = 0
for round in 0..<rounds {
    let ids = controller.fetchedObjectIDs ?? []
    for change in 0..<100 {
        step += 1
        let object = try context.existingObject(with: ids[Int(Values.bits(2, step, 1) % UInt64(ids.count))])
        switch change % 5 {
        case 0: try object.setValue(Values.unit(3, step, 1) * 1_000_000, forKey: "value")
        case 1: try object.setValue("s\(Values.bits(3, step, 2) % 10)", forKey: "section")
        case 2:
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValuesForKeys(["section": "s\(step % 10)", "value": Values.unit(4, step, 1) * 1_000_000])
        case 3: if !object.isDeleted { try context.delete(object) }
        default: try object.setValue("round \(round)", forKey: "note")
        }
    }
    reportTimes.append(seconds { context.processPendingChanges() })
    saveTimes.append(try seconds { try context.save() })
}

let report = median(reportTimes)
let fetch = median(fetchTimes)
print("objects: \(count), sections: \(controller.sections?.count ?? 0), rounds: \(rounds) x 100 changes, changes reported: \(delegate.changes)")
print(String(format: "fresh performFetch (median of 3): %.1f ms", fetch * 1000))
print(String(format: "report one batch (median): %.3f ms  ratio: 1/%.0f (target: 1/20 or better)", report * 1000, fetch / report))
print(String(format: "save with the controller attached (median): %.1f ms", median(saveTimes) * 1000))
print(String(format: "batched controller (batch size 50): %.1f MiB of heap in use; its fetched IDs alone: %.1f MiB",
             Double(heapAfter - heapBefore) / 1_048_576, Double(idBytes) / 1_048_576))
withExtendedLifetime(memoryController) {}
try? FileManager.default.removeItem(at: folder)
