@_spi(StoreImplementation) import StrataCore

/// Whether a table may hold a stray row: one whose `Z_ENT` is the code of no entity stored in
/// that table (a row another program wrote, or a corrupt one), which reading the rows reports as
/// ``StoreError/corruptStore(file:offset:reason:)``. A count whose entities fill the table has no
/// `Z_ENT` condition and would count such a row; the store asks here first, and fetches instead
/// when the answer is yes.
///
/// The answer for each table is kept with the connection until another connection commits
/// (`PRAGMA data_version` changes): the store itself writes only its entities' codes. A fetch
/// that read every row of a table without failing has answered no for it (the reader reports a
/// row of an unknown code), and records so (``recordNoStrayRows(_:readAt:connection:)``).
/// Otherwise finding it out is one `SELECT 1 … LIMIT 1` over the values outside the table's
/// codes: a few range searches of the entity index where the table has one (several entities
/// share it), a read of every row's `Z_ENT` where it has none, once per table until the file
/// changes.
final class SQLiteStrayRowCheck {
    private let schema: SQLiteSchema
    /// The connection's `PRAGMA data_version` when `answers` were found.
    private var dataVersion: SQLiteValue?
    /// Whether each table (by name) may hold a stray row.
    private var answers: [String: Bool] = [:]

    init(schema: SQLiteSchema) {
        self.schema = schema
    }

    /// Whether `table` may hold a stray row; false only when it holds none.
    ///
    /// - Throws: an SQLite error from reading the file.
    func mayHoldStrayRows(_ table: SQLiteSchema.Table, connection: SQLiteConnection) throws(SQLiteError) -> Bool {
        let version = try connection.scalar("PRAGMA data_version")
        if version != dataVersion {
            answers = [:]
            dataVersion = version
        }
        if let known = answers[table.name] { return known }
        let query = strayRowQuery(table)
        let found = try connection.scalar(query.sql, query.values) != nil
        answers[table.name] = found
        return found
    }

    /// The connection's `PRAGMA data_version`: read before a fetch reads a whole table, and
    /// handed to ``recordNoStrayRows(_:readAt:connection:)`` after it.
    func dataVersion(_ connection: SQLiteConnection) throws(SQLiteError) -> SQLiteValue? {
        try connection.scalar("PRAGMA data_version")
    }

    /// Records that `table` holds no stray row: every row of it was read without finding one,
    /// at data version `version`. Nothing is recorded when another connection has committed
    /// since (the rows read may not be the file's rows now).
    ///
    /// - Throws: an SQLite error from reading the data version.
    func recordNoStrayRows(_ table: SQLiteSchema.Table, readAt version: SQLiteValue?,
                           connection: SQLiteConnection) throws(SQLiteError) {
        let now = try connection.scalar("PRAGMA data_version")
        guard now == version else { return }
        if now != dataVersion {
            answers = [:]
            dataVersion = now
        }
        answers[table.name] = false
    }

    /// `SELECT 1 FROM <table> WHERE Z_ENT IS NULL OR Z_ENT < ? OR (Z_ENT > ? AND Z_ENT < ?) … OR
    /// Z_ENT > ? LIMIT 1` over the codes of the table's entities (abstract ones too: the reader
    /// reads their rows), bound: each term is a range an index on `Z_ENT` answers. A text or BLOB
    /// `Z_ENT` is greater than any number, so the last term finds it. A real strictly between two
    /// codes is found too, though the reader would take it for the lower one: the store then
    /// fetches, which gives the same answer, only slower. A table of one entity, which has no
    /// index on `Z_ENT` to search, is read with the one comparison `Z_ENT IS NOT ?` (NULL, text,
    /// BLOB and any other number are not the code): a fifth less time a row than the three terms.
    private func strayRowQuery(_ table: SQLiteSchema.Table) -> (sql: String, values: [SQLiteValue]) {
        let codes = schema.codes.filter { schema.table(for: $0.key)?.name == table.name }.values.sorted()
        guard let first = codes.first, let last = codes.last else {
            return ("SELECT 1 FROM \(table.name) LIMIT 1", [])
        }
        if codes.count == 1 { return ("SELECT 1 FROM \(table.name) WHERE Z_ENT IS NOT ? LIMIT 1", [.integer(first)]) }
        var terms = ["Z_ENT IS NULL", "Z_ENT < ?"]
        var values: [SQLiteValue] = [.integer(first)]
        for (lower, upper) in zip(codes, codes.dropFirst()) {
            terms.append("(Z_ENT > ? AND Z_ENT < ?)")
            values += [.integer(lower), .integer(upper)]
        }
        terms.append("Z_ENT > ?")
        values.append(.integer(last))
        return ("SELECT 1 FROM \(table.name) WHERE \(terms.joined(separator: " OR ")) LIMIT 1", values)
    }
}
