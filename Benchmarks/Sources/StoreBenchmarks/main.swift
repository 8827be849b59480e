import BenchmarkSupport
import Foundation
import Strata

// StoreBenchmarks [count] [--runs N] [--no-context] [--keep]
//   Builds a `count`-object graph (default 100000) and measures the binary and XML stores
//   against Foundation's encoders and XMLDocument; prints a table. Each measured phase runs in
//   a child process of its own (best of N runs in N rounds, default 3) so its peak memory is
//   its own.
// StoreBenchmarks --phase NAME --count N FILE
//   Runs one phase and prints one RESULT line (what the parent runs).

let usage = """
    usage: StoreBenchmarks [count] [--runs N] [--no-context] [--keep] [--only PHASE,...]
           StoreBenchmarks --phase PHASE --count N FILE
    phases: \(Phase.allCases.map(\.rawValue).joined(separator: ", "))
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("StoreBenchmarks: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var count = 100_000
var runs = 3
var phaseName: String?
var includeContext = true
var keepFiles = false
var only: Set<String>?
var positional: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    func value() -> String {
        guard !arguments.isEmpty else { fail("\(argument) needs a value\n\(usage)") }
        return arguments.removeFirst()
    }
    switch argument {
    case "--phase": phaseName = value()
    case "--count":
        guard let number = Int(value()) else { fail("--count needs a number") }
        count = number
    case "--runs":
        guard let number = Int(value()) else { fail("--runs needs a number") }
        runs = max(1, number)
    case "--no-context": includeContext = false
    case "--keep": keepFiles = true
    case "--only": only = Set(value().split(separator: ",").map(String.init))
    case "-h", "--help": print(usage); exit(0)
    default:
        if argument.hasPrefix("-") { fail("unknown option \(argument)\n\(usage)") }
        positional.append(argument)
    }
}

// MARK: Child: one phase

if let phaseName {
    guard let phase = Phase(rawValue: phaseName) else { fail("unknown phase \(phaseName)\n\(usage)") }
    guard positional.count == 1 else { fail("--phase needs one FILE\n\(usage)") }
    do {
        let result = try run(phase, dataset: Dataset(count: count), file: URL(fileURLWithPath: positional[0]))
        print(result.line)
        exit(0)
    } catch {
        fail("\(phase.rawValue): \(error)")
    }
}

// MARK: Parent: every phase, each in a child process

if let first = positional.first {
    guard positional.count == 1, let value = Int(first), value >= 20 else { fail("count must be a number ≥ 20\n\(usage)") }
    count = value
}
let dataset = Dataset(count: count)
let folder: URL
do {
    folder = try ChildProcess.makeScratchFolder(prefix: "strata-benchmarks")
} catch {
    fail("cannot create a folder for the files: \(error)")
}

@MainActor func runChild(_ phase: Phase, file: URL) -> PhaseResult {
    let fields: [String: String]
    do {
        fields = try ChildProcess.resultFields(arguments: ["--phase", phase.rawValue, "--count", String(count), file.path])
    } catch {
        fail("phase \(phase.rawValue) failed (\(error))")
    }
    guard let result = PhaseResult(fields: fields) else { fail("phase \(phase.rawValue) failed (unreadable RESULT line)") }
    return result
}

/// The phases in the order a round runs them (saves before the loads of their files), with
/// their files.
let schedule: [(Phase, String)] = [
    (.baselineImage, "none"), (.baselineRecords, "none"),
    (.binarySave, "store.binary"), (.binaryLoad, "store.binary"),
    (.xmlSave, "store.xml"), (.xmlLoad, "store.xml"),
    (.jsonSave, "library.json"), (.jsonLoad, "library.json"),
    (.plistSave, "library.plist"), (.plistLoad, "library.plist"),
    (.xmlDocumentParse, "store.xml"), (.xmlDocumentWalk, "store.xml"),
    (.contextSaveBinary, "context.binary"), (.contextSaveXML, "context.xml"),
]

@MainActor func wanted(_ phase: Phase) -> Bool {
    if phase == .binaryVerify || phase == .xmlVerify { return true }
    guard let only else { return phase != .contextSaveBinary && phase != .contextSaveXML || includeContext }
    return only.contains(phase.rawValue)
}

/// Best of `runs` for every wanted phase: the fastest time, the lowest peak, the last file size.
/// The runs go in rounds (every phase once, then again), so that a burst of other work on the
/// machine slows one run of several phases rather than every run of one.
@MainActor func measureAll() -> [Phase: PhaseResult] {
    var best: [Phase: PhaseResult] = [:]
    for round in 1...runs {
        for (phase, file) in schedule where wanted(phase) {
            let result = runChild(phase, file: folder.appendingPathComponent(file))
            FileHandle.standardError.write(Data(String(
                format: "%@ run %d: %8.3f s  %9.0f obj/s  peak %7.1f MiB%@\n",
                phase.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0) as NSString, round, result.seconds,
                Double(result.objects) / result.seconds, Double(result.peakKiB) / 1024,
                (result.fileBytes > 0 ? String(format: "  file %.2f MB", Double(result.fileBytes) / 1e6) : "") as NSString).utf8))
            if var current = best[phase] {
                current.seconds = min(current.seconds, result.seconds)
                current.setupSeconds = min(current.setupSeconds, result.setupSeconds)
                current.peakKiB = min(current.peakKiB, result.peakKiB)
                current.fileBytes = result.fileBytes
                best[phase] = current
            } else {
                best[phase] = result
            }
        }
    }
    return best
}

FileHandle.standardError.write(Data(("graph: \(dataset.count) objects (\(dataset.tags) Tag, \(dataset.authors) Author, "
    + "\(dataset.books) Book, \(dataset.chapters) Chapter); best of \(runs) runs; files in \(folder.path)\n").utf8))

let measured = measureAll()
let baselineImage = measured[.baselineImage]
let baselineRecords = measured[.baselineRecords]
let binarySave = measured[.binarySave]
let binaryLoad = measured[.binaryLoad]
let xmlSave = measured[.xmlSave]
let xmlLoad = measured[.xmlLoad]
let jsonSave = measured[.jsonSave]
let jsonLoad = measured[.jsonLoad]
let plistSave = measured[.plistSave]
let plistLoad = measured[.plistLoad]
let documentParse = measured[.xmlDocumentParse]
let documentWalk = measured[.xmlDocumentWalk]
let contextBinary = measured[.contextSaveBinary]
let contextXML = measured[.contextSaveXML]
// Once each, not timed: what the stores read back is exactly the graph they were given.
let binaryVerified = binaryLoad != nil ? runChild(.binaryVerify, file: folder.appendingPathComponent("store.binary")) : nil
let xmlVerified = xmlLoad != nil ? runChild(.xmlVerify, file: folder.appendingPathComponent("store.xml")) : nil

if !keepFiles { try? FileManager.default.removeItem(at: folder) }

// MARK: Table

func rate(_ result: PhaseResult?) -> String {
    result.map { String(format: "%.0f", Double($0.objects) / $0.seconds) } ?? "—"
}
func secs(_ result: PhaseResult?) -> String { result.map { String(format: "%.3f", $0.seconds) } ?? "—" }
func megabytes(_ result: PhaseResult?) -> String {
    result.flatMap { $0.fileBytes > 0 ? String(format: "%.2f", Double($0.fileBytes) / 1e6) : nil } ?? "—"
}
func peak(_ result: PhaseResult?) -> String { result.map { String(format: "%.0f", Double($0.peakKiB) / 1024) } ?? "—" }

let rows: [[String]] = [
    ["Strata binary store", secs(binarySave), rate(binarySave), secs(binaryLoad), rate(binaryLoad),
     megabytes(binarySave), peak(binarySave), peak(binaryLoad)],
    ["Strata XML store", secs(xmlSave), rate(xmlSave), secs(xmlLoad), rate(xmlLoad),
     megabytes(xmlSave), peak(xmlSave), peak(xmlLoad)],
    ["JSONEncoder / JSONDecoder", secs(jsonSave), rate(jsonSave), secs(jsonLoad), rate(jsonLoad),
     megabytes(jsonSave), peak(jsonSave), peak(jsonLoad)],
    ["PropertyListEncoder(.binary) / Decoder", secs(plistSave), rate(plistSave), secs(plistLoad), rate(plistLoad),
     megabytes(plistSave), peak(plistSave), peak(plistLoad)],
    ["XMLDocument(data:), parse only (XML store file)", "—", "—", secs(documentParse), rate(documentParse),
     megabytes(xmlSave), "—", peak(documentParse)],
    ["XMLDocument(data:), parse + walk", "—", "—", secs(documentWalk), rate(documentWalk),
     megabytes(xmlSave), "—", peak(documentWalk)],
    ["context.save() → binary store", secs(contextBinary), rate(contextBinary), "—", "—",
     megabytes(contextBinary), peak(contextBinary), "—"],
    ["context.save() → XML store", secs(contextXML), rate(contextXML), "—", "—",
     megabytes(contextXML), peak(contextXML), "—"],
]
let header = ["format", "save s", "save obj/s", "load s", "load obj/s", "file MB", "save peak MiB", "load peak MiB"]
print("\n\(dataset.count) objects, best of \(runs) runs\n")
print("| " + header.joined(separator: " | ") + " |")
print("|" + header.indices.map { $0 == 0 ? "---" : "---:" }.joined(separator: "|") + "|")
for row in rows where row.dropFirst().contains(where: { $0 != "—" }) {
    print("| " + row.joined(separator: " | ") + " |")
}
print("")
if let baselineImage {
    print(String(format: "Building the store image alone (no file): %.3f s, peak %.0f MiB.",
                 baselineImage.seconds, Double(baselineImage.peakKiB) / 1024))
}
if let baselineRecords {
    print(String(format: "Building the Codable structs alone (no file): %.3f s, peak %.0f MiB.",
                 baselineRecords.seconds, Double(baselineRecords.peakKiB) / 1024))
}
for (name, result) in [("binary", binaryVerified), ("XML", xmlVerified)] where result != nil {
    print("The \(name) store read back exactly the graph it was given (\(result?.objects ?? 0) objects compared).")
}
for (name, result) in [("binary", contextBinary), ("XML", contextXML)] {
    if let result {
        print(String(format: "Context → %@ store: inserting %d objects with setValue took %.3f s (not in the save time).",
                     name as NSString, result.objects, result.setupSeconds))
    }
}

// MARK: Targets

func verdict(_ met: Bool?) -> String { met.map { $0 ? "met" : "NOT met" } ?? "not measured" }
func faster(_ a: PhaseResult?, than b: PhaseResult?) -> Bool? {
    guard let a, let b else { return nil }
    return a.seconds < b.seconds
}
let smallest: Bool? = {
    guard let binarySave, let xmlSave, let jsonSave, let plistSave else { return nil }
    return binarySave.fileBytes < min(xmlSave.fileBytes, jsonSave.fileBytes, plistSave.fileBytes)
}()
print("")
print("Targets:")
print("  binary store saves faster than JSONEncoder and PropertyListEncoder: "
      + verdict(faster(binarySave, than: jsonSave).flatMap { a in faster(binarySave, than: plistSave).map { a && $0 } }))
print("  binary store loads faster than JSONDecoder and PropertyListDecoder: "
      + verdict(faster(binaryLoad, than: jsonLoad).flatMap { a in faster(binaryLoad, than: plistLoad).map { a && $0 } }))
print("  binary store writes the smallest file: " + verdict(smallest))
print("  XML store loads faster than XMLDocument parses the same file: " + verdict(faster(xmlLoad, than: documentParse)))
