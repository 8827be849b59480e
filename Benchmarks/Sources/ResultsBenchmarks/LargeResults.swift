import BenchmarkSupport
import Foundation
import Strata

/// The peak memory of a controller over a large SQLite store, with a batch size of 50, read front
/// to back with `object(at:)`: `ResultsBenchmarks --large [rows]` (default 1,000,000).
///
/// The store is built by one child process and read by another (`--build-large`,
/// `--read-large`), so that the reader's peak resident size (VmHWM) is the controller's alone:
/// the process, its fetch, its results, and the batches it loads while reading.
enum LargeResults {
    /// Items in 10 sections, with a string section key, a double and a note.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Item") {
                Attribute("section", .string)
                Attribute("value", .double)
                Attribute("note", .string)
            }
        }
    }

    /// Runs the phase the arguments name.
    static func main(_ arguments: [String]) throws {
        switch arguments.first {
        case "--build-large": try build(path: arguments[1], rows: Int(arguments[2]) ?? 1_000_000)
        case "--read-large": try read(path: arguments[1])
        default: try measure(rows: arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000)
        }
    }

    /// Builds the store in one child and reads it in another; prints what they report.
    static func measure(rows: Int) throws {
        let folder = try ChildProcess.makeScratchFolder(prefix: "results-large")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("items.sqlite").path
        let built = try ChildProcess.resultFields(arguments: ["--build-large", path, "\(rows)"])
        let read = try ChildProcess.resultFields(arguments: ["--read-large", path])
        let peak = Int(read["peakKiB"] ?? "") ?? 0
        print("rows: \(built["rows"] ?? "?") in \(read["sections"] ?? "?") sections (store built in \(built["seconds"] ?? "?") s)")
        print("controller, batch size 50: performFetch \(read["fetchSeconds"] ?? "?") s, reading every object with object(at:) \(read["readSeconds"] ?? "?") s")
        print(String(format: "peak resident size (VmHWM): %.1f MiB (%.1f MB; target: under 100 MB); at start %.1f MiB, after performFetch %.1f MiB",
                     Double(peak) / 1024, Double(peak) * 1024 / 1e6,
                     Double(Int(read["startKiB"] ?? "") ?? 0) / 1024, Double(Int(read["fetchPeakKiB"] ?? "") ?? 0) / 1024))
        print(peak * 1024 < 100_000_000 ? "under 100 MB: yes" : "under 100 MB: NO")
    }

    /// Writes `rows` items, 50,000 a batch insert.
    static func build(path: String, rows: Int) throws {
        let start = Date()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: path))
        let context = ManagedObjectContext(coordinator: coordinator)
        var written = 0
        while written < rows {
            let end = Swift.min(rows, written + 50_000)
            let batch: [[String: Any?]] = (written..<end).map { index in
                ["section": "s\(index % 10)", "value": Values.unit(5, index, 1) * 1_000_000, "note": "note \(index)"]
            }
            _ = try context.execute(BatchInsertRequest(entityName: "Item", objects: batch))
            written = end
        }
        print("RESULT rows=\(written) seconds=\(String(format: "%.1f", Date().timeIntervalSince(start)))")
    }

    /// Makes the controller, reads every object, and reports the peak resident size.
    static func read(path: String) throws {
        let startKiB = ProcessStatus.peakKiB()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: path))
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Item", sortDescriptors: [ObjectSortDescriptor(key: "section"), ObjectSortDescriptor(key: "value")])
        request.fetchBatchSize = 50
        let controller = FetchedResultsController<ManagedObject>(fetchRequest: request, managedObjectContext: context,
                                                                 sectionNameKeyPath: "section")
        let fetchStart = Date()
        try controller.performFetch()
        let fetchSeconds = Date().timeIntervalSince(fetchStart)
        let fetchPeakKiB = ProcessStatus.peakKiB()
        let readStart = Date()
        var objects = 0
        var total = 0.0
        for (index, section) in (controller.sections ?? []).enumerated() {
            for row in 0..<section.numberOfObjects {
                let object = controller.object(at: IndexPath(indexes: [index, row]))
                total += try object.value(forKey: "value") as? Double ?? 0
                objects += 1
            }
        }
        let readSeconds = Date().timeIntervalSince(readStart)
        precondition(total > 0, "the objects were read")
        print("RESULT objects=\(objects) sections=\(controller.sections?.count ?? 0) startKiB=\(startKiB) fetchPeakKiB=\(fetchPeakKiB) "
              + "peakKiB=\(ProcessStatus.peakKiB()) fetchSeconds=\(String(format: "%.1f", fetchSeconds)) readSeconds=\(String(format: "%.1f", readSeconds))")
    }
}
