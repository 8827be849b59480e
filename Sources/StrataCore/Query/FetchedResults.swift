/// The objects of a batched fetch: a random-access collection whose objects load one batch at a
/// time, as they are touched (Core Data's batched fetch array).
///
/// The fetch recorded the ID of every matching object and registered each as a fault. Reading
/// an element loads the values of every object in its batch with one store request per store
/// (and the request's prefetched relationships); objects already filled, such as unsaved inserts,
/// are left as they are.
///
/// ```swift
/// var request = FetchRequest(entityName: "Mood", sortDescriptors: [ObjectSortDescriptor(key: "date", ascending: false)])
/// request.fetchBatchSize = 20
/// let moods = try context.fetchBatched(request)   // 1,000 IDs, no values yet
/// let first = moods[0]                            // loads moods 0–19
/// ```
///
/// A batch that fails to load leaves its objects as faults; using one then reports the error.
/// Like its objects, the collection belongs to its context and is not `Sendable`.
public struct FetchedResults: RandomAccessCollection {
    /// The objects, faults until their batch loads.
    private let objects: [ManagedObject]
    /// How many objects load at a time; 0 when everything was loaded at once.
    public let batchSize: Int
    private let loader: BatchLoader?

    init(objects: [ManagedObject], batchSize: Int, loader: BatchLoader?) {
        self.objects = objects
        self.batchSize = batchSize
        self.loader = loader
    }

    /// The IDs of the objects, in order, without loading anything.
    public var objectIDs: [ManagedObjectID] { objects.map(\.objectID) }

    /// How many batches have been loaded so far (with a batch size of 0, the one batch of all).
    public var loadedBatchCount: Int { loader?.loadedCount ?? (objects.isEmpty ? 0 : 1) }

    /// The first position, 0.
    public var startIndex: Int { 0 }
    /// One past the last position: the number of objects.
    public var endIndex: Int { objects.count }

    /// The object at `position`, its batch loaded first.
    public subscript(position: Int) -> ManagedObject {
        loader?.loadBatch(containing: position, of: objects)
        return objects[position]
    }

    /// Loads a batch the first time one of its objects is touched.
    final class BatchLoader {
        private let context: ManagedObjectContext
        private let batchSize: Int
        private let prefetching: [String]
        private var loaded: [Bool]

        init(context: ManagedObjectContext, batchSize: Int, count: Int, prefetching: [String]) {
            self.context = context
            self.batchSize = batchSize
            self.prefetching = prefetching
            self.loaded = Array(repeating: false, count: (count + batchSize - 1) / batchSize)
        }

        var loadedCount: Int { loaded.lazy.filter { $0 }.count }

        func loadBatch(containing position: Int, of objects: [ManagedObject]) {
            let batch = position / batchSize
            guard loaded.indices.contains(batch), !loaded[batch] else { return }
            loaded[batch] = true
            let start = batch * batchSize
            let members = Array(objects[start..<Swift.min(start + batchSize, objects.count)])
            // Errors leave the objects as faults: touching one reports what went wrong.
            try? context.fillFaults(members)
            try? context.prefetch(prefetching, for: members)
        }
    }
}

@available(*, unavailable, message: "Fetched objects are confined to their context; pass object IDs instead.")
extension FetchedResults: Sendable {}
