import BenchmarkSupport
import Foundation

// SQLiteBenchmarks [count] [--runs N] [--iterate N | --no-iterate] [--engines raw,grdb,strata] [--only PHASE,...] [--keep]
//   Runs the same workload (insert, fetch all, indexed fetch, update 10 %, delete 10 % with a
//   cascade, count) with the Strata SQLite store, GRDB records and the SQLite C API, on `count`
//   objects (default 100000), then iterates N books (default 1000000) 500 at a time; prints the
//   seconds per phase and engine, the ratios to the C API, the peak memory and the targets.
//   Each phase runs in a child process of its own, the engines in turn; the best of N rounds
//   (default 3) is kept.
// SQLiteBenchmarks --phase PHASE --engine ENGINE --count N FILE
//   Runs one phase and prints one RESULT line (what the parent runs).
// SQLiteBenchmarks --sql-shape STRATA_FILE RAW_FILE [--runs N]
//   Times the indexed fetch's SQL alone, Strata's and the C API's (see SQLShape.swift).

let usage = """
    usage: SQLiteBenchmarks [count] [--runs N] [--iterate N | --no-iterate] [--engines ENGINE,...] [--only PHASE,...] [--keep]
           SQLiteBenchmarks --phase PHASE --engine ENGINE --count N FILE
           SQLiteBenchmarks --sql-shape STRATA_FILE RAW_FILE [--runs N]
    phases: \(Phase.allCases.map(\.rawValue).joined(separator: ", "))
    engines: \(Engine.allCases.map(\.rawValue).joined(separator: ", "))
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("SQLiteBenchmarks: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var count = 100_000
var iterationCount = 1_000_000
var runs = 3
var phaseName: String?
var engineName: String?
var engines = Engine.allCases
var only: Set<Phase>?
var keepFiles = false
var sqlShape = false
var positional: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    func value() -> String {
        guard !arguments.isEmpty else { fail("\(argument) needs a value\n\(usage)") }
        return arguments.removeFirst()
    }
    func number() -> Int {
        guard let number = Int(value()) else { fail("\(argument) needs a number") }
        return number
    }
    switch argument {
    case "--phase": phaseName = value()
    case "--engine": engineName = value()
    case "--count": count = number()
    case "--runs": runs = max(1, number())
    case "--iterate": iterationCount = number()
    case "--no-iterate": iterationCount = 0
    case "--keep": keepFiles = true
    case "--sql-shape": sqlShape = true
    case "--engines":
        engines = value().split(separator: ",").map { name in
            guard let engine = Engine(rawValue: String(name)) else { fail("unknown engine \(name)\n\(usage)") }
            return engine
        }
    case "--only":
        only = Set(value().split(separator: ",").map { name in
            guard let phase = Phase(rawValue: String(name)) else { fail("unknown phase \(name)\n\(usage)") }
            return phase
        })
    case "-h", "--help": print(usage); exit(0)
    default:
        if argument.hasPrefix("-") { fail("unknown option \(argument)\n\(usage)") }
        positional.append(argument)
    }
}

// MARK: The SQL alone

if sqlShape {
    guard positional.count == 2 else { fail("--sql-shape needs the Strata store's file and the C API's\n\(usage)") }
    do {
        try SQLShape.run(strataFile: positional[0], rawFile: positional[1], rounds: runs)
    } catch {
        fail("sql-shape: \(error)")
    }
    exit(0)
}

// MARK: Child: one phase of one engine

if let phaseName {
    guard let phase = Phase(rawValue: phaseName) else { fail("unknown phase \(phaseName)\n\(usage)") }
    guard let engine = engineName.flatMap(Engine.init(rawValue:)) else { fail("--phase needs --engine\n\(usage)") }
    guard positional.count == 1 else { fail("--phase needs one FILE\n\(usage)") }
    let workload = phase == .iterate || phase == .iterateSetup ? Workload(iterationBooks: count) : Workload(count: count)
    let file = URL(fileURLWithPath: positional[0])
    do {
        let result: PhaseResult
        switch engine {
        case .raw: result = try RawEngine.run(phase, workload: workload, file: file)
        case .grdb: result = try GRDBEngine.run(phase, workload: workload, file: file)
        case .strata: result = try StrataEngine.run(phase, workload: workload, file: file)
        }
        print(result.line)
        exit(0)
    } catch {
        fail("\(engine.rawValue) \(phase.rawValue): \(error)")
    }
}

// MARK: Parent: every phase of every engine, each in a child process

if let first = positional.first {
    guard positional.count == 1, let value = Int(first), value >= 20 else { fail("count must be a number ≥ 20\n\(usage)") }
    count = value
}
let workload = Workload(count: count)
let folder: URL
do {
    folder = try ChildProcess.makeScratchFolder(prefix: "strata-sqlite-benchmarks")
} catch {
    fail("cannot create a folder for the files: \(error)")
}

func removeDatabase(_ file: URL) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        try? FileManager.default.removeItem(atPath: file.path + suffix)
    }
}

@MainActor func runChild(_ phase: Phase, _ engine: Engine, count: Int, file: URL) -> PhaseResult {
    let fields: [String: String]
    do {
        fields = try ChildProcess.resultFields(arguments: ["--phase", phase.rawValue, "--engine", engine.rawValue, "--count", String(count), file.path])
    } catch {
        fail("\(engine.rawValue) \(phase.rawValue) failed (\(error))")
    }
    guard let result = PhaseResult(fields: fields) else { fail("\(engine.rawValue) \(phase.rawValue) failed (unreadable RESULT line)") }
    FileHandle.standardError.write(Data(String(
        format: "%@ %@ %10.4f s  %8d rows  peak %7.1f MiB%@\n",
        engine.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) as NSString,
        phase.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0) as NSString,
        result.seconds, result.objects, Double(result.peakKiB) / 1024,
        (result.partSeconds > 0 ? String(format: "  (save %.3f s)", result.partSeconds) : "") as NSString).utf8))
    return result
}

@MainActor func wanted(_ phase: Phase) -> Bool { only?.contains(phase) ?? true }

/// Every result, by engine and phase, one per round.
var measured: [Engine: [Phase: [PhaseResult]]] = [:]
var mismatches: [String] = []

@MainActor func record(_ result: PhaseResult, _ engine: Engine, _ phase: Phase) {
    measured[engine, default: [:]][phase, default: []].append(result)
}

/// Every engine must have read (or written, changed, deleted, counted) the same rows.
@MainActor func check(_ phase: Phase, _ results: [Engine: PhaseResult], round: Int) {
    guard let (firstEngine, first) = results.first else { return }
    for (engine, result) in results where result.objects != first.objects || result.checksum != first.checksum {
        mismatches.append("round \(round), \(phase.rawValue): \(engine.rawValue) gave \(result.objects) rows (digest \(result.checksum)), "
            + "\(firstEngine.rawValue) \(first.objects) rows (digest \(first.checksum))")
    }
}

FileHandle.standardError.write(Data(("workload: \(workload.count) objects (\(workload.authors) Author, \(workload.books) Book); "
    + "iteration: \(iterationCount) books; best of \(runs) rounds; engines \(engines.map(\.rawValue).joined(separator: ", ")); "
    + "files in \(folder.path)\n").utf8))

let phases = Phase.workload.filter(wanted)
// Phase by phase, every engine in turn: the engines' runs of one phase are seconds apart, so a
// slow stretch of a shared machine weighs on them alike. Each engine works on its own file.
for round in 1...runs {
    var byPhase: [Phase: [Engine: PhaseResult]] = [:]
    let files = engines.map { folder.appendingPathComponent("\($0.rawValue).sqlite") }
    files.forEach(removeDatabase)
    for phase in phases {
        for (engine, file) in zip(engines, files) {
            let result = runChild(phase, engine, count: count, file: file)
            record(result, engine, phase)
            byPhase[phase, default: [:]][engine] = result
        }
    }
    for (phase, results) in byPhase { check(phase, results, round: round) }
}

var setups: [Engine: PhaseResult] = [:]
if iterationCount > 0 && wanted(.iterate) {
    for engine in engines {
        let file = folder.appendingPathComponent("iterate-\(engine.rawValue).sqlite")
        removeDatabase(file)
        setups[engine] = runChild(.iterateSetup, engine, count: iterationCount, file: file)
    }
    for round in 1...runs {
        var results: [Engine: PhaseResult] = [:]
        for engine in engines {
            let result = runChild(.iterate, engine, count: iterationCount,
                                  file: folder.appendingPathComponent("iterate-\(engine.rawValue).sqlite"))
            record(result, engine, .iterate)
            results[engine] = result
        }
        check(.iterate, results, round: round)
    }
}

if !keepFiles { try? FileManager.default.removeItem(at: folder) }

// MARK: Tables

/// The fastest run's time; the highest peak of any run (the memory figures are upper bounds).
@MainActor func best(_ engine: Engine, _ phase: Phase) -> (seconds: Double, peakMiB: Double, result: PhaseResult)? {
    guard let results = measured[engine]?[phase], let fastest = results.min(by: { $0.seconds < $1.seconds }) else { return nil }
    let peak = Double(results.map(\.peakKiB).max() ?? 0) / 1024
    return (fastest.seconds, peak, fastest)
}

func seconds(_ value: Double?) -> String {
    guard let value else { return "—" }
    switch value {
    case ..<0.001: return String(format: "%.6f", value)
    case ..<0.01: return String(format: "%.4f", value)
    default: return String(format: "%.3f", value)
    }
}

func ratio(_ a: Double?, _ b: Double?) -> String {
    guard let a, let b, b > 0 else { return "—" }
    return String(format: "%.2f×", a / b)
}

let phaseTitles: [Phase: String] = [
    .insert: "insert \(workload.count) objects, one save",
    .fetchAll: "fetch all, read every attribute",
    .fetchIndexed: "fetch category == 7 sorted by score",
    .update: "update 10 %, one save",
    .delete: "delete 10 % (cascade), one save",
    .count: "count (all authors + all books)",
    .countWhere: "count category == 7",
    .group: "group available books by category, having, sorted, first 5",
    .iterate: "iterate \(iterationCount) books, batches of 500",
]

let shown = phases + (iterationCount > 0 && wanted(.iterate) ? [.iterate] : [])
print("\n\(workload.count) objects (\(workload.authors) Author, \(workload.books) Book); best of \(runs) rounds; seconds\n")
let header = ["phase", "rows"] + engines.map { "\($0.title) s" } + engines.filter { $0 != .raw }.map { "\($0.title) ÷ C" }
    + (engines.contains(.strata) && engines.contains(.grdb) ? ["Strata ÷ GRDB"] : [])
print("| " + header.joined(separator: " | ") + " |")
print("|" + header.indices.map { $0 == 0 ? "---" : "---:" }.joined(separator: "|") + "|")
for phase in shown {
    let rows = engines.lazy.compactMap { best($0, phase)?.result.objects }.first.map(String.init) ?? "—"
    var cells = [phaseTitles[phase] ?? phase.rawValue, rows]
    cells += engines.map { seconds(best($0, phase)?.seconds) }
    cells += engines.filter { $0 != .raw }.map { ratio(best($0, phase)?.seconds, best(.raw, phase)?.seconds) }
    if engines.contains(.strata) && engines.contains(.grdb) {
        cells.append(ratio(best(.strata, phase)?.seconds, best(.grdb, phase)?.seconds))
    }
    print("| " + cells.joined(separator: " | ") + " |")
}

// How far each engine's rounds of a phase lie apart, and the Strata store's time over the C
// API's round by round (the two run seconds apart in each round): on a shared machine the
// rounds of one engine can differ by half, and a slow stretch that misses the C API's fastest
// round but none of Strata's moves the best-of ratio above without moving the code.
print("\nRounds: fastest–slowest round of each engine, s; the Strata store ÷ the C API round by round, median\n")
let roundsHeader = ["phase"] + engines.map { "\($0.title)" } + (engines.contains(.strata) && engines.contains(.raw) ? ["Strata ÷ C, median round"] : [])
print("| " + roundsHeader.joined(separator: " | ") + " |")
print("|" + roundsHeader.indices.map { $0 == 0 ? "---" : "---:" }.joined(separator: "|") + "|")
/// The fastest and slowest rounds of `engine` in `phase`, and how far apart they are.
@MainActor func roundSpread(_ engine: Engine, _ phase: Phase) -> String {
    let times = (measured[engine]?[phase] ?? []).map(\.seconds)
    guard let fastest = times.min(), let slowest = times.max(), fastest > 0 else { return "—" }
    return seconds(fastest) + "–" + seconds(slowest) + String(format: " (%.2f×)", slowest / fastest)
}
/// The median over rounds of the Strata store's time over the C API's in the same round.
@MainActor func medianRoundRatio(_ phase: Phase) -> String {
    let strata = measured[.strata]?[phase] ?? [], raw = measured[.raw]?[phase] ?? []
    let ratios = zip(strata, raw).filter { $0.1.seconds > 0 }.map { $0.0.seconds / $0.1.seconds }.sorted()
    guard !ratios.isEmpty else { return "—" }
    let middle = ratios.count / 2
    let median = ratios.count % 2 == 1 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2
    return String(format: "%.2f×", median)
}
for phase in shown {
    var cells = [phaseTitles[phase] ?? phase.rawValue] + engines.map { roundSpread($0, phase) }
    if engines.contains(.strata) && engines.contains(.raw) { cells.append(medianRoundRatio(phase)) }
    print("| " + cells.joined(separator: " | ") + " |")
}

print("\nPeak resident memory (VmHWM of the phase's process, highest of the rounds), MiB\n")
let memoryHeader = ["phase"] + engines.map(\.title)
print("| " + memoryHeader.joined(separator: " | ") + " |")
print("|" + memoryHeader.indices.map { $0 == 0 ? "---" : "---:" }.joined(separator: "|") + "|")
for phase in shown {
    print("| " + ([phaseTitles[phase] ?? phase.rawValue] + engines.map { engine in
        best(engine, phase).map { String(format: "%.0f", $0.peakMiB) } ?? "—"
    }).joined(separator: " | ") + " |")
}
print("")

if let insert = best(.strata, .insert) {
    print(String(format: "Strata insert: %.3f s making the objects (insertNewObject, setValue), %.3f s in save().",
                 insert.seconds - insert.result.partSeconds, insert.result.partSeconds))
}
if let iterate = best(.strata, .iterate), iterate.result.markKiB > 0 {
    print(String(format: "Strata iteration: %.0f MiB resident once fetchBatched returned (before any object was read).",
                 Double(iterate.result.markKiB) / 1024))
}
for engine in engines {
    if let setup = setups[engine] {
        print(String(format: "Iteration file (%@): %d objects written in %.2f s, peak %.0f MiB (not measured).",
                     engine.title as NSString, setup.objects, setup.seconds, Double(setup.peakKiB) / 1024))
    }
}
if mismatches.isEmpty {
    print("Every engine read, changed, deleted and counted the same rows (digests compared phase by phase).")
} else {
    print("ENGINES DISAGREE:")
    for mismatch in mismatches { print("  " + mismatch) }
}

// MARK: Targets

func verdict(_ met: Bool?) -> String { met.map { $0 ? "met" : "NOT met" } ?? "not measured" }
@MainActor func within(_ phase: Phase, _ factor: Double) -> Bool? {
    guard let strata = best(.strata, phase)?.seconds, let raw = best(.raw, phase)?.seconds else { return nil }
    return strata <= factor * raw
}
@MainActor func beatsGRDB(_ phase: Phase) -> Bool? {
    guard let strata = best(.strata, phase)?.seconds, let grdb = best(.grdb, phase)?.seconds else { return nil }
    return strata < grdb
}
func both(_ a: Bool?, _ b: Bool?) -> Bool? { a.flatMap { a in b.map { a && $0 } } }

print("\nTargets:")
print("  insert within 2× of the C API and faster than GRDB records: " + verdict(both(within(.insert, 2), beatsGRDB(.insert))))
print("  fetch all within 2× of the C API and faster than GRDB records: " + verdict(both(within(.fetchAll, 2), beatsGRDB(.fetchAll))))
print("  indexed fetch within 1.5× of the C API: " + verdict(within(.fetchIndexed, 1.5)))
print("  iterating \(iterationCount) rows in batches of 500 under 100 MB peak: "
      + verdict(best(.strata, .iterate).map { Double($0.result.peakKiB) * 1024 < 100e6 && $0.peakMiB * 1024 * 1024 < 100e6 }))
exit(mismatches.isEmpty ? 0 : 1)
