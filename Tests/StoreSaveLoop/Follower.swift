// `StoreSaveLoop SQLite <path> --follow N TAG`: saves N Items one at a time (index TAG * 1_000_000
// + k) into an SQLite store with persistent history and remote-change notifications, in a
// context that merges automatically, while another process does the same with another TAG.
// Both start saving once both follow (`<path>.ready-TAG`). When done it leaves `<path>.done-TAG`, waits for the other process's file, lets its context
// catch up, and checks that it saw every Item: the fetch holds 2N Items with distinct indexes,
// and the merges from history brought in every Item of the other process. It prints
// "followed N merged M during D total T" (M: the other's Items merged from history, D: of
// them, merged before this process finished saving).

import Foundation
import Strata

/// What a context's merge notifications brought in, kept by its observer.
final class MergedIDs: @unchecked Sendable {   // used on the context's thread only
    var inserted = Set<ManagedObjectID>()
}

func follow(url: URL, count: Int64, tag: Int64) throws -> Never {
    let model = try ManagedObjectModel {
        EntityDescription("Item") { Attribute("index", .integer64) }
        EntityDescription("Counter") { Attribute("value", .integer64) }
    }
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: .sqlite, at: url, options: [
        StoreOption.persistentHistoryTracking: .bool(true), StoreOption.remoteChangeNotificationPost: .bool(true),
        StoreOption.remoteChangeCheckInterval: .double(0.01),
    ])
    let context = ManagedObjectContext(coordinator: coordinator)
    context.transactionAuthor = "follower-\(tag)"
    context.automaticallyMergesChangesFromParent = true
    let merged = MergedIDs()
    let observer = NotificationCenter.default.addObserver(
        forName: ManagedObjectContext.objectsDidChangeNotification, object: context, queue: nil
    ) { note in
        merged.inserted.formUnion(note.contextChanges?.inserted ?? [])
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    try waitForBoth("ready", url: url, tag: tag)
    var own = Set<ManagedObjectID>()
    for k in 1...count {
        let item = try context.insertNewObject(forEntityName: "Item")
        try item.setValue(tag * 1_000_000 + k, forKey: "index")
        // A merge from history may come in at the save, before the new object's own change.
        try context.save()
        own.insert(item.objectID)
    }
    let duringSaves = merged.inserted.subtracting(own).count
    try waitForBoth("done", url: url, tag: tag)
    let deadline = Date().addingTimeInterval(60)
    // Let the last remote change reach the context: it merges at its next fetch.
    var items: [ManagedObject] = []
    var others = Set<ManagedObjectID>()
    while Date() < deadline {
        Thread.sleep(forTimeInterval: 0.05)
        items = try context.fetch(FetchRequest(entityName: "Item"))
        others = Set(items.filter { (try? $0.value(forKey: "index") as? Int64).flatMap { $0 }.map { $0 / 1_000_000 != tag } ?? false }
            .map(\.objectID))
        if items.count == Int(count) * 2, others.isSubset(of: merged.inserted) { break }
    }
    let indexes = Set(try items.map { try $0.value(forKey: "index") as? Int64 ?? 0 })
    guard items.count == Int(count) * 2, indexes.count == items.count else {
        fail("the store holds \(items.count) Items with \(indexes.count) distinct indexes, not \(count * 2)")
    }
    let mergedOthers = others.intersection(merged.inserted).count
    FileHandle.standardOutput.write(Data("followed \(count) merged \(mergedOthers) during \(duringSaves) total \(items.count)\n".utf8))
    exit(0)
}

/// Leaves `<path>.STEP-TAG` and waits (at most two minutes) until two such files are there.
func waitForBoth(_ step: String, url: URL, tag: Int64) throws {
    _ = FileManager.default.createFile(atPath: url.path + ".\(step)-\(tag)", contents: nil)
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline {
        let marks = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(url.lastPathComponent + ".\(step)-") }
        if marks.count >= 2 { return }
        Thread.sleep(forTimeInterval: 0.01)
    }
    fail("the other process never reached '\(step)'")
}
