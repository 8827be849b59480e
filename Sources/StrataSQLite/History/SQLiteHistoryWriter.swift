import Foundation
@_spi(StoreImplementation) import StrataCore

/// Writes the history transaction of one save into Core Data's tables, inside the save's own
/// SQLite transaction, before the rows change (so that it reads the state the save replaces for
/// tombstones and old values): one `ATRANSACTION` row, one `ACHANGE` row per object. Rows are
/// written as Core Data writes them: `Z_OPT` NULL (history rows are never changed), the names
/// as `ATRANSACTIONSTRING` keys with the plain name columns NULL, `ZQUERYGEN` NULL.
struct SQLiteHistoryWriter {
    let tables: SQLiteHistoryTables
    let connection: SQLiteConnection
    let schema: SQLiteSchema
    let reader: SQLiteRowReader
    let file: String

    /// Records `request`; `stored` gives the state an updated or deleted object had before it
    /// (by default its row as the connection reads it now, which is that state when the request
    /// is recorded before its rows are written).
    func record(_ request: StoreSaveRequest, stored: ((ManagedObjectID) throws -> ObjectSnapshot?)? = nil) throws {
        let recorder = tables.recorder
        let transactionID = try nextKey(SQLiteHistoryTables.transactionEntity, count: 1)
        let insertsValues = recorder.needsStoredState(for: request)
        let changes = try recorder.changes(of: request, transactionNumber: transactionID, firstChangeID: 0) { id in
            guard insertsValues else { return nil }
            return try stored.map { try $0(id) } ?? reader.snapshot(for: id)
        }
        let info = request.transactionInfo
        try connection.run("""
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP)
            VALUES (?, ?, NULL, ?, ?, ?, ?, ?)
            """, [.integer(transactionID), .integer(SQLiteHistoryTables.transactionEntity),
                  try string(info?.author), try string(HistoryTransactionInfo.bundleIdentifier), try string(info?.contextName),
                  try string(HistoryTransactionInfo.processIdentifier), .real(Date().timeIntervalSinceReferenceDate)])
        guard !changes.isEmpty else { return }
        var changeID = try nextKey(SQLiteHistoryTables.changeEntity, count: changes.count)
        let tombstoneNames = (0..<tables.tombstoneColumns).map { ", ZTOMBSTONE\($0)" }.joined()
        let placeholders = String(repeating: ", ?", count: tables.tombstoneColumns)
        let insert = try connection.statement("""
            INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstoneNames))
            VALUES (?, ?, NULL, ?, ?, ?, ?, ?\(placeholders))
            """)
        for change in changes {
            let id = change.changedObjectID
            guard let code = schema.codes[id.entityName], let key = id.primaryKey else {
                throw StoreError.corruptStore(file: file, offset: nil, reason: "no entity code for history of \(id)")
            }
            var values: [SQLiteValue] = [.integer(changeID), .integer(SQLiteHistoryTables.changeEntity), .integer(change.changeType.rawValue),
                                         .integer(code), .integer(key), .integer(transactionID), columnsMask(change)]
            let kept = recorder.tombstoneAttributes(of: id.entityName)
            for position in 0..<tables.tombstoneColumns {
                let value = position < kept.count ? change.tombstone?[kept[position]] : nil
                values.append(SQLiteValueCoding.encode(value))
            }
            try insert.run(values)
            if recorder.recordsValues, change.changeType == .update {
                try connection.run("INSERT INTO STRATA_ACHANGEVALUES (Z_PK, ZOLD, ZNEW) VALUES (?, ?, ?)", [
                    .integer(changeID),
                    .blob(try MetadataPropertyList.encode(["values": PersistentHistoryLog.propertyList(of: change.oldValues ?? [:])])),
                    .blob(try MetadataPropertyList.encode(["values": PersistentHistoryLog.propertyList(of: change.newValues ?? [:])])),
                ])
            }
            changeID += 1
        }
    }

    /// `ZCOLUMNS` of an update: bit i (byte i / 8, bit i % 8 from the lowest) set for the i-th
    /// property of ``SQLiteHistoryTables/columnOrder(of:)`` that changed; NULL otherwise.
    private func columnsMask(_ change: PersistentHistoryChange) -> SQLiteValue {
        guard let names = change.updatedProperties, let entity = schema.model.entity(named: change.changedObjectID.entityName) else {
            return .null
        }
        let order = SQLiteHistoryTables.columnOrder(of: entity)
        var bytes = [UInt8](repeating: 0, count: (order.count + 7) / 8)
        for (index, name) in order.enumerated() where names.contains(name) { bytes[index / 8] |= 1 << (index % 8) }
        return .blob(Data(bytes))
    }

    /// The first of `count` new keys of a history table, from `Z_PRIMARYKEY`.
    private func nextKey(_ entity: Int64, count: Int) throws -> Int64 {
        guard case .integer(let last)? = try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(entity)]) else {
            throw StoreError.corruptStore(file: file, offset: nil, reason: "Z_PRIMARYKEY has no row for history entity \(entity)")
        }
        try connection.run("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [.integer(last + Int64(count)), .integer(entity)])
        return last + 1
    }

    /// The `ATRANSACTIONSTRING` key of `name`, added when new; NULL for nil.
    private func string(_ name: String?) throws -> SQLiteValue {
        guard let name else { return .null }
        if case .integer(let key)? = try connection.scalar("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", [.text(name)]) {
            return .integer(key)
        }
        let key = try nextKey(SQLiteHistoryTables.stringEntity, count: 1)
        try connection.run("INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, NULL, ?)",
                           [.integer(key), .integer(SQLiteHistoryTables.stringEntity), .text(name)])
        return .integer(key)
    }
}
