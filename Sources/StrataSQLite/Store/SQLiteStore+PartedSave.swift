import Foundation
@_spi(StoreImplementation) import StrataCore

extension StoreOption {
    /// A whole number of at least 1: a save of more new objects than this hands them to an
    /// SQLite store this many at a time, inside the save's one transaction, so that the saving
    /// context holds the snapshots of one part at a time (8,192 when not set). See
    /// `docs/performance.md`.
    public static let sqliteNewObjectsPerPart = "StrataSQLiteNewObjectsPerPart"
}

extension SQLiteStore {
    /// The part size ``StoreOption/sqliteNewObjectsPerPart`` sets.
    ///
    /// - Throws: ``StoreError/io(file:operation:reason:)`` for a value that is not a whole
    ///   number of at least 1.
    static func newObjectsPerPart(_ description: StoreDescription) throws -> Int {
        switch description.options[StoreOption.sqliteNewObjectsPerPart] {
        case nil:
            return 8192
        case .integer(let count)? where count >= 1 && count <= Int64(Int32.max):
            return Int(count)
        case let other?:
            throw StoreError.io(file: description.url?.path ?? "", operation: "open",
                                reason: "\(StoreOption.sqliteNewObjectsPerPart) must be a whole number from 1 to \(Int32.max), not \(other)")
        }
    }

    /// How many new objects each part of a save of `count` holds (``PartedSaveStore``):
    /// ``StoreOption/sqliteNewObjectsPerPart``, or nil (the save goes whole) for a save of no
    /// more, and for a store where a part cannot be written alone: one that records persistent
    /// history (one transaction a save), or whose model has derived attributes, uniqueness
    /// constraints (checked across the whole save), ordered to-manys kept by a foreign key
    /// (their order is written from the to-many's side) or entity columns (filled from the
    /// destination's row).
    @_spi(StoreImplementation) public func newObjectsPerPart(ofSaving count: Int) -> Int? {
        guard count > newObjectsPerPart, historyTables == nil, schema.writesPartsAlone else { return nil }
        return newObjectsPerPart
    }
}

extension SQLiteSchema {
    /// Whether a part of a save's new rows can be written before the rest
    /// (``SQLiteStore/newObjectsPerPart(ofSaving:)``).
    var writesPartsAlone: Bool {
        guard model.derivedAttributesByEntity.isEmpty,
              !model.entities.contains(where: { !$0.uniquenessConstraints.isEmpty }),
              !tables.values.contains(where: { !$0.entityColumns.isEmpty }) else { return false }
        return !toMany.values.contains { storages in
            storages.values.contains { storage in
                if case .inverseForeignKey(_, _, let orderColumn?, _) = storage { return orderColumn.isEmpty == false }
                return false
            }
        }
    }
}
