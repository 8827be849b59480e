import Foundation
import Strata
import StrataTestSupport

// Small helpers shared by the conformance suites. No tests live here.

extension ManagedObjectContext {
    /// Inserts an object of `entityName` and sets `values` (in key order).
    @discardableResult
    func insert(_ entityName: String, _ values: [String: Any?] = [:]) throws -> ManagedObject {
        let object = try insertNewObject(forEntityName: entityName)
        try object.setValuesForKeys(values)
        return object
    }

    /// A new root context on the same coordinator: it sees only what the stores hold.
    func freshContext() -> ManagedObjectContext {
        ManagedObjectContext(coordinator: persistentStoreCoordinator)
    }

    /// The `key` strings of the objects `request` fetches, in order.
    func strings(_ request: FetchRequest<ManagedObject>, key: String = "name") throws -> [String] {
        try fetch(request).map { try $0.string(key) }
    }

    /// The number of objects of `entityName` (sub-entities included).
    func count(_ entityName: String) throws -> Int {
        try count(for: FetchRequest(entityName: entityName))
    }
}

extension ManagedObject {
    /// A string attribute, or `"<nil>"`, so that lists of names compare in one `#expect`.
    func string(_ key: String) throws -> String {
        try value(forKey: key) as? String ?? "<nil>"
    }

    /// The objects of a to-many relationship, ordered or not, as a set.
    func objects(_ key: String) throws -> Set<ManagedObject> {
        let value = try value(forKey: key)
        if let set = value as? Set<ManagedObject> { return set }
        if let array = value as? [ManagedObject] { return Set(array) }
        return []
    }

    /// The objects of an ordered to-many relationship.
    func list(_ key: String) throws -> [ManagedObject] {
        try value(forKey: key) as? [ManagedObject] ?? []
    }

    /// The `name` strings of a to-many's objects, sorted (for unordered relationships).
    func sortedNames(_ key: String, nameKey: String = "name") throws -> [String] {
        try objects(key).map { try $0.string(nameKey) }.sorted()
    }
}

/// A request sorted by `key` ascending.
func sortedRequest(
    _ entityName: String, by key: String = "name", predicate: ObjectPredicate? = nil,
    offset: Int = 0, limit: Int = 0
) -> FetchRequest<ManagedObject> {
    FetchRequest(entityName: entityName, predicate: predicate,
                 sortDescriptors: [ObjectSortDescriptor(key: key, ascending: true)],
                 fetchLimit: limit, fetchOffset: offset)
}

/// Weak references to objects, to see whether they were freed.
struct Watched {
    weak var first: ManagedObject?
    weak var second: ManagedObject?
    weak var third: ManagedObject?
    var isFreed: Bool { first == nil && second == nil && third == nil }
}

/// A thread-safe list that `@Sendable` observers append to.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])

    func append(_ element: Element) { storage.withLock { $0.append(element) } }

    var elements: [Element] { storage.withLock { $0 } }
}

/// One context notification as an observer saw it.
struct PostedNotification: Sendable, Hashable {
    var name: Notification.Name
    var changes: ContextChanges
}

/// Records the Strata context notifications `NotificationCenter.default` posts for one context,
/// until stopped.
final class NotificationRecorder {
    private let recorder = Recorder<PostedNotification>()
    private var tokens: [any NSObjectProtocol] = []

    init(_ context: ManagedObjectContext) {
        let names = [ManagedObjectContext.objectsDidChangeNotification,
                     ManagedObjectContext.willSaveNotification,
                     ManagedObjectContext.didSaveNotification]
        for name in names {
            let recorder = recorder
            tokens.append(NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { note in
                recorder.append(PostedNotification(name: note.name, changes: note.contextChanges ?? ContextChanges()))
            })
        }
    }

    /// Every notification so far, in order.
    var notifications: [PostedNotification] { recorder.elements }

    /// The names of every notification so far, in order.
    var names: [Notification.Name] { notifications.map(\.name) }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }
}
