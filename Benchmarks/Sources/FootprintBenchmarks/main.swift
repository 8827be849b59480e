import BenchmarkSupport
import Foundation

// FootprintBenchmarks [--rows N] [--iterate-rows N] [--keep]
//   Measures the memory an app's objects take (an object ID, a fetched object's heap block, the
//   heap a context holds per fetched object of 2, 6 and 12 attributes, the peak of iterating many
//   rows) and checks each figure against its threshold (Thresholds.swift). Exits 1 when one is
//   over, 2 when a measurement fails. Figures are for glibc: elsewhere the heap ones read 0.
// FootprintBenchmarks --iterate FILE --iterate-rows N
//   Iterates the rows of FILE and prints one RESULT line (what the parent runs, so that the
//   peak memory is the iteration's own).

let usage = "usage: FootprintBenchmarks [--rows N] [--iterate-rows N] [--keep]"

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("FootprintBenchmarks: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var rows = 20_000
var iterateRows = 200_000
var iterateFile: String?
var keepFiles = false
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
    switch argument {
    case "--rows": rows = number()
    case "--iterate-rows": iterateRows = number()
    case "--iterate": iterateFile = value()
    case "--keep": keepFiles = true
    default: fail("unknown argument \(argument)\n\(usage)")
    }
}

if let iterateFile {
    do {
        let (afterFetch, peak) = try Measurements.iteration(rows: iterateRows, file: URL(fileURLWithPath: iterateFile))
        print("RESULT afterFetchKiB=\(afterFetch) peakKiB=\(peak)")
        exit(0)
    } catch {
        fail("iteration: \(error)")
    }
}

var figures: [String: Double] = ["id.bytes": Double(Measurements.objectIDBytes())]
let folder: URL
do {
    folder = try ChildProcess.makeScratchFolder(prefix: "strata-footprint")
} catch {
    fail("cannot make a scratch folder: \(error)")
}
do {
    let file = folder.appendingPathComponent("items.sqlite")
    let coordinator = try Dataset.open(file)
    for count in Dataset.attributeCounts { try Dataset.insert(rows, attributes: count, into: coordinator) }
    for count in Dataset.attributeCounts {
        let (block, heapBytes) = try Measurements.fetchedObject(attributes: count, rows: rows, file: file)
        figures["object.block.item\(count)"] = Double(block)
        figures["heap.per.object.item\(count)"] = heapBytes
    }
    let iterateFile = folder.appendingPathComponent("iterate.sqlite")
    try Dataset.insert(iterateRows, attributes: 6, into: try Dataset.open(iterateFile))
    let result = try ChildProcess.resultFields(arguments: ["--iterate", iterateFile.path, "--iterate-rows", "\(iterateRows)"])
    guard let afterFetch = result["afterFetchKiB"].flatMap(Double.init), let peak = result["peakKiB"].flatMap(Double.init) else {
        throw FootprintError("the iteration printed no memory: \(result)")
    }
    figures["iterate.after.fetch"] = afterFetch / 1024
    figures["iterate.peak"] = peak / 1024
} catch {
    if !keepFiles { try? FileManager.default.removeItem(at: folder) }
    fail("\(error)")
}

print("Footprint (\(rows) rows an entity, \(iterateRows) rows iterated)")
if rows != 20_000 || iterateRows != 200_000 { print("(the thresholds are set for 20000 rows an entity and 200000 iterated)") }
print("figure                    measured    limit  when set  what")
var over: [String] = []
for threshold in Thresholds.all {
    guard let figure = figures[threshold.key] else { fail("no figure for \(threshold.key)") }
    let passes = figure <= threshold.limit
    if !passes { over.append(threshold.key) }
    let line = [threshold.key.padding(toLength: 24, withPad: " ", startingAt: 0),
                String(format: "%8.1f %-3@", figure, threshold.unit as NSString),
                String(format: "%6.1f", threshold.limit), String(format: "%8.1f", threshold.measured),
                "\(threshold.what)\(passes ? "" : "  OVER")"]
    print(line.joined(separator: "  "))
}
if !over.isEmpty {
    if !keepFiles { try? FileManager.default.removeItem(at: folder) }
    fail("over the threshold: \(over.joined(separator: ", "))", status: 1)
}
if !keepFiles { try? FileManager.default.removeItem(at: folder) }
print("All \(Thresholds.all.count) figures within their thresholds.")
