// UndoBenchmarks: what 100,000 attribute changes cost in a context without an undo manager
// (the default) and in one with a manager recording every change, in the same run.
//
//   swift build -c release --package-path Benchmarks --scratch-path Benchmarks/.build --product UndoBenchmarks
//   Benchmarks/.build/release/UndoBenchmarks [changes] [runs]
//
// 1,000 saved objects of an in-memory store; each round sets one Double attribute of every
// object (1,000 changes, the end of an event after each round) until `changes` (default 100,000)
// were made. Each run takes a fresh context; the best of `runs` (default 5) is reported. Printed
// for each case: the time per change, the heap calls (malloc, calloc, realloc) per change and the
// heap still held after the changes per change. Without a manager a change records nothing: 0
// heap calls per change is the expectation (checked; the run fails otherwise).
import CMallocCount
import CMallocInfo
import Foundation
import Strata

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("UndoBenchmarks: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let changes = arguments.first ?? 100_000
let runs = arguments.dropFirst().first ?? 5
let objectCount = 1_000
guard changes >= 2 * objectCount, runs > 0 else { fail("usage: UndoBenchmarks [changes ≥ 2000] [runs]") }

let model = try ManagedObjectModel {
    EntityDescription("Item") {
        Attribute("value", .double)
        Attribute("note", .string)
    }
}
let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
try coordinator.addPersistentStore(type: .inMemory)
let seeding = ManagedObjectContext(coordinator: coordinator)
let seeded = try (0..<objectCount).map { index in
    let item = try seeding.insertNewObject(forEntityName: "Item")
    try item.setValue(Double(index), forKey: "value")
    try item.setValue("n\(index)", forKey: "note")
    return item
}
try seeding.save()
let ids = seeded.map(\.objectID)

/// One run's figures: seconds, heap calls and heap bytes kept, for all the changes.
struct Run {
    var seconds: Double
    var heapCalls: UInt64
    var heapKept: Int
}

/// Makes `changes` attribute changes in a fresh context, with an undo manager when `undoing`.
func run(undoing: Bool) throws -> Run {
    let context = ManagedObjectContext(coordinator: coordinator)
    let objects = try ids.map { try context.existingObject(with: $0) }
    // The first change of each object lists it as updated and keeps its saved values: made
    // before the measured changes, which are then the steady state of an editing session.
    for object in objects { try object.setValue(-1.0, forKey: "value") }
    context.processPendingChanges()
    let manager = undoing ? ObjectUndoManager() : nil
    context.undoManager = manager
    let rounds = changes / objectCount
    let heapBefore = cmallocinfo_heap_in_use()
    let callsBefore = cmalloccount_calls()
    let start = DispatchTime.now().uptimeNanoseconds
    for round in 0..<rounds {
        let value = Double(round)
        for object in objects { try object.setValue(value, forKey: "value") }
        context.processPendingChanges()
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let calls = cmalloccount_calls() - callsBefore
    let kept = cmallocinfo_heap_in_use() - heapBefore
    if let manager {
        guard manager.canUndo else { fail("the manager recorded nothing") }
        try context.undo()
        guard try objects[0].value(forKey: "value") as? Double == Double(rounds - 2) else { fail("undo did not restore") }
    }
    return Run(seconds: elapsed, heapCalls: calls, heapKept: Int(kept))
}

var best: [Bool: Run] = [:]
for _ in 0..<runs {
    for undoing in [false, true] {
        let result = try run(undoing: undoing)
        if let previous = best[undoing], previous.seconds <= result.seconds { continue }
        best[undoing] = result
    }
}

let made = Double(changes / objectCount * objectCount)
print("\(Int(made)) attribute changes on \(objectCount) objects, best of \(runs) runs")
print("case                 ns/change  heap calls/change  heap kept/change (bytes)")
for undoing in [false, true] {
    let result = best[undoing]!
    let name = undoing ? "with undo manager" : "no undo manager"
    print(name.padding(toLength: 20, withPad: " ", startingAt: 0),
          String(format: "%10.1f  %17.3f  %24.1f", result.seconds / made * 1e9,
                 Double(result.heapCalls) / made, Double(result.heapKept) / made))
}
let ratio = best[true]!.seconds / best[false]!.seconds
print(String(format: "with manager / without: %.2f×", ratio))
if best[false]!.heapCalls > UInt64(changes / objectCount) {
    fail("without a manager the changes called the heap \(best[false]!.heapCalls) times")
}
