import BenchmarkSupport
import Foundation

/// One measured operation of one engine, run in a child process of its own so that its peak
/// memory (VmHWM) is its own. The phases of a round run in this order on one file per engine.
enum Phase: String, CaseIterable {
    /// Insert every author and book in one transaction (one `save()`).
    case insert
    /// Fetch every author and book and read every attribute and the to-one.
    case fetchAll = "fetch-all"
    /// Books with `category == 7` (an indexed attribute), sorted by `score`, every attribute read.
    case fetchIndexed = "fetch-indexed"
    /// Change two attributes of the books with `category == 3` and the authors with `cohort == 3`
    /// (10 % of each), in one transaction.
    case update
    /// Delete the authors with `cohort == 4` (10 %); their books go with them (cascade).
    case delete
    /// Count the authors and the books.
    case count
    /// Count the books with `category == 7`.
    case countWhere = "count-where"
    /// The available books per category: how many and the lowest score, for the categories with
    /// more than a twentieth of the books, most books first, the first five.
    case group
    /// Writes the iteration file (not a measured phase of the workload; its time is reported).
    case iterateSetup = "iterate-setup"
    /// Read every book of the iteration file, 500 at a time where the engine batches.
    case iterate

    /// The phases of the ordinary workload, in order.
    static let workload: [Phase] = [.insert, .fetchAll, .fetchIndexed, .update, .delete, .count, .countWhere, .group]

    /// How many times a child repeats a read-only phase that takes milliseconds, keeping the
    /// fastest (each repetition starts afresh: a new context, or new statements).
    var repetitions: Int {
        switch self {
        case .fetchIndexed: 5
        case .count, .countWhere, .group: 20
        default: 1
        }
    }
}

/// The three ways the workload runs.
enum Engine: String, CaseIterable {
    case raw
    case grdb
    case strata

    var title: String {
        switch self {
        case .raw: "SQLite C API"
        case .grdb: "GRDB records"
        case .strata: "Strata SQLite store"
        }
    }
}

/// What a phase measured.
struct PhaseResult {
    /// Seconds the measured operation took (opening the database and building the input excluded).
    var seconds: Double
    /// Rows written, read, changed or deleted, or the count counted.
    var objects: Int
    /// A digest of what was read (0 for writes), compared across engines.
    var checksum: UInt64
    /// The process's peak resident size (VmHWM) at the end of the phase, in KiB.
    var peakKiB: Int
    /// A part of `seconds` worth reporting on its own (for a Strata insert: `save()`), else 0.
    var partSeconds: Double
    /// Resident size at a point of interest (for a Strata iteration: once the batched fetch has
    /// returned, before any object is read), in KiB; 0 when none.
    var markKiB: Int

    init(seconds: Double, objects: Int, checksum: UInt64 = 0, peakKiB: Int = PhaseResult.peakKiB(),
         partSeconds: Double = 0, markKiB: Int = 0) {
        self.seconds = seconds
        self.objects = objects
        self.checksum = checksum
        self.peakKiB = peakKiB
        self.partSeconds = partSeconds
        self.markKiB = markKiB
    }

    var line: String {
        "RESULT seconds=\(seconds) objects=\(objects) checksum=\(checksum) peak_kib=\(peakKiB) part=\(partSeconds) mark_kib=\(markKiB)"
    }

    /// The result a child printed, from the fields of its `RESULT` line.
    init?(fields: [String: String]) {
        guard let seconds = fields["seconds"].flatMap(Double.init), let objects = fields["objects"].flatMap(Int.init),
              let checksum = fields["checksum"].flatMap({ UInt64($0) }), let peak = fields["peak_kib"].flatMap(Int.init),
              let part = fields["part"].flatMap(Double.init), let mark = fields["mark_kib"].flatMap(Int.init) else { return nil }
        self.init(seconds: seconds, objects: objects, checksum: checksum, peakKiB: peak, partSeconds: part, markKiB: mark)
    }

    /// VmHWM (peak resident size) from `/proc/self/status`, in KiB (0 where there is no /proc).
    static func peakKiB() -> Int { ProcessStatus.peakKiB() }

    /// VmRSS (current resident size), in KiB.
    static func residentKiB() -> Int { ProcessStatus.residentKiB() }
}

/// The fastest of `times` runs of `work` (each returning what it read and how many rows).
func fastest(_ times: Int, _ work: () throws -> (objects: Int, checksum: UInt64)) throws -> PhaseResult {
    var best = Double.infinity
    var first: (objects: Int, checksum: UInt64)?
    for _ in 0..<max(1, times) {
        let (result, seconds) = try timed(work)
        if let first, first.objects != result.objects || first.checksum != result.checksum {
            throw BenchmarkError("repeated runs read different rows")
        }
        first = first ?? result
        best = min(best, seconds)
    }
    return PhaseResult(seconds: best, objects: first?.objects ?? 0, checksum: first?.checksum ?? 0)
}
