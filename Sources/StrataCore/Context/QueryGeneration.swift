import Foundation

/// A state of the stores a context can be pinned to (Core Data's `NSQueryGenerationToken`):
/// ``current`` asks for the state the stores are in now; a pinned context's
/// ``ManagedObjectContext/queryGenerationToken`` names its generation, which another context
/// on the same coordinator may share while it lasts.
public struct QueryGenerationToken: Sendable, Hashable, CustomStringConvertible {
    /// Nil for ``current``; the generation's identity otherwise.
    let identity: UUID?

    /// The stores' state now: pinning to it opens a new generation.
    public static let current = QueryGenerationToken(identity: nil)

    public var description: String { identity.map { "QueryGenerationToken(\($0.uuidString))" } ?? "QueryGenerationToken.current" }
}

/// A store that can hold its current state for reading while it goes on changing: the SQLite
/// store (a read transaction on a connection of its own, which WAL keeps at its snapshot).
///
/// Without it the coordinator takes the store's ``PersistentStore/contentsImage()`` into an
/// in-memory store: for the atomic stores a copy-on-write share of the loaded image, nothing
/// copied; for another store a copy of its contents.
@_spi(StoreImplementation)
public protocol QueryGenerationStore: PersistentStore {
    /// A store that answers every read as this store's contents are now (the same identifier,
    /// model and configuration) and is never written to.
    func openQueryGeneration() throws -> any PersistentStore
}

/// One pinned state of a coordinator's stores: a coordinator of its own over the generation
/// stores, which pinned contexts read through. It lasts while a context holds it.
final class QueryGeneration: Sendable {
    let token: QueryGenerationToken
    /// The coordinator pinned contexts read through.
    let coordinator: PersistentStoreCoordinator
    /// The coordinator whose stores it holds a state of.
    weak let source: PersistentStoreCoordinator?

    /// The generations alive, to find one by its token.
    private static let alive = LockedValue<[UUID: WeakGeneration]>([:])
    private struct WeakGeneration: @unchecked Sendable {   // the reference is only read to compare and retain
        weak var generation: QueryGeneration?
    }

    /// Opens a generation of `source`'s stores as they are now.
    init(of source: PersistentStoreCoordinator) throws {
        let identity = UUID()
        token = QueryGenerationToken(identity: identity)
        self.source = source
        coordinator = PersistentStoreCoordinator(managedObjectModel: source.managedObjectModel)
        for store in source.persistentStores {
            try coordinator.addPersistentStore(try Self.generationStore(of: store))
        }
        Self.alive.withLock { alive in
            alive = alive.filter { $0.value.generation != nil }
            alive[identity] = WeakGeneration(generation: self)
        }
    }

    /// The generation a token names, when it is alive and of `source`'s stores.
    static func find(_ token: QueryGenerationToken, of source: PersistentStoreCoordinator) -> QueryGeneration? {
        guard let identity = token.identity else { return nil }
        let generation = alive.withLock { $0[identity]?.generation }
        return generation?.source === source ? generation : nil
    }

    private static func generationStore(of store: any PersistentStore) throws -> any PersistentStore {
        if let holding = store as? any QueryGenerationStore { return try holding.openQueryGeneration() }
        var image = try store.contentsImage()
        image.history = PersistentHistoryLog()
        let copy = try InMemoryStore.make(StoreDescription(type: .inMemory, configurationName: store.configurationName, model: store.model))
        try copy.replaceContents(with: image)
        return copy
    }
}

/// Why a context cannot be pinned.
public enum QueryGenerationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token names no generation alive on this context's coordinator.
    case unknownToken(QueryGenerationToken)

    public var description: String {
        switch self {
        case .unknownToken(let token): "\(token) names no query generation alive on this coordinator"
        }
    }
}

extension ManagedObjectContext {
    /// The generation the context is pinned to; nil when it reads the stores as they are.
    public var queryGenerationToken: QueryGenerationToken? { historyState.generation?.token }

    /// Pins the context to a state of the stores, or unpins it (nil). Core Data's
    /// `setQueryGenerationFrom(_:)`.
    ///
    /// Pinned, the context's fetches and faults read the stores as they were when the
    /// generation opened, whatever other contexts, coordinators or processes save since; its
    /// own saves go to the stores as they are (a save over a newer change fails with a merge
    /// conflict), and after a save or a merge from history the context moves to a new current
    /// generation. ``QueryGenerationToken/current`` opens a new generation; the token of
    /// another context pinned on the same coordinator shares its generation. Objects already
    /// loaded keep their values until refreshed. A child context reads through its parent, so
    /// pin the root context.
    ///
    /// ```swift
    /// try context.setQueryGenerationFrom(.current)
    /// let before = try context.count(for: request)   // stays the same until unpinned
    /// try context.setQueryGenerationFrom(nil)
    /// ```
    ///
    /// - Throws: ``QueryGenerationError/unknownToken(_:)``, or what opening a generation of a
    ///   store throws.
    public func setQueryGenerationFrom(_ token: QueryGenerationToken?) throws {
        checkQueue()
        guard let token else {
            historyState.generation = nil
            return
        }
        if token == .current {
            historyState.generation = try QueryGeneration(of: persistentStoreCoordinator)
        } else if let shared = QueryGeneration.find(token, of: persistentStoreCoordinator) {
            historyState.generation = shared
        } else {
            throw QueryGenerationError.unknownToken(token)
        }
    }

    /// The coordinator the context reads through: its generation's while pinned.
    var readingCoordinator: PersistentStoreCoordinator {
        historyState.generation?.coordinator ?? persistentStoreCoordinator
    }

    /// Moves a pinned context to a new current generation (after it saved or merged); a failure
    /// to open one unpins it, so that it reads the stores as they are.
    func advanceQueryGeneration() {
        guard historyState.generation != nil else { return }
        historyState.generation = try? QueryGeneration(of: persistentStoreCoordinator)
    }
}
