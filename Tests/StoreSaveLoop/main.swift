// Saves in a loop until killed: the crash-safety test (StoreConformanceTests/CrashSafetyTests)
// kills it at random moments and checks that the store holds exactly one saved state.
//
//     StoreSaveLoop <storeType> <path>
//     StoreSaveLoop <storeType> <path> --items N
//     StoreSaveLoop <storeType> <path> --increments N
//     StoreSaveLoop SQLite <path> --checkpoint
//     StoreSaveLoop SQLite <path> --follow N TAG     (see Follower.swift)
//
// Save k (k = 1, 2, 3, …) inserts Item k and sets the one Counter to k (creating it at k = 1),
// then prints "saved k". So a store that holds Counter k holds exactly Items 1…k.
//
// With `--checkpoint` (SQLite only) it saves in the same loop while a second connection on a
// thread of its own checkpoints the write-ahead log without pause (`Checkpointer`), and prints
// "checkpoints N" after each "saved k": the crash-safety test kills it inside checkpoints too.
//
// With `--items N` it inserts Items 1…N instead, one save each, and exits: the multi-process
// test runs several at once on one SQLite file and counts what landed.
//
// With `--increments N` it adds 1 to the store's Counters N times, one save each, the counters
// taken in turn (in key order), and prints "incremented N conflicts C": the multi-process test
// runs several at once on the same counters. Each increment adds to the value the context last
// loaded (a fetch does not reload an object already loaded); a save by another process since
// then makes the save fail with a merge conflict (optimistic locking on the version), and the
// context is reset and the increment made again from the stored value.
//
// The save loop stops by itself after a minute, and the increments after five, or when its
// parent goes away, so a test that dies cannot leave it running; `--items` inserts its N items
// and exits.

import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Says why on standard error and exits with status 2.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("StoreSaveLoop: \(message)\n".utf8))
    exit(2)
}

/// Adds 1 to the stored Counters `times` times, one save each, counter `k mod n` (in key order)
/// for the k-th save that lands; a save that meets a merge conflict is dropped (the context
/// reset) and made again from the stored value. Returns the saves that landed and the conflicts.
func increment(times: Int64, in context: ManagedObjectContext) throws -> (saved: Int64, conflicts: Int) {
    let parent = getppid()
    let deadline = Date().addingTimeInterval(300)
    var saved: Int64 = 0
    var conflicts = 0
    while saved < times {
        guard Date() < deadline, getppid() == parent else { fail("stopped after \(saved) increments and \(conflicts) conflicts") }
        let counters = try context.fetch(FetchRequest(entityName: "Counter"))
            .sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
        guard !counters.isEmpty else { fail("the store holds no Counter") }
        let counter = counters[Int(saved % Int64(counters.count))]
        let value = try counter.value(forKey: "value") as? Int64 ?? 0
        try counter.setValue(value + 1, forKey: "value")
        do {
            try context.save()
            saved += 1
        } catch StoreError.mergeConflict(_) {
            conflicts += 1
            context.reset()
        }
    }
    return (saved, conflicts)
}

let arguments = CommandLine.arguments
if arguments.count == 6, arguments[3] == "--follow" {
    guard let count = Int64(arguments[4]), let tag = Int64(arguments[5]) else { fail("--follow takes a count and a tag") }
    do {
        try follow(url: URL(fileURLWithPath: arguments[2]), count: count, tag: tag)
    } catch {
        fail("\(error)")
    }
}
let checkpointing = arguments.count == 4 && arguments[3] == "--checkpoint"
guard arguments.count == 3 || checkpointing || (arguments.count == 5 && ["--items", "--increments"].contains(arguments[3])) else {
    fail("usage: StoreSaveLoop <storeType> <path> [--items N | --increments N | --checkpoint]")
}
let count = arguments.count == 5 ? Int64(arguments[4]) : nil
if arguments.count == 5, count == nil { fail("'\(arguments[4])' is not a number") }
let itemsOnly = arguments.count == 5 && arguments[3] == "--items" ? count : nil
let increments = arguments.count == 5 && arguments[3] == "--increments" ? count : nil
guard let type = StoreType.named(arguments[1]) else { fail("unknown store type '\(arguments[1])'") }
let url = URL(fileURLWithPath: arguments[2])
if checkpointing, type != .sqlite { fail("--checkpoint is for SQLite stores") }

do {
    let model = try ManagedObjectModel {
        EntityDescription("Item") { Attribute("index", .integer64) }
        EntityDescription("Counter") { Attribute("value", .integer64) }
    }
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: type, at: url)
    let context = ManagedObjectContext(coordinator: coordinator)
    if let itemsOnly {
        for index in 1...max(1, itemsOnly) {
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValue(index, forKey: "index")
            try context.save()
        }
        exit(0)
    }
    if let increments {
        let (saved, conflicts) = try increment(times: increments, in: context)
        FileHandle.standardOutput.write(Data("incremented \(saved) conflicts \(conflicts)\n".utf8))
        exit(0)
    }
    let checkpointer = checkpointing ? Checkpointer(path: url.path) : nil
    checkpointer?.start()
    let parent = getppid()
    let deadline = Date().addingTimeInterval(60)
    var counter: ManagedObject?
    var k: Int64 = 0
    while Date() < deadline, getppid() == parent {
        k += 1
        let item = try context.insertNewObject(forEntityName: "Item")
        try item.setValue(k, forKey: "index")
        let current = try counter ?? context.insertNewObject(forEntityName: "Counter")
        try current.setValue(k, forKey: "value")
        counter = current
        try context.save()
        // Unbuffered: the line is in the pipe the moment the save has returned.
        FileHandle.standardOutput.write(Data("saved \(k)\n".utf8))
        if let checkpointer {
            FileHandle.standardOutput.write(Data("checkpoints \(checkpointer.completed.load(ordering: .relaxed))\n".utf8))
        }
    }
} catch {
    fail("\(error)")
}
