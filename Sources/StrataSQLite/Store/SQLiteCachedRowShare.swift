/// Which tables the coordinator's row cache held nearly every fetched row of, the last time a
/// fetch of enough rows read them: the store then reads such a table's next fetch cached-first
/// (see ``SQLiteRowReader/snapshotsCachedFirst(_:table:checksBlobs:into:runLength:handing:)``).
///
/// Cached-first lets SQLite sort and hand over three numbers a row instead of every column, and
/// takes the values from the cache; each row the cache does not hold costs a read by key on top.
/// A fetch that runs again over the same rows (a list refreshed, a controller fetching again)
/// gains; a fetch of rows the cache does not hold would lose, so the choice follows what the
/// last fetch of the table found, and a cached-first fetch that finds too few rows in the cache
/// turns the next one back to whole rows.
///
/// Touched only under the store's lock.
final class SQLiteCachedRowShare {
    /// The tables whose last telling fetch found at least ``warmShare`` of its rows cached.
    private var warmTables: Set<String> = []

    /// The share of a fetch's rows that must have been in the cache for the next fetch of the
    /// table to read cached-first.
    static let warmShare = 0.8
    /// The fewest rows a fetch must read to change the choice: below, either way costs little.
    static let tellingRowCount = 64

    /// Whether the next fetch of `table` reads cached-first.
    func readsCachedFirst(_ table: String) -> Bool {
        !warmTables.isEmpty && warmTables.contains(table)
    }

    /// Records that a fetch of `table` read `rows` rows, `cached` of them taken from the cache.
    func record(_ table: String, rows: Int, cached: Int) {
        guard rows >= Self.tellingRowCount else { return }
        if Double(cached) >= Self.warmShare * Double(rows) {
            warmTables.insert(table)
        } else if !warmTables.isEmpty {
            warmTables.remove(table)
        }
    }
}
