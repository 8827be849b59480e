/// One checked footprint figure: the most it may be, and what it measured when the limit was set.
struct Threshold {
    /// The figure's key in the output.
    let key: String
    /// What it measures, in a few words.
    let what: String
    /// The unit of ``limit``.
    let unit: String
    /// The most the figure may be: over it, the check fails.
    let limit: Double
    /// What it measured when the limit was set (x86_64 Linux, glibc 2.36, the default row counts:
    /// 20,000 rows an entity, 200,000 rows iterated).
    let measured: Double
}

/// The checked thresholds: each what it measured when set, with a little headroom. A change that
/// crosses one is a choice to make on purpose: raise the limit here in the same commit, and say
/// why in its message.
///
/// - An ID: today 17 bytes; the object's flags sit in the bytes it leaves before the next word.
///   The limit is the next word: one more field in an ID fails.
/// - An object's heap block: today in glibc's 80-byte block (72 usable); the limit is the next
///   size class, 88 usable bytes.
/// - The heap a context holds per fetched, read object: today's figure plus about 10 % (the same
///   from run to run; it grows a little with the row count, as the registry's table does).
/// - The resident memory of iterating rows 500 at a time: today's figure plus about 15 % (it
///   varies more from run to run than the heap, and grows with the rows: 40 and 41 MiB for
///   1,000,000 rows, whose IDs the batched fetch holds).
enum Thresholds {
    static let all: [Threshold] = [
        Threshold(key: "id.bytes", what: "MemoryLayout<ManagedObjectID>.size", unit: "B", limit: 24, measured: 17),
        Threshold(key: "object.block.item2", what: "heap block of a fetched object, 2 attributes", unit: "B", limit: 88, measured: 72),
        Threshold(key: "object.block.item6", what: "heap block of a fetched object, 6 attributes", unit: "B", limit: 88, measured: 72),
        Threshold(key: "object.block.item12", what: "heap block of a fetched object, 12 attributes", unit: "B", limit: 88, measured: 72),
        Threshold(key: "heap.per.object.item2", what: "heap held per fetched, read object, 2 attributes", unit: "B", limit: 290, measured: 264.3),
        Threshold(key: "heap.per.object.item6", what: "heap held per fetched, read object, 6 attributes", unit: "B", limit: 465, measured: 424.4),
        Threshold(key: "heap.per.object.item12", what: "heap held per fetched, read object, 12 attributes", unit: "B", limit: 625, measured: 568.7),
        Threshold(key: "iterate.after.fetch", what: "resident once a batched fetch returned", unit: "MiB", limit: 36, measured: 30.9),
        Threshold(key: "iterate.peak", what: "peak resident iterating rows 500 at a time", unit: "MiB", limit: 37, measured: 32.0),
    ]
}
