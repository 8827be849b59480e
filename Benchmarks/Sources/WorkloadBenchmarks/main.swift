import BenchmarkSupport
import Foundation

// WorkloadBenchmarks [--runs N] [--persons N] [--engines raw,grdb,strata] [--million]
//   A workload written outside the project: 100,000 persons and 50,000 pets, non-optional
//   attributes with validation rules, person ↔ pets with a cascade from person to pets, on
//   SQLite with WAL and synchronous FULL for every engine: the Strata store, GRDB records and
//   hand-written SQL through the C API. Each run of each engine is a child process of its own
//   running every phase in turn (insert, first fetch on a new coordinator, repeated fetches,
//   range fetches sorted by a string in binary and localized order, update, count, delete with
//   the cascade, count); the table shows medians of the runs (default 5), the best run beside,
//   the ratios to the C API's medians, and each engine's peak memory.
//   --million adds a plain fetch of 1,000,000 persons per engine: its seconds and peak memory.
// WorkloadBenchmarks --child ENGINE --persons N --repeats N [--phases P,…] FILE
//   --phases (Strata only, for a profiler): the insert, then only the phases listed.
// WorkloadBenchmarks --million-setup ENGINE FILE | --million-fetch ENGINE FILE
//   What the parent runs; each prints one RESULT line.
// WorkloadBenchmarks --million-breakdown FILE | --insert-breakdown FILE
//   On a file `--million-setup strata` wrote: where the heap of the plain fetch goes, per
//   object; or where the insert phase's memory goes (MemoryBreakdown.swift). WORKLOAD_PHASE_PEAKS=1 prints each phase's peak memory.

enum Engine: String, CaseIterable {
    case raw, grdb, strata
    var title: String {
        switch self {
        case .raw: "C API"
        case .grdb: "GRDB"
        case .strata: "Strata"
        }
    }
}

let usage = "usage: WorkloadBenchmarks [--runs N] [--persons N] [--engines raw,grdb,strata] [--million]"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("WorkloadBenchmarks: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 5
var persons = 100_000
var repeats = 3
var engines = Engine.allCases
var million = false
var child: Engine?
var phases: Set<Phase>?
var millionSetup: Engine?
var millionFetch: Engine?
var millionBreakdown = false
var insertBreakdown = false
var positional: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    func value() -> String {
        guard !arguments.isEmpty else { fail("\(argument) needs a value\n\(usage)") }
        return arguments.removeFirst()
    }
    func number() -> Int {
        guard let number = Int(value()), number > 0 else { fail("\(argument) needs a positive number") }
        return number
    }
    func engine() -> Engine {
        let name = value()
        guard let engine = Engine(rawValue: name) else { fail("unknown engine \(name)\n\(usage)") }
        return engine
    }
    switch argument {
    case "--runs": runs = number()
    case "--persons": persons = number()
    case "--repeats": repeats = number()
    case "--million": million = true
    case "--child": child = engine()
    case "--phases":
        phases = Set(value().split(separator: ",").map { name in
            guard let phase = Phase(rawValue: String(name)) else { fail("unknown phase \(name)") }
            return phase
        })
    case "--million-setup": millionSetup = engine()
    case "--million-fetch": millionFetch = engine()
    case "--million-breakdown": millionBreakdown = true
    case "--insert-breakdown": insertBreakdown = true
    case "--engines":
        engines = value().split(separator: ",").map { name in
            guard let engine = Engine(rawValue: String(name)) else { fail("unknown engine \(name)\n\(usage)") }
            return engine
        }
    case "-h", "--help": print(usage); exit(0)
    default:
        if argument.hasPrefix("-") { fail("unknown option \(argument)\n\(usage)") }
        positional.append(argument)
    }
}

// MARK: Children

if millionBreakdown || insertBreakdown {
    guard positional.count == 1 else { fail("a breakdown needs one FILE") }
    do {
        let file = URL(fileURLWithPath: positional[0])
        print("RESULT \(try millionBreakdown ? MemoryBreakdown.run(file: file) : MemoryBreakdown.insert(file: file))")
        exit(0)
    } catch {
        fail("breakdown: \(error)")
    }
}

if let engine = child ?? millionSetup ?? millionFetch {
    guard positional.count == 1 else { fail("a child needs one FILE") }
    let file = URL(fileURLWithPath: positional[0])
    let workload = Workload(persons: persons)
    do {
        if child != nil {
            var record: RunRecord
            switch engine {
            case .raw: record = try RawEngine.run(workload, file: file, repeats: repeats)
            case .grdb: record = try GRDBEngine.run(workload, file: file, repeats: repeats)
            case .strata: record = try StrataEngine.run(workload, file: file, repeats: repeats, phases: phases ?? Set(Phase.allCases))
            }
            record.peakKiB = ProcessStatus.peakKiB()
            print(record.line)
        } else if millionSetup != nil {
            switch engine {
            case .raw, .grdb: try RawEngine.millionSetup(workload, file: file)
            case .strata: try StrataEngine.millionSetup(workload, file: file)
            }
            print("RESULT done=1")
        } else {
            let (count, seconds) = try timed {
                switch engine {
                case .raw: try RawEngine.millionFetch(file: file)
                case .grdb: try GRDBEngine.millionFetch(file: file)
                case .strata: try StrataEngine.millionFetch(file: file)
                }
            }
            print("RESULT rows=\(count) seconds=\(seconds) peakKiB=\(ProcessStatus.peakKiB())")
        }
        exit(0)
    } catch {
        fail("\(engine.rawValue): \(error)")
    }
}

// MARK: Parent

let folder: URL
do { folder = try ChildProcess.makeScratchFolder(prefix: "strata-workload-benchmarks") } catch { fail("\(error)") }
defer { try? FileManager.default.removeItem(at: folder) }

var records: [Engine: [RunRecord]] = [:]
for run in 1...runs {
    for engine in engines {
        let file = folder.appendingPathComponent("\(engine.rawValue).sqlite")
        do {
            let fields = try ChildProcess.resultFields(arguments: [
                "--child", engine.rawValue, "--persons", "\(persons)", "--repeats", "\(repeats)", file.path,
            ])
            records[engine, default: []].append(RunRecord(fields: fields))
        } catch {
            fail("run \(run), \(engine.rawValue): \(error)")
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
    }
    FileHandle.standardError.write(Data("run \(run) of \(runs) done\n".utf8))
}

func format(_ seconds: Double) -> String {
    seconds < 0.01 ? String(format: "%.5f", seconds) : String(format: "%.3f", seconds)
}

// Every engine must have read the same rows in the same order.
var mismatches: [String] = []
for phase in Phase.allCases where phase.isCompared {
    var seen: [String: [Engine]] = [:]
    for engine in engines {
        guard let first = records[engine]?.first else { continue }
        let key = "\(first.rows[phase] ?? -1)/\(phase == .update || phase == .delete || phase.rawValue.hasPrefix("count") ? 0 : first.digests[phase] ?? 0)"
        seen[key, default: []].append(engine)
    }
    if seen.count > 1 { mismatches.append("\(phase.rawValue): \(seen.map { "\($0.value.map(\.rawValue)) read \($0.key)" }.joined(separator: ", "))") }
}

let hasRaw = engines.contains(.raw)
var header = "| phase | rows |"
var rule = "|---|---:|"
for engine in engines {
    header += " \(engine.title) median s (best) |"
    rule += "---:|"
}
if hasRaw {
    for engine in engines where engine != .raw {
        header += " \(engine.title) ÷ C |"
        rule += "---:|"
    }
}
print("\nWorkloadBenchmarks: \(persons) persons, \(persons / 2) pets, medians of \(runs) runs\n")
print(header)
print(rule)
for phase in Phase.allCases {
    let rows = records[engines[0]]?.first?.rows[phase] ?? 0
    var line = "| \(phase.title) | \(rows) |"
    var medians: [Engine: Double] = [:]
    for engine in engines {
        let all = (records[engine] ?? []).compactMap { $0.seconds[phase] }
        medians[engine] = median(all)
        line += " \(format(median(all))) (\(format(all.min() ?? .nan))) |"
    }
    if hasRaw, let raw = medians[.raw] {
        for engine in engines where engine != .raw {
            line += String(format: " %.2f× |", (medians[engine] ?? .nan) / raw)
        }
    }
    print(line)
}
var peaks = "| peak memory of the run, MiB (median) | |"
for engine in engines {
    peaks += String(format: " %.0f |", median((records[engine] ?? []).map { Double($0.peakKiB) / 1024 }))
}
if hasRaw {
    let raw = median((records[.raw] ?? []).map { Double($0.peakKiB) })
    for engine in engines where engine != .raw {
        peaks += String(format: " %.2f× |", median((records[engine] ?? []).map { Double($0.peakKiB) }) / raw)
    }
}
print(peaks)

if million {
    print("\nA plain fetch of 1,000,000 persons (one run per engine):\n")
    print("| engine | rows | seconds | peak MiB |")
    print("|---|---:|---:|---:|")
    let plainFile = folder.appendingPathComponent("million-plain.sqlite")
    let strataFile = folder.appendingPathComponent("million-strata.sqlite")
    do {
        if engines.contains(.raw) || engines.contains(.grdb) {
            _ = try ChildProcess.resultFields(arguments: ["--million-setup", "raw", "--persons", "1000000", plainFile.path])
        }
        if engines.contains(.strata) {
            _ = try ChildProcess.resultFields(arguments: ["--million-setup", "strata", "--persons", "1000000", strataFile.path])
        }
        for engine in engines {
            let file = engine == .strata ? strataFile : plainFile
            let fields = try ChildProcess.resultFields(arguments: ["--million-fetch", engine.rawValue, file.path])
            let seconds = Double(fields["seconds"] ?? "") ?? .nan
            let peak = Double(fields["peakKiB"] ?? "") ?? .nan
            print("| \(engine.title) | \(fields["rows"] ?? "?") | \(format(seconds)) | \(String(format: "%.0f", peak / 1024)) |")
        }
    } catch {
        fail("million: \(error)")
    }
}

if !mismatches.isEmpty {
    print("\nENGINES DISAGREE:\n" + mismatches.joined(separator: "\n"))
    exit(1)
}
