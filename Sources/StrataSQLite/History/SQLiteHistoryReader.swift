import Foundation
@_spi(StoreImplementation) import StrataCore

/// Reads and deletes history in Core Data's tables: what Strata wrote and what Core Data wrote.
struct SQLiteHistoryReader {
    let connection: SQLiteConnection
    let schema: SQLiteSchema
    let storeIdentifier: String
    let tombstoneColumns: Int
    let recorder: PersistentHistoryRecorder
    let file: String

    /// The transactions `query` selects, oldest first.
    func transactions(_ query: StoreHistoryQuery) throws -> [PersistentHistoryTransaction] {
        guard try SQLiteHistoryTables.exist(connection) else { return [] }
        let strings = Dictionary(try connection.rows("SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING") { ($0.int64(0), $0.text(1)) }) { a, _ in a }
        func text(_ row: SQLiteStatement, _ keyColumn: Int, _ textColumn: Int) -> String? {
            row.isNull(keyColumn) ? row.text(textColumn) : strings[row.int64(keyColumn)] ?? nil
        }
        var sql = """
            SELECT Z_PK, ZTIMESTAMP, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID
            FROM ATRANSACTION WHERE Z_PK > ?
            """
        var arguments: [SQLiteValue] = [.integer(query.afterTransactionNumber)]
        if let date = query.afterDate {
            sql += " AND ZTIMESTAMP > ?"
            arguments.append(.real(date.timeIntervalSinceReferenceDate))
        }
        var transactions = try connection.rows(sql + " ORDER BY Z_PK", arguments) { row in
            PersistentHistoryTransaction(
                transactionNumber: row.int64(0), storeIdentifier: storeIdentifier,
                timestamp: Date(timeIntervalSinceReferenceDate: row.double(1)),
                author: text(row, 2, 6), contextName: text(row, 4, 8), processIdentifier: text(row, 5, 9),
                bundleIdentifier: text(row, 3, 7), changes: query.includesChanges ? [] : nil)
        }
        if let numbers = query.transactionNumbers { transactions.removeAll { !numbers.contains($0.transactionNumber) } }
        guard query.includesChanges, let first = transactions.first?.transactionNumber,
              let last = transactions.last?.transactionNumber else { return transactions }
        let position = Dictionary(uniqueKeysWithValues: transactions.enumerated().map { ($1.transactionNumber, $0) })
        let values = try storedValues(from: first, through: last)
        let tombstones = (0..<tombstoneColumns).map { ", ZTOMBSTONE\($0)" }.joined()
        _ = try connection.rows("""
            SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstones)
            FROM ACHANGE WHERE ZTRANSACTIONID BETWEEN ? AND ? ORDER BY Z_PK
            """, [.integer(first), .integer(last)]) { row in
            guard let index = position[row.int64(4)] else { return }
            let changeID = row.int64(0)
            guard let type = PersistentHistoryChange.ChangeType(rawValue: row.int64(1)),
                  let entityName = schema.namesByCode[row.int64(2)], let entity = schema.model.entity(named: entityName) else {
                throw StoreError.corruptStore(file: file, offset: nil,
                                              reason: "ACHANGE row \(changeID): change type \(row.int64(1)) of entity code \(row.int64(2)) is not known")
            }
            var change = PersistentHistoryChange(
                changeID: changeID, changedObjectID: ManagedObjectID(entityName: entityName, storeIdentifier: storeIdentifier, primaryKey: row.int64(3)),
                changeType: type, transactionNumber: row.int64(4))
            if type == .update, let mask = row.blob(5) {
                let order = SQLiteHistoryTables.columnOrder(of: entity)
                change.updatedProperties = Set(order.enumerated().filter { index, _ in
                    index / 8 < mask.count && mask[mask.startIndex + index / 8] & (1 << (index % 8)) != 0
                }.map(\.element))
            }
            if type == .delete {
                let kept = recorder.tombstoneAttributes(of: entityName)
                var tombstone: [String: AttributeValue] = [:]
                for (position, name) in kept.enumerated() where position < tombstoneColumns {
                    guard let attribute = entity.attributesByName[name] else { continue }
                    do {
                        tombstone[name] = try SQLiteValueCoding.decode(row.value(6 + position), as: attribute.type)
                    } catch {
                        throw StoreError.corruptStore(file: file, offset: nil, reason: "ACHANGE row \(changeID), ZTOMBSTONE\(position): \(error)")
                    }
                }
                change.tombstone = kept.isEmpty ? nil : tombstone
            }
            if let (old, new) = values[changeID] {
                change.oldValues = old
                change.newValues = new
            }
            transactions[index].changes?.append(change)
        }
        return transactions
    }

    /// The old and new values Strata kept for the updates of transactions `first` through `last`.
    private func storedValues(from first: Int64, through last: Int64) throws -> [Int64: ([String: AttributeValue], [String: AttributeValue])] {
        guard try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'STRATA_ACHANGEVALUES'") == .integer(1) else { return [:] }
        let rows = try connection.rows("""
            SELECT v.Z_PK, v.ZOLD, v.ZNEW FROM STRATA_ACHANGEVALUES v JOIN ACHANGE c ON c.Z_PK = v.Z_PK
            WHERE c.ZTRANSACTIONID BETWEEN ? AND ?
            """, [.integer(first), .integer(last)]) { ($0.int64(0), $0.blob(1) ?? Data(), $0.blob(2) ?? Data()) }
        var result: [Int64: ([String: AttributeValue], [String: AttributeValue])] = [:]
        for (id, old, new) in rows {
            result[id] = (try decode(old), try decode(new))
        }
        return result
    }

    private func decode(_ data: Data) throws -> [String: AttributeValue] {
        let plist: [String: PropertyListValue]
        do {
            plist = try MetadataPropertyList.decode(data)
        } catch {
            throw StoreError.corruptStore(file: file, offset: nil, reason: "STRATA_ACHANGEVALUES: \(error.description)")
        }
        return try plist["values"].map { try PersistentHistoryLog.values(fromPropertyList: $0, file: file) } ?? [:]
    }

    /// Deletes what `deletion` selects; returns the number of transactions deleted.
    func delete(_ deletion: StoreHistoryDeletion) throws -> Int {
        guard try SQLiteHistoryTables.exist(connection) else { return 0 }
        let (condition, arguments): (String, [SQLiteValue]) = switch deletion {
        case .all: ("1", [])
        case .through(let last): ("Z_PK <= ?", [.integer(last)])
        case .before(let date): ("ZTIMESTAMP < ?", [.real(date.timeIntervalSinceReferenceDate)])
        }
        return try connection.transaction {
            let selected = "SELECT Z_PK FROM ATRANSACTION WHERE \(condition)"
            if try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'STRATA_ACHANGEVALUES'") == .integer(1) {
                try connection.run("DELETE FROM STRATA_ACHANGEVALUES WHERE Z_PK IN (SELECT Z_PK FROM ACHANGE WHERE ZTRANSACTIONID IN (\(selected)))", arguments)
            }
            try connection.run("DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (\(selected))", arguments)
            guard case .integer(let count)? = try connection.scalar("SELECT count(*) FROM ATRANSACTION WHERE \(condition)", arguments) else { return 0 }
            try connection.run("DELETE FROM ATRANSACTION WHERE \(condition)", arguments)
            return Int(count)
        }
    }

    /// The number of the last transaction recorded (`Z_PRIMARYKEY`'s counter), 0 when none.
    func lastTransactionNumber() throws -> Int64 {
        guard case .integer(let last)? = try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                                                                [.integer(SQLiteHistoryTables.transactionEntity)]) else { return 0 }
        return last
    }
}
