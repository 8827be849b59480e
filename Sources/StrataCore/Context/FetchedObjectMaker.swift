/// Makes a fetch's registered objects from the snapshots a store hands it as it reads them
/// (``SnapshotReceiver``), filling the faults among them when the fetch reads values.
///
/// It runs while the store is busy with the fetch, so it calls no code of an app's own that might
/// reach the store: objects of a class of the app's own that it fills are woken
/// (``ManagedObject/awakeFromFetch()``) by ``awakeLoadedObjects()``, once the store is done.
final class FetchedObjectMaker: SnapshotReceiver {
    private let context: ManagedObjectContext
    private let loadingValues: Bool
    /// Whether loaded objects take the values read (``FetchRequest/shouldRefreshRefetchedObjects``).
    private let refreshing: Bool
    /// The loaded objects to refresh with the snapshots read, once the store is done.
    private var refetched: [(object: ManagedObject, snapshot: ObjectSnapshot)] = []
    /// The fetched objects, in order.
    private(set) var objects: [ManagedObject] = []
    /// The objects filled here whose class may wake them.
    private var filledSubclassObjects: [ManagedObject] = []
    /// How many snapshots the store expects, until the first ones come.
    private var expected = 0

    /// A maker of `context`'s objects, filling them when `loadingValues`, and refreshing those
    /// already loaded when `refreshing`.
    init(context: ManagedObjectContext, loadingValues: Bool, refreshing: Bool = false) {
        self.context = context
        self.loadingValues = loadingValues
        self.refreshing = refreshing && loadingValues
    }

    func expect(_ count: Int) {
        objects.reserveCapacity(objects.count + count)
        expected = count
    }

    func receive(_ snapshots: inout [ObjectSnapshot]) throws {
        if expected > 0, let first = snapshots.first {
            // The registry makes room in the table of the snapshots' entity and store.
            context.registry.reserveCapacity(expected, like: first.objectID)
            expected = 0
        }
        // Each snapshot is moved into its object, not copied: taken from the end of the list, the
        // objects are made last first and put in order after. The lists are worked on as local
        // variables, swapped out and back: no access to this object's properties is checked for
        // exclusivity per snapshot.
        var (made, filled) = ([ManagedObject](), [ManagedObject]())
        swap(&made, &objects)
        swap(&filled, &filledSubclassObjects)
        defer {
            swap(&made, &objects)
            swap(&filled, &filledSubclassObjects)
        }
        // The to-one destinations of a run of snapshots that share them are found once.
        var toOnes = ToOneResolver()
        let (start, filledStart) = (made.count, filled.count)
        let context = context
        while let snapshot = snapshots.popLast() {
            let object = try context.object(with: snapshot.objectID)
            if loadingValues, object.isFault, !object.isInvalidated {
                let nextSharesToOnes = Self.lastSharesToOnes(of: snapshots, with: snapshot)
                try object.loadValues(consume snapshot, in: context, resolvingToOnesWith: &toOnes, nextSharesThem: nextSharesToOnes)
                if type(of: object) != ManagedObject.self { filled.append(object) }
            } else if refreshing, ManagedObjectContext.isRefreshable(object) {
                refetched.append((object, snapshot))
            }
            made.append(consume object)
        }
        made.reverseInPlace(from: start)
        filled.reverseInPlace(from: filledStart)
    }

    /// Whether the last of `snapshots` (the next one made) has the very map of to-one
    /// destinations `snapshot` has; read in place, without copying the snapshot.
    private static func lastSharesToOnes(of snapshots: [ObjectSnapshot], with snapshot: borrowing ObjectSnapshot) -> Bool {
        snapshots.withLast { $0.toOne.sharesEntries(with: snapshot.toOne) } ?? false
    }

    /// Refreshes the loaded objects the fetch read again with the values read (app code runs:
    /// call once the store is done).
    func refreshRefetchedObjects() throws {
        let pending = refetched
        refetched = []
        for (object, snapshot) in pending { try context.refresh(object, with: snapshot) }
    }

    /// Calls ``ManagedObject/awakeFromFetch()`` on the objects filled here, once each.
    func awakeLoadedObjects() {
        let filled = filledSubclassObjects
        filledSubclassObjects = []
        for object in filled { object.awakeFromFetch() }
    }
}
