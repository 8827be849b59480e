import Dispatch
import Foundation

/// A store that tells cheaply whether another connection or process wrote to its file since it
/// last asked, without reading rows: the SQLite store (`PRAGMA data_version`).
///
/// Without it no remote-change notification is posted for the store.
@_spi(StoreImplementation)
public protocol RemoteChangeDetectingStore: PersistentStore {
    /// Whether another connection or process committed a write since the last call (false at
    /// the first call).
    func hasRemoteChanges() throws -> Bool
}

extension StoreOption {
    /// How often, in seconds, a coordinator checks a store opened with
    /// ``remoteChangeNotificationPost`` for saves made elsewhere (default 0.05). Strata's own.
    public static let remoteChangeCheckInterval = "StrataRemoteChangeCheckInterval"
}

extension PersistentStoreCoordinator {
    /// Posted (object: the coordinator) when another coordinator or process saved to a store
    /// opened with ``StoreOption/remoteChangeNotificationPost``; `userInfo` holds
    /// ``remoteChangeStoreURLKey``, ``remoteChangeStoreUUIDKey`` and, when the store keeps
    /// history, ``remoteChangeHistoryTokenKey``. Core Data's `NSPersistentStoreRemoteChange`.
    public static let remoteChangeNotification = Notification.Name("NSPersistentStoreRemoteChangeNotification")
    /// The store's URL in a ``remoteChangeNotification``.
    public static let remoteChangeStoreURLKey = "storeURL"
    /// The store's identifier in a ``remoteChangeNotification``.
    public static let remoteChangeStoreUUIDKey = "storeUUID"
    /// The ``PersistentHistoryToken`` at the end of the store's history when the change was seen.
    public static let remoteChangeHistoryTokenKey = "historyToken"

    /// Starts checking `store` for saves made elsewhere when `description` asks for
    /// remote-change notifications and the store can tell them.
    func monitorRemoteChanges(of store: any PersistentStore, _ description: StoreDescription) {
        guard description.postsRemoteChangeNotifications, let detecting = store as? any RemoteChangeDetectingStore else { return }
        var interval = 0.05
        if case .double(let seconds)? = description.options[StoreOption.remoteChangeCheckInterval], seconds > 0 { interval = seconds }
        RemoteChangeMonitor.start(coordinator: self, store: detecting, interval: interval)
    }
}

/// Checks one store for saves made elsewhere on a timer of its own, and posts
/// ``PersistentStoreCoordinator/remoteChangeNotification`` when it finds one. Each check is one
/// `PRAGMA data_version` (no row is read); the timer ends when the coordinator or the store
/// goes, or the store is removed from the coordinator.
// Unchecked: `timer` is set once and after that only cancelled, which Dispatch allows from any
// thread; the weak references are `let`.
final class RemoteChangeMonitor: @unchecked Sendable {
    private weak let coordinator: PersistentStoreCoordinator?
    private weak let store: (any RemoteChangeDetectingStore)?
    private let timer: any DispatchSourceTimer

    private init(coordinator: PersistentStoreCoordinator, store: any RemoteChangeDetectingStore, timer: DispatchSourceTimer) {
        self.coordinator = coordinator
        self.store = store
        self.timer = timer
    }

    /// Starts a monitor; the timer keeps it until it ends.
    static func start(coordinator: PersistentStoreCoordinator, store: any RemoteChangeDetectingStore, interval: Double) {
        _ = try? store.hasRemoteChanges()   // the starting point
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let monitor = RemoteChangeMonitor(coordinator: coordinator, store: store, timer: timer)
        timer.setEventHandler { monitor.check() }
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(Int(interval * 250)))
        timer.resume()
    }

    private func check() {
        guard let coordinator, let store, coordinator.persistentStores.contains(where: { $0 === store }) else {
            timer.cancel()
            return
        }
        guard (try? store.hasRemoteChanges()) == true else { return }
        var info: [String: any Sendable] = [PersistentStoreCoordinator.remoteChangeStoreUUIDKey: store.identifier]
        if let url = store.url { info[PersistentStoreCoordinator.remoteChangeStoreURLKey] = url }
        if let token = try? coordinator.currentPersistentHistoryToken(fromStores: [store]) {
            info[PersistentStoreCoordinator.remoteChangeHistoryTokenKey] = token
        }
        NotificationCenter.default.post(name: PersistentStoreCoordinator.remoteChangeNotification, object: coordinator, userInfo: info)
    }
}
