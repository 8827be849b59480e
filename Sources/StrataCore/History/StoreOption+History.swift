import Foundation

extension StoreOption {
    /// `true`: every save records a transaction and its changes in the store's persistent
    /// history (Core Data's `NSPersistentHistoryTrackingKey`). See `docs/persistent-history.md`.
    public static let persistentHistoryTracking = "NSPersistentHistoryTrackingKey"

    /// `true`, with ``persistentHistoryTracking``: an update's change also records the old and
    /// new values of the properties it changed (``PersistentHistoryChange/oldValues`` and
    /// ``PersistentHistoryChange/newValues``). Strata's own: Core Data's history lists changed
    /// properties only.
    public static let persistentHistoryValues = "StrataPersistentHistoryValuesKey"

    /// `true`: the coordinator posts
    /// ``PersistentStoreCoordinator/remoteChangeNotification`` when another coordinator or
    /// process saved to the store's file (Core Data's
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`). SQLite stores only.
    public static let remoteChangeNotificationPost = "NSPersistentStoreRemoteChangeNotificationOptionKey"
}

extension StoreDescription {
    /// Whether ``StoreOption/persistentHistoryTracking`` is set.
    public var tracksPersistentHistory: Bool { options[StoreOption.persistentHistoryTracking] == .bool(true) }

    /// Whether ``StoreOption/persistentHistoryValues`` is set (with history tracking).
    public var recordsPersistentHistoryValues: Bool {
        tracksPersistentHistory && options[StoreOption.persistentHistoryValues] == .bool(true)
    }

    /// Whether ``StoreOption/remoteChangeNotificationPost`` is set.
    public var postsRemoteChangeNotifications: Bool { options[StoreOption.remoteChangeNotificationPost] == .bool(true) }
}
