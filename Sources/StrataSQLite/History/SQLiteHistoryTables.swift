import Foundation
@_spi(StoreImplementation) import StrataCore

/// Core Data's persistent-history tables, in its layout (see `docs/formats/sqlite.md`):
/// `ATRANSACTION` (one row per save), `ACHANGE` (one row per object changed, with
/// `ZTOMBSTONEn` columns for the values kept on deletion) and `ATRANSACTIONSTRING` (the author,
/// context, process and bundle names the transactions point to), numbered through
/// `Z_PRIMARYKEY` under the entity codes Core Data gives them. Strata's own table
/// `STRATA_ACHANGEVALUES` holds an update's old and new values when
/// ``StoreOption/persistentHistoryValues`` is on.
struct SQLiteHistoryTables: Sendable {
    /// The `Z_ENT` of an `ACHANGE` row.
    static let changeEntity: Int64 = 16001
    /// The `Z_ENT` of an `ATRANSACTION` row.
    static let transactionEntity: Int64 = 16002
    /// The `Z_ENT` of an `ATRANSACTIONSTRING` row.
    static let stringEntity: Int64 = 16003

    /// The statements that make the tables and indexes, as Core Data writes them.
    static let createStatements = [
        "CREATE TABLE IF NOT EXISTS ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB )",
        "CREATE TABLE IF NOT EXISTS ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
        "CREATE TABLE IF NOT EXISTS ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE INDEX IF NOT EXISTS ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
        "CREATE INDEX IF NOT EXISTS ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
        "CREATE INDEX IF NOT EXISTS ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
        "CREATE INDEX IF NOT EXISTS ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
        "CREATE INDEX IF NOT EXISTS ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
        "CREATE INDEX IF NOT EXISTS Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
        "CREATE INDEX IF NOT EXISTS Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX IF NOT EXISTS Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
    ]

    /// Strata's table of an update's old and new values (a property list of each), by change.
    static let valuesTable = "CREATE TABLE IF NOT EXISTS STRATA_ACHANGEVALUES ( Z_PK INTEGER PRIMARY KEY, ZOLD BLOB, ZNEW BLOB )"

    /// What records each save.
    let recorder: PersistentHistoryRecorder
    /// How many `ZTOMBSTONEn` columns `ACHANGE` has.
    let tombstoneColumns: Int

    /// Makes the tables, their `Z_PRIMARYKEY` rows and the tombstone columns the model needs,
    /// where the file lacks them (nothing when it has them all).
    static func prepare(_ connection: SQLiteConnection, recorder: PersistentHistoryRecorder, writable: Bool) throws -> SQLiteHistoryTables {
        let needed = recorder.model.entities.map { recorder.tombstoneAttributes(of: $0.name).count }.max() ?? 0
        var present = try tombstoneCount(connection)
        let tables = Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) ?? "" })
        let complete = tables.contains("ACHANGE") && tables.contains("ATRANSACTION") && tables.contains("ATRANSACTIONSTRING")
            && present >= needed && (!recorder.recordsValues || tables.contains("STRATA_ACHANGEVALUES"))
        if writable && !complete {
            try connection.transaction {
                for statement in createStatements { try connection.execute(statement) }
                if recorder.recordsValues { try connection.execute(valuesTable) }
                for (code, name) in [(changeEntity, "CHANGE"), (transactionEntity, "TRANSACTION"), (stringEntity, "TRANSACTIONSTRING")] {
                    try connection.run("INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)",
                                       [.integer(code), .text(name)])
                }
                present = try tombstoneCount(connection)
                while present < needed {
                    try connection.execute("ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(present)")
                    present += 1
                }
            }
        }
        return SQLiteHistoryTables(recorder: recorder, tombstoneColumns: present)
    }

    /// How many `ZTOMBSTONEn` columns `ACHANGE` has (0 without the table).
    private static func tombstoneCount(_ connection: SQLiteConnection) throws -> Int {
        let columns = try connection.rows("SELECT name FROM pragma_table_info('ACHANGE')") { $0.text(0) ?? "" }
        return columns.filter { $0.hasPrefix("ZTOMBSTONE") }.count
    }

    /// Whether the file holds the history tables.
    static func exist(_ connection: SQLiteConnection) throws -> Bool {
        try connection.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('ACHANGE', 'ATRANSACTION')") == .integer(2)
    }

    /// The properties of an entity in the order `ZCOLUMNS` numbers them: every property the
    /// entity has (inherited ones included), ordered by name.
    static func columnOrder(of entity: EntityDescription) -> [String] {
        (entity.attributes.map(\.name) + entity.relationships.map(\.name)).sorted()
    }
}
