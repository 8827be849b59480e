import Synchronization

/// The rows a coordinator has cached, as a store sees them during one fetch: a store that reads a
/// row's primary key and version before its values can take a row cached at the same version
/// instead of decoding the values again.
///
/// Every save raises a row's version (its optimistic-locking `Z_OPT`), and so does every batch
/// update, so a row at the version the cache holds has the values the cache holds. A row taken
/// from the cache is shared, not copied: the objects of every context that fetch it read the same
/// values, as they would after a fault filled from the cache.
public final class CachedRows: Sendable {
    private let cache: RowCache
    /// The store the fetch asks.
    public let storeIdentifier: String
    private let taken = Atomic<Int>(0)

    init(_ cache: RowCache, storeIdentifier: String) {
        self.cache = cache
        self.storeIdentifier = storeIdentifier
    }

    /// The cached row `primaryKey` of `entityName` in the store if it is at `version`; marks it
    /// as used. Found by the names and the key, without making an object ID for a row that is
    /// there.
    public func row(entityName: String, primaryKey: Int64, version: Int64) -> ObjectSnapshot? {
        guard let row = cache.snapshot(entityName: entityName, storeIdentifier: storeIdentifier,
                                       primaryKey: primaryKey, version: version) else { return nil }
        taken.add(1, ordering: .relaxed)
        return row
    }

    /// How many rows the fetch took from the cache.
    var takenCount: Int { taken.load(ordering: .relaxed) }
}
