/// What a fetch hands its snapshots to as the store reads them, a few at a time and in the
/// request's order (``StreamingFetchStore/fetch(_:reusing:into:)``): a context makes each object
/// while the rows it came from are still in the processor's cache, and nobody holds a list of
/// every snapshot.
///
/// The store calls the receiver while it is busy with the fetch (a SQLite store holds its
/// connection's lock): a receiver must not call the store, and runs no code of an app's own
/// that might.
@_spi(StoreImplementation)
public protocol SnapshotReceiver: AnyObject {
    /// About `count` snapshots are to come: a hint for making room, given before the first ones
    /// when the store knows it.
    func expect(_ count: Int)
    /// Takes the next snapshots, in order, moving them out of `snapshots`, which it leaves empty
    /// (its room kept, for the store to fill again).
    func receive(_ snapshots: inout [ObjectSnapshot]) throws
}
