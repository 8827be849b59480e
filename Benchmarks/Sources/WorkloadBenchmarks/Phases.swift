import BenchmarkSupport
import Foundation

/// The phases of one run, in the order each engine runs them on one file.
enum Phase: String, CaseIterable, Sendable {
    case insert, cold, warm, binary, localized, update, countUpdate, delete, countDelete

    /// The table's row title.
    var title: String {
        switch self {
        case .insert: "insert 100,000 persons + 50,000 pets, one save"
        case .cold: "fetch all persons, first fetch (new coordinator)"
        case .warm: "fetch all persons, repeated (median of 3)"
        case .binary: "age 20…30 sorted by name, binary (median of 3)"
        case .localized: "age 20…30 sorted by name, localized (median of 3)"
        case .update: "update 20 % of persons, one save"
        case .countUpdate: "count persons right after the update"
        case .delete: "delete 28 % of persons, cascade to pets, one save"
        case .countDelete: "count persons + pets right after the delete"
        }
    }

    /// Whether the phase's rows and digest must agree across engines.
    var isCompared: Bool { self != .warm && self != .insert }
}

/// What one engine measured in one run: seconds, rows and digest per phase, and the peak memory.
struct RunRecord {
    var seconds: [Phase: Double] = [:]
    var rows: [Phase: Int] = [:]
    var digests: [Phase: UInt64] = [:]
    var peakKiB = 0

    /// Whether each phase's peak memory goes to standard error (the peak is reset after each, so
    /// the whole run's `peakKiB` is then the last phase's): `WORKLOAD_PHASE_PEAKS=1`.
    static let printsPhasePeaks = ProcessInfo.processInfo.environment["WORKLOAD_PHASE_PEAKS"] == "1"

    mutating func record(_ phase: Phase, seconds: Double, rows: Int, digest: UInt64 = 0) {
        if Self.printsPhasePeaks {
            FileHandle.standardError.write(Data("phase \(phase.rawValue): peakKiB=\(ProcessStatus.peakKiB()) residentKiB=\(ProcessStatus.residentKiB())\n".utf8))
            ProcessStatus.resetPeak()
        }
        self.seconds[phase] = seconds
        self.rows[phase] = rows
        digests[phase] = digest
    }

    /// Times `work` `times` times, records the median, and checks every repeat read the same.
    mutating func repeated(_ phase: Phase, times: Int, _ work: () throws -> (rows: Int, digest: UInt64)) throws {
        var all: [Double] = []
        var first: (rows: Int, digest: UInt64)?
        for _ in 0..<times {
            let (result, seconds) = try timed(work)
            if let first, first != result { throw BenchmarkError("\(phase.rawValue): repeats read different rows") }
            first = result
            all.append(seconds)
        }
        record(phase, seconds: median(all), rows: first?.rows ?? 0, digest: first?.digest ?? 0)
    }

    /// The `RESULT` line the parent reads.
    var line: String {
        var fields = ["RESULT", "peakKiB=\(peakKiB)"]
        for phase in Phase.allCases {
            guard let seconds = seconds[phase] else { continue }
            fields.append("\(phase.rawValue)=\(seconds)")
            fields.append("\(phase.rawValue).rows=\(rows[phase] ?? 0)")
            fields.append("\(phase.rawValue).digest=\(digests[phase] ?? 0)")
        }
        return fields.joined(separator: " ")
    }

    init() {}

    /// Reads a `RESULT` line's fields.
    init(fields: [String: String]) {
        peakKiB = Int(fields["peakKiB"] ?? "") ?? 0
        for phase in Phase.allCases {
            guard let seconds = fields[phase.rawValue].flatMap(Double.init) else { continue }
            record(phase, seconds: seconds, rows: Int(fields["\(phase.rawValue).rows"] ?? "") ?? 0,
                   digest: UInt64(fields["\(phase.rawValue).digest"] ?? "") ?? 0)
        }
    }
}
