import BenchmarkSupport
import CMallocInfo
import Foundation
import Strata

/// The footprint figures, each measured as an app sees it.
enum Measurements {
    /// `MemoryLayout<ManagedObjectID>.size`: what an ID adds to every object and every list of IDs.
    static func objectIDBytes() -> Int { MemoryLayout<ManagedObjectID>.size }

    /// For the entity of `count` attributes, with `rows` rows in the store at `file`: the heap
    /// block of one fetched, read object (`malloc_usable_size`), and the heap bytes a context holds
    /// per fetched, read object (the object, its values, its registry entry and its place in the
    /// fetch's result), from the C heap in use before and after the fetch.
    ///
    /// The row cache is off and the same fetch runs once first in a context that is let go, so
    /// that neither cached rows nor SQLite's page cache count.
    static func fetchedObject(attributes count: Int, rows: Int, file: URL) throws -> (block: Int, heapBytes: Double) {
        let coordinator = try Dataset.open(file, rowCacheCapacity: 0)
        let request = FetchRequest(entityName: Dataset.entityName(count))
        var digest = 0
        do {
            let warm = ManagedObjectContext(coordinator: coordinator)
            for object in try warm.fetch(request) { digest &+= try Dataset.readAll(object, attributes: count) }
        }
        let context = ManagedObjectContext(coordinator: coordinator)
        let before = cmallocinfo_heap_in_use()
        let objects = try context.fetch(request)
        for object in objects { digest &+= try Dataset.readAll(object, attributes: count) }
        let after = cmallocinfo_heap_in_use()
        guard objects.count == rows, digest == 2 * rows * count else {
            throw FootprintError("fetched \(objects.count) of \(rows) \(Dataset.entityName(count)) rows, \(digest) values read")
        }
        let block = withExtendedLifetime(objects) { cmallocinfo_usable_size(Unmanaged.passUnretained(objects[0]).toOpaque()) }
        return withExtendedLifetime((context, objects)) { (block, Double(Int(after) - Int(before)) / Double(rows)) }
    }

    /// Iterates the `rows` rows of `Item6` at `file` as an app reads a large result: a batched
    /// fetch (500 a batch), each batch read, then turned back into faults. Returns the process's
    /// resident memory once the fetch returned and its peak, in KiB: what the child process runs
    /// (``ChildProcess``), so that the peak is the iteration's own.
    static func iteration(rows: Int, file: URL) throws -> (afterFetchKiB: Int, peakKiB: Int) {
        let coordinator = try Dataset.open(file)
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: Dataset.entityName(6))
        request.fetchBatchSize = 500
        let objects = try context.fetchBatched(request)
        let afterFetch = ProcessStatus.residentKiB()
        var digest = 0
        var start = objects.startIndex
        while start < objects.endIndex {
            let end = min(start + request.fetchBatchSize, objects.endIndex)
            for index in start..<end { digest &+= try Dataset.readAll(objects[index], attributes: 6) }
            for index in start..<end { try context.refresh(objects[index], mergeChanges: false) }
            start = end
        }
        guard objects.count == rows, digest == rows * 6 else {
            throw FootprintError("iterated \(objects.count) of \(rows) rows, \(digest) values read")
        }
        return (afterFetch, ProcessStatus.peakKiB())
    }
}

/// A measurement that could not be made: what went wrong.
struct FootprintError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
