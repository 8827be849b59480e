import BenchmarkSupport
import Foundation
import Strata

// MergeBenchmarks [--rounds N] [--sizes 10000,100000] [--keep]
//   For each size n (default 10,000 and 100,000): writes n items (in 100 groups) to an SQLite
//   store, loads every one into a context that keeps them registered, then, N rounds (default
//   20, after 2 not counted), another context on the same coordinator saves 100 changes (60
//   updates, 20 inserts, 20 deletes of random items) and the first context merges them: once
//   through mergeChanges(fromContextDidSave:), once automatically (the same save shape, merged
//   as the context next processes its pending changes). Prints the median time per merge for
//   each size side by side and their ratio: a merge costs what the save holds, so the ratio is
//   close to 1.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("MergeBenchmarks: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var rounds = 20
var sizes = [10_000, 100_000]
var keep = false
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--rounds":
        guard let value = arguments.first.flatMap(Int.init), value > 0 else { fail("--rounds needs a number") }
        rounds = value; arguments.removeFirst()
    case "--sizes":
        guard let value = arguments.first else { fail("--sizes needs numbers") }
        sizes = value.split(separator: ",").compactMap { Int($0) }.filter { $0 >= 1_000 }
        guard !sizes.isEmpty else { fail("--sizes needs numbers of at least 1000") }
        arguments.removeFirst()
    case "--keep": keep = true
    default: fail("unknown argument \(argument)")
    }
}

func microseconds(_ seconds: Double) -> String { String(format: "%9.1f µs", seconds * 1e6) }

do {
    let folder = try ChildProcess.makeScratchFolder(prefix: "strata-merge-benchmarks")
    defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
    var results: [(size: Int, explicit: Double, automatic: Double)] = []
    for size in sizes {
        let file = folder.appendingPathComponent("items-\(size).sqlite")
        let workload = try MergeWorkload(items: size, file: file)
        let explicit = median(try workload.measure(rounds: rounds, automatically: false))
        let automatic = median(try workload.measure(rounds: rounds, automatically: true))
        guard try workload.check() else { fail("the merged context does not hold what the store holds (\(size) items)") }
        results.append((size, explicit, automatic))
    }
    print("Merging a save of 100 changes (60 updates, 20 inserts, 20 deletes) into a context, SQLite store,")
    print("median of \(rounds) rounds (time of the merge alone)")
    print("registered objects   mergeChanges(fromContextDidSave:)   automatic merge")
    for result in results {
        let size = result.size.formatted(.number.grouping(.automatic))
        print("\(size.padding(toLength: 20, withPad: " ", startingAt: 0)) \(microseconds(result.explicit))                        \(microseconds(result.automatic))")
    }
    if let small = results.first, let large = results.last, results.count > 1 {
        print(String(format: "ratio (%@ ÷ %@)    %.2f×                                %.2f×",
                     large.size.formatted(), small.size.formatted(), large.explicit / small.explicit, large.automatic / small.automatic))
    }
} catch {
    fail("\(error)")
}
