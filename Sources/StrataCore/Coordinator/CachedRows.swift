/// The rows a coordinator has cached, as a store sees them during one fetch: a store that reads a
/// row's primary key and version before its values can take a row cached at the same version
/// instead of decoding the values again.
///
/// Every save raises a row's version (its optimistic-locking `Z_OPT`), and so does every batch
/// update, so a row at the version the cache holds has the values the cache holds. A row taken
/// from the cache is shared, not copied: the objects of every context that fetch it read the same
/// values, as they would after a fault filled from the cache.
///
/// One fetch uses it, on the thread that runs the fetch. It asks the cache whether it holds any
/// row of an entity once, when the fetch's first row of that entity is read: a fetch of rows the
/// cache holds none of (the cache is cold, or holds other entities) costs a comparison of names a
/// row, not a lookup. Rows of that entity cached by another context while the fetch runs are then
/// read from the store, as they would have been a moment earlier.
@_spi(StoreImplementation)
public final class CachedRows {
    private let cache: RowCache
    /// The store the fetch asks, whose rows these are.
    private let storeIdentifier: String
    /// How many rows the fetch took from the cache.
    public private(set) var takenCount = 0
    /// The entity whose rows were asked for last, and whether the cache held any of them then.
    private var lastEntity: (name: String, isCached: Bool)?

    init(_ cache: RowCache, storeIdentifier: String) {
        self.cache = cache
        self.storeIdentifier = storeIdentifier
    }

    /// The cached row `primaryKey` of `entityName` in the store if it is at `version`; marks it
    /// as used. Found by the names and the key, without making an object ID for a row that is
    /// there.
    public func row(entityName: String, primaryKey: Int64, version: Int64) -> ObjectSnapshot? {
        guard mayHoldRows(of: entityName),
              let row = cache.snapshot(entityName: entityName, storeIdentifier: storeIdentifier,
                                       primaryKey: primaryKey, version: version) else { return nil }
        takenCount += 1
        return row
    }

    /// Whether the cache held any row of `entityName` when the fetch first asked: when it did
    /// not, ``row(entityName:primaryKey:version:)`` answers nil for every row of the entity, and a
    /// store may skip asking.
    public func mayHoldRows(of entityName: String) -> Bool {
        if lastEntity?.name != entityName {
            lastEntity = (entityName, cache.holdsRows(entityName: entityName, storeIdentifier: storeIdentifier))
        }
        return lastEntity?.isCached == true
    }
}
