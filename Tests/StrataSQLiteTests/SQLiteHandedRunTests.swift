import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// Records what a store hands a receiver: its hint, and the keys of each run of snapshots.
final class RecordingReceiver: SnapshotReceiver {
    var hints: [Int] = []
    var runs: [[Int64]] = []

    func expect(_ count: Int) { hints.append(count) }

    func receive(_ snapshots: inout [ObjectSnapshot]) throws {
        runs.append(snapshots.map { $0.objectID.primaryKey ?? -1 })
        snapshots.removeAll(keepingCapacity: true)
    }
}

/// The SQLite store hands a fetch that SQL answers whole, in its order, to the context in runs
/// of ``SQLiteStore/handedRowCount`` rows as it reads them; any other fetch all at once.
@Suite("SQLite store: fetches handed on in runs")
struct SQLiteHandedRunTests {
    static let run = SQLiteStore.handedRowCount
    static let rowCount = 2 * run + 3

    /// A store of `rowCount` books (`SampleModels.shelves()`), `T00000`… scored 0…, with keys 1….
    private func books() throws -> (TwoWayStore, URL) {
        let url = try TemporaryFolder.make().appendingPathComponent("store.sqlite")
        let store = try TwoWayStore(model: SampleModels.shelves(), url: url)
        for index in 0..<Self.rowCount {
            let book = try store.context.insertNewObject(forEntityName: "Book")
            try book.setValue("T" + String(index + 100_000).dropFirst(), forKey: "title")
            try book.setValue(Double(index), forKey: "score")
        }
        try store.context.save()
        return (store, url)
    }

    @Test("a whole table comes in full runs and a short last one, with the table's size as the hint")
    func wholeTable() throws {
        let (store, _) = try books()
        let receiver = RecordingReceiver()
        try store.store.fetch(store.request("Book", nil), reusing: nil, into: receiver)
        #expect(receiver.hints == [Self.rowCount])
        #expect(receiver.runs.map(\.count) == [Self.run, Self.run, 3])
        #expect(receiver.runs.joined().map { $0 } == Array(1...Int64(Self.rowCount)))
    }

    @Test("a condition and an order in SQL: runs in that order, no hint of a size")
    func conditionAndOrder() throws {
        let (store, _) = try books()
        let receiver = RecordingReceiver()
        let request = store.request("Book", try ObjectPredicate(format: "title BEGINSWITH 'T0'"),
                                    sort: [ObjectSortDescriptor(key: "title", ascending: false)])
        try store.store.fetch(request, reusing: nil, into: receiver)
        #expect(receiver.hints == [0])
        #expect(receiver.runs.map(\.count) == [Self.run, Self.run, 3])
        #expect(receiver.runs.joined().map { $0 } == Array((1...Int64(Self.rowCount)).reversed()))
    }

    @Test("an order that is checked after reading (a double may be stored as a BLOB) comes in one run")
    func orderCheckedAfterReading() throws {
        let (store, _) = try books()
        let receiver = RecordingReceiver()
        try store.store.fetch(store.request("Book", nil, sort: [ObjectSortDescriptor(key: "score", ascending: false)]),
                              reusing: nil, into: receiver)
        #expect(receiver.hints == [Self.rowCount])
        #expect(receiver.runs.map(\.count) == [Self.rowCount])
        #expect(receiver.runs.joined().map { $0 } == Array((1...Int64(Self.rowCount)).reversed()))
    }

    @Test("a row that cannot be read in a later run fails the fetch with a typed error; the context goes on")
    func unreadableRowInALaterRun() throws {
        let (seeded, url) = try books()
        let other = try SQLiteConnection(path: url.path, create: false)
        try other.run("UPDATE ZBOOK SET Z_ENT = 99 WHERE Z_PK = \(Self.run + 10)")

        let reader = try TwoWayStore(model: SampleModels.shelves(), url: url)
        let context = ManagedObjectContext(coordinator: reader.coordinator)
        #expect {
            try context.fetch(FetchRequest(entityName: "Book"))
        } throws: { error in
            guard case StoreError.corruptStore(_, _, let reason) = error else { return false }
            return reason.contains("unknown Z_ENT 99")
        }
        let first = try context.fetch(FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "title == 'T00000'")))
        #expect(try first.map { try $0.value(forKey: "score", as: Double.self) } == [0])
        _ = seeded
    }

    @Test("the row cache keeps a fetch that fits, but not a whole table whose highest key says it may not")
    func cacheKeepsByHint() throws {
        let (seeded, url) = try books()
        // Every book but the last three goes: three rows, keys up to rowCount.
        let other = try SQLiteConnection(path: url.path, create: false)
        try other.run("DELETE FROM ZBOOK WHERE Z_PK <= \(Self.rowCount - 3)")
        _ = seeded

        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.shelves(), rowCacheCapacity: Self.run)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.fetch(FetchRequest(entityName: "Book")).count == 3)
        #expect(coordinator.cachedRowCount == 0, "the highest key is above the capacity")
        let condition = try ObjectPredicate(format: "score >= 0")
        #expect(try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Book", predicate: condition)).count == 3)
        #expect(coordinator.cachedRowCount == 3, "no hint: the three rows fit")
    }
}
