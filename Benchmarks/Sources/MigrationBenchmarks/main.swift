import BenchmarkSupport
import Foundation
import GRDBSQLite
import Strata

// MigrationBenchmarks [rows] [--runs N]
//   Writes an SQLite store of `rows` items (default 1000000) with model V1, then, N rounds
//   (default 5), on two fresh copies of it: migrates one to model V2 (one optional attribute
//   added) with Strata's inferred migration (the plan made beforehand: what runs when a store is
//   added with shouldMigrateStoreAutomatically), and runs on the other, through SQLite's C API,
//   the plain SQL statements of the same change (ALTER TABLE … ADD COLUMN, the new metadata and
//   compiled model, in one transaction). Prints the median times and the median of the rounds'
//   ratios (Strata ÷ C API), and the whole addPersistentStore with migration for reference.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("MigrationBenchmarks: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var rows = 1_000_000
var runs = 5
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    if argument == "--runs", let value = arguments.first.flatMap(Int.init) {
        runs = max(1, value)
        arguments.removeFirst()
    } else if let value = Int(argument), value > 0 {
        rows = value
    } else {
        fail("unknown argument \(argument)")
    }
}

func seconds(_ work: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try work()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Items with a name, a value and an index on the value.
func model(addingAttribute: Bool) throws -> ManagedObjectModel {
    try ManagedObjectModel {
        EntityDescription("Item") {
            Attribute("name", .string)
            Attribute("value", .integer64, indexed: true)
            if addingAttribute { Attribute("weight", .double) }
        }
    }
}

/// A connection of SQLite's C API.
final class Raw {
    let handle: OpaquePointer
    init(_ path: String) {
        var opened: OpaquePointer?
        guard sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let opened else { fail("open \(path)") }
        handle = opened
    }
    deinit { sqlite3_close_v2(handle) }
    func execute(_ sql: String) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { fail("\(sql): \(String(cString: sqlite3_errmsg(handle)))") }
    }
    func run(_ sql: String, blob: Data) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { fail(sql) }
        defer { sqlite3_finalize(statement) }
        _ = blob.withUnsafeBytes { sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32($0.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self)) }
        guard sqlite3_step(statement) == SQLITE_DONE else { fail(sql) }
    }
    func blob(_ sql: String) -> Data {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, sqlite3_step(statement) == SQLITE_ROW else { fail(sql) }
        defer { sqlite3_finalize(statement) }
        return Data(bytes: sqlite3_column_blob(statement, 0), count: Int(sqlite3_column_bytes(statement, 0)))
    }
}

/// The values the items are made of.
enum Values: PseudoRandomValues {}

do {
    let v1 = try model(addingAttribute: false), v2 = try model(addingAttribute: true)
    let folder = try ChildProcess.makeScratchFolder(prefix: "strata-migration-benchmarks")
    defer { try? FileManager.default.removeItem(at: folder) }
    let base = folder.appendingPathComponent("base.sqlite")
    let writing = try seconds {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: v1)
        try coordinator.remove(try coordinator.addPersistentStore(type: .sqlite, at: base))
        let raw = Raw(base.path)
        raw.execute("BEGIN")
        var statement: OpaquePointer?
        sqlite3_prepare_v2(raw.handle, "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZVALUE) VALUES (?, 1, 1, ?, ?)", -1, &statement, nil)
        for key in 1...rows {
            sqlite3_bind_int64(statement, 1, Int64(key))
            sqlite3_bind_text(statement, 2, "item \(key)", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            sqlite3_bind_int64(statement, 3, Int64(Values.bits(1, key, 1) % 1_000_000))
            guard sqlite3_step(statement) == SQLITE_DONE else { fail("insert") }
            sqlite3_reset(statement)
        }
        sqlite3_finalize(statement)
        raw.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(rows) WHERE Z_NAME = 'Item'")
        raw.execute("COMMIT")
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    FileHandle.standardError.write(Data("wrote \(rows) rows in \(String(format: "%.1f", writing)) s\n".utf8))

    // The metadata and compiled model the change writes, taken from a copy Strata migrated.
    let reference = folder.appendingPathComponent("reference.sqlite")
    try FileManager.default.copyItem(at: base, to: reference)
    let metadata = try StoreType.sqlite.readMetadata(at: base)
    let plan = try MigrationPlanner(versions: [ModelVersion(name: "V1", model: v1), ModelVersion(name: "V2", model: v2)])
        .plan(storeMetadata: metadata, storedModel: nil, to: v2, file: base.path)
    try StoreMigrator(storeAt: reference, type: .sqlite).migrate(plan)
    let referenceConnection = Raw(reference.path)
    let newPlist = referenceConnection.blob("SELECT Z_PLIST FROM Z_METADATA")
    let newCache = referenceConnection.blob("SELECT Z_CONTENT FROM Z_MODELCACHE")

    var strataTimes: [Double] = [], rawTimes: [Double] = [], ratios: [Double] = [], openTimes: [Double] = []
    for round in 0..<runs {
        let strataFile = folder.appendingPathComponent("strata-\(round).sqlite")
        let rawFile = folder.appendingPathComponent("raw-\(round).sqlite")
        let openFile = folder.appendingPathComponent("open-\(round).sqlite")
        for file in [strataFile, rawFile, openFile] { try FileManager.default.copyItem(at: base, to: file) }
        let strata = try seconds { try StoreMigrator(storeAt: strataFile, type: .sqlite).migrate(plan) }
        let raw = seconds {
            let connection = Raw(rawFile.path)
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("ALTER TABLE ZITEM ADD COLUMN ZWEIGHT FLOAT")
            connection.run("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1", blob: newPlist)
            connection.execute("DELETE FROM Z_MODELCACHE")
            connection.run("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", blob: newCache)
            connection.execute("COMMIT")
        }
        let open = try seconds {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: v2)
            coordinator.migrationPlanner = MigrationPlanner(versions: [ModelVersion(name: "V1", model: v1), ModelVersion(name: "V2", model: v2)])
            try coordinator.addPersistentStore(type: .sqlite, at: openFile, options: [StoreOption.shouldMigrateStoreAutomatically: .bool(true)])
        }
        strataTimes.append(strata)
        rawTimes.append(raw)
        openTimes.append(open)
        ratios.append(strata / raw)
        for file in [strataFile, rawFile, openFile] {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        }
    }
    print("| change | rows | C API ms | Strata ms | Strata ÷ C (median of rounds) | addPersistentStore with migration ms |")
    print("|---|---:|---:|---:|---:|---:|")
    print(String(format: "| one attribute added | %d | %.2f | %.2f | %.2f | %.2f |", rows, median(rawTimes) * 1000, median(strataTimes) * 1000,
                 median(ratios), median(openTimes) * 1000))
} catch {
    fail("\(error)")
}
