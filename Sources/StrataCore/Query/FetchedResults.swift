/// The objects of a batched fetch: a random-access collection whose objects load one batch at a
/// time, as they are touched (Core Data's batched fetch array).
///
/// The fetch recorded the ID of every matching object, compactly, and registered none. Reading
/// an element registers the objects of its batch and loads their values with one store request
/// per store (and the request's prefetched relationships); objects already filled, such as
/// unsaved inserts, are left as they are. The collection keeps the objects of the few batches
/// touched last; an object of an earlier batch stays registered while something else uses it
/// (or while it has unsaved changes), and otherwise is freed and made again, as a fault, when its
/// batch is touched again.
///
/// ```swift
/// var request = FetchRequest(entityName: "Mood", sortDescriptors: [ObjectSortDescriptor(key: "date", ascending: false)])
/// request.fetchBatchSize = 20
/// let moods = try context.fetchBatched(request)   // 1,000 IDs, no objects yet
/// let first = moods[0]                            // loads moods 0–19
/// ```
///
/// A batch that fails to load leaves its objects as faults; using one then reports the error.
/// Like its objects, the collection belongs to its context and is not `Sendable`.
public struct FetchedResults: RandomAccessCollection {
    private enum Storage {
        /// Every object, loaded at once.
        case objects([ManagedObject])
        /// IDs whose objects load batch by batch.
        case batches(BatchLoader)
    }

    private let storage: Storage

    /// How many objects load at a time; 0 when everything was loaded at once.
    public var batchSize: Int {
        switch storage {
        case .objects: 0
        case .batches(let loader): loader.batchSize
        }
    }

    init(objects: [ManagedObject]) {
        storage = .objects(objects)
    }

    init(loader: BatchLoader) {
        storage = .batches(loader)
    }

    /// The IDs of the objects, in order, without loading anything.
    public var objectIDs: [ManagedObjectID] {
        switch storage {
        case .objects(let objects): objects.map(\.objectID)
        case .batches(let loader): Array(loader.objectIDs)
        }
    }

    /// How many batches have been loaded so far (with a batch size of 0, the one batch of all).
    public var loadedBatchCount: Int {
        switch storage {
        case .objects(let objects): objects.isEmpty ? 0 : 1
        case .batches(let loader): loader.loadedCount
        }
    }

    /// The first position, 0.
    public var startIndex: Int { 0 }
    /// One past the last position: the number of objects.
    public var endIndex: Int {
        switch storage {
        case .objects(let objects): objects.count
        case .batches(let loader): loader.objectIDs.count
        }
    }

    /// The object at `position`, its batch loaded first.
    public subscript(position: Int) -> ManagedObject {
        switch storage {
        case .objects(let objects): objects[position]
        case .batches(let loader): loader.object(at: position)
        }
    }

    /// Makes and loads the objects of a batch when one of them is touched, and keeps the
    /// objects of the batches touched last.
    final class BatchLoader {
        private let context: ManagedObjectContext
        let objectIDs: ObjectIDList
        /// Objects the fetch returned as objects (unsaved inserts and changes), by position.
        private let pinned: [Int: ManagedObject]
        let batchSize: Int
        private let prefetching: [String]
        /// Which batches have been loaded at least once.
        private var loaded: [Bool]
        private(set) var loadedCount = 0
        /// The batches touched last, the most recent first: their index and objects.
        private var recent: [(batch: Int, objects: [ManagedObject])] = []
        /// How many batches ``recent`` keeps.
        private static let keptBatches = 4

        init(context: ManagedObjectContext, objectIDs: ObjectIDList, pinned: [Int: ManagedObject],
             batchSize: Int, prefetching: [String]) {
            self.context = context
            self.objectIDs = objectIDs
            self.pinned = pinned
            self.batchSize = batchSize
            self.prefetching = prefetching
            self.loaded = Array(repeating: false, count: (objectIDs.count + batchSize - 1) / batchSize)
        }

        func object(at position: Int) -> ManagedObject {
            let batch = position / batchSize
            let offset = position - batch * batchSize
            if let found = recent.firstIndex(where: { $0.batch == batch }) {
                if found != 0 { recent.insert(recent.remove(at: found), at: 0) }
                return recent[0].objects[offset]
            }
            let objects = load(batch)
            recent.insert((batch, objects), at: 0)
            if recent.count > Self.keptBatches { recent.removeLast() }
            return objects[offset]
        }

        /// The objects of `batch`, registered, their faults filled.
        private func load(_ batch: Int) -> [ManagedObject] {
            let start = batch * batchSize
            let objects = (start..<Swift.min(start + batchSize, objectIDs.count)).map { position in
                if let object = pinned[position] { return object }
                let objectID = objectIDs[position]
                guard let object = try? context.object(with: objectID) else {
                    preconditionFailure("fetchBatched checked the entity of every ID: \(objectID)")
                }
                return object
            }
            if !loaded[batch] {
                loaded[batch] = true
                loadedCount += 1
            }
            // Errors leave the objects as faults: touching one reports what went wrong.
            try? context.fillFaults(objects)
            try? context.prefetch(prefetching, for: objects)
            return objects
        }
    }
}

@available(*, unavailable, message: "Fetched objects are confined to their context; pass object IDs instead.")
extension FetchedResults: Sendable {}
