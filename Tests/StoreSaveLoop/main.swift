// Saves in a loop until killed: the crash-safety test (StoreConformanceTests/CrashSafetyTests)
// kills it at random moments and checks that the store holds exactly one saved state.
//
//     StoreSaveLoop <storeType> <path>
//     StoreSaveLoop <storeType> <path> --items N
//
// Save k (k = 1, 2, 3, …) inserts Item k and sets the one Counter to k (creating it at k = 1),
// then prints "saved k". So a store that holds Counter k holds exactly Items 1…k.
//
// With `--items N` it inserts Items 1…N instead, one save each, and exits: the multi-process
// test runs several at once on one SQLite file and counts what landed.
//
// It stops by itself after a minute, or when its parent goes away, so a test that dies cannot
// leave it running.

import Foundation
import Strata

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("StoreSaveLoop: \(message)\n".utf8))
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count == 3 || (arguments.count == 5 && arguments[3] == "--items") else {
    fail("usage: StoreSaveLoop <storeType> <path> [--items N]")
}
let itemsOnly = arguments.count == 5 ? Int64(arguments[4]) : nil
StoreType.registerBuiltInTypes()
guard let type = StoreType.named(arguments[1]) else { fail("unknown store type '\(arguments[1])'") }
let url = URL(fileURLWithPath: arguments[2])

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
    }
} catch {
    fail("\(error)")
}
