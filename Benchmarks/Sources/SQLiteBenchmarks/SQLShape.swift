import BenchmarkSupport
import GRDBSQLite
import SQLiteBenchmarkSupport
import Foundation

/// What the shape of the indexed fetch's SQL costs SQLite alone: the C API's statement on its own
/// file, and Strata's statement on the Strata store's file with its Core Data columns taken off
/// one by one. Each statement runs `repetitions` times through the C API, every column of every
/// row read (as the engines read them); the fastest time is kept.
///
/// `SQLiteBenchmarks --sql-shape STRATA_FILE RAW_FILE`, on the files an insert phase leaves
/// (`SQLiteBenchmarks --only insert --runs 1 --no-iterate --keep` keeps them).
enum SQLShape {
    /// A statement to time, on the file of one engine.
    struct Variant {
        var title: String
        var sql: String
        var onStrataFile: Bool
    }

    static let variants: [Variant] = {
        let category = Workload.fetchedCategory
        let values = "t0.ZTITLE, t0.ZCATEGORY, t0.ZSCORE, t0.ZAVAILABLE, t0.ZPUBLISHED, t0.ZCOVER, t0.ZAUTHOR"
        let from = "FROM ZBOOK t0 WHERE t0.ZCATEGORY = \(category)"
        return [
            Variant(title: "the C API's statement", sql: "SELECT \(RawEngine.bookColumns) FROM book WHERE category = \(category) ORDER BY score",
                    onStrataFile: false),
            Variant(title: "Strata's statement", sql: "SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT, \(values) \(from) ORDER BY t0.ZSCORE ASC, t0.Z_PK",
                    onStrataFile: true),
            Variant(title: "without Z_ENT", sql: "SELECT t0.Z_PK, t0.Z_OPT, \(values) \(from) ORDER BY t0.ZSCORE ASC, t0.Z_PK",
                    onStrataFile: true),
            Variant(title: "… and without the tie-break on Z_PK", sql: "SELECT t0.Z_PK, t0.Z_OPT, \(values) \(from) ORDER BY t0.ZSCORE ASC",
                    onStrataFile: true),
            Variant(title: "… and without Z_OPT", sql: "SELECT t0.Z_PK, \(values) \(from) ORDER BY t0.ZSCORE ASC", onStrataFile: true),
        ]
    }()

    /// Times every variant (the variants in turn, `rounds` times over, so that a slow stretch of
    /// the machine weighs on them alike) and prints the fastest time of each.
    static func run(strataFile: String, rawFile: String, rounds: Int, repetitions: Int = 10) throws {
        let strata = try RawDatabase(path: strataFile)
        let raw = try RawDatabase(path: rawFile)
        var best = Array(repeating: Double.infinity, count: variants.count)
        var rows = Array(repeating: 0, count: variants.count)
        for _ in 0..<max(1, rounds) {
            for (index, variant) in variants.enumerated() {
                let (count, seconds) = try fastestRead(variant.sql, in: variant.onStrataFile ? strata : raw, repetitions: repetitions)
                best[index] = min(best[index], seconds)
                rows[index] = count
            }
        }
        print("| statement | rows | ms |")
        print("|---|---:|---:|")
        for (index, variant) in variants.enumerated() {
            print("| \(variant.title) | \(rows[index]) | \(String(format: "%.2f", best[index] * 1000)) |")
        }
    }

    /// The rows `sql` returns and the fastest of `repetitions` runs that read every column.
    private static func fastestRead(_ sql: String, in db: RawDatabase, repetitions: Int) throws -> (Int, Double) {
        var fastest = Double.infinity
        var count = 0
        var sum = 0
        for _ in 0..<repetitions {
            let statement = try db.prepare(sql)
            defer { sqlite3_finalize(statement) }
            let start = DispatchTime.now().uptimeNanoseconds
            count = 0
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { break }
                guard step == SQLITE_ROW else { throw db.failure(sql) }
                count += 1
                for column in 0..<sqlite3_column_count(statement) {
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_TEXT, SQLITE_BLOB:
                        if sqlite3_column_blob(statement, column) != nil { sum &+= Int(sqlite3_column_bytes(statement, column)) }
                    case SQLITE_FLOAT: sum &+= Int(sqlite3_column_double(statement, column))
                    default: sum &+= Int(sqlite3_column_int64(statement, column))
                    }
                }
            }
            fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        // The sum keeps the reads from being optimised away.
        if sum == Int.min { print("") }
        return (count, fastest)
    }
}
