@_spi(StoreImplementation) import StrataCore

/// Where one entity's stored attributes and to-ones sit in the rows of its table, worked out once
/// per entity: the writer binds values by position and the reader decodes columns by position,
/// with no lookup of a column by name per row.
///
/// Positions count from the start of a row selected or inserted as `Z_PK, Z_ENT, Z_OPT, <every
/// column of the table>`, so the first column after the three is at position 3.
final class SQLiteRowLayout {
    /// A stored attribute and its column.
    struct Attribute {
        let name: String
        let type: AttributeType
        /// Where the column sits in the row.
        let position: Int
        /// Where the value sits in the entity's ``AttributeLayout``.
        let slot: Int
    }

    /// A stored to-one and its foreign-key column.
    struct ToOne {
        let name: String
        let destinationEntityName: String
        /// Whether the destination entity has sub-entities, so that a key alone does not say
        /// which entity the destination is.
        let destinationHasSubentities: Bool
        let position: Int
    }

    /// The position of the first table column, after `Z_PK, Z_ENT, Z_OPT`.
    static let firstColumn = 3

    /// The entity.
    let entityName: String
    /// The entity's code, its rows' `Z_ENT`.
    let code: Int64
    /// The table.
    let table: SQLiteSchema.Table
    /// The entity's stored attributes that have a column, in the entity's order.
    let attributes: [Attribute]
    /// The type and the position of each of ``attributes``, which the reader looks up for every
    /// value of every row: a list of plain values, read without retaining a name.
    let columnReads: [ColumnRead]

    /// The type of an attribute and where its column sits in the row.
    struct ColumnRead {
        let type: AttributeType
        let position: Int
    }
    /// The index in ``attributes`` of the attribute at each slot of ``attributeLayout``; −1 for a
    /// slot without a column (a transient attribute).
    let attributeAtSlot: [Int]
    /// The positions of the attributes whose numbers may be stored as BLOBs (NaN, −0.0, a decimal
    /// of more than 15 digits), which SQL orders after every other number.
    let inexactNumberPositions: [Int]
    /// The entity's stored to-ones that have a column, in the entity's order.
    let toOnes: [ToOne]
    /// The entity's attribute layout: a row's values are put in place by slot, and a snapshot
    /// in this layout is read by slot, with no name hashed per value.
    let attributeLayout: AttributeLayout
    /// How many values a whole row has: the three bookkeeping columns and every table column.
    let width: Int
    /// The positions of the table columns that neither ``attributes`` nor ``toOnes`` fill (other
    /// entities' columns, order columns): an inserted row of this entity holds NULL there.
    let unfilledPositions: [Int]
    /// `INSERT INTO <table> (Z_PK, Z_ENT, Z_OPT, <every column>) VALUES (?, …)`.
    let insertSQL: String
    /// How many rows ``insertRowsSQL`` inserts: as many as keep it within 999 parameters (what
    /// every SQLite build allows), at most ``largestRowsPerInsert``; 1 for a row wider than that.
    let rowsPerInsert: Int
    /// ``insertSQL`` with ``rowsPerInsert`` rows of parameters, `VALUES (?, …), (?, …), …`: a
    /// statement runs once for all of them, which SQLite starts and ends once (its cursors
    /// opened, its registers kept), rather than once a row. `OR FAIL`: a row in conflict stops
    /// the statement and keeps the rows before it, so that SQLite needs no statement journal
    /// (which it would write to a temporary file) to take the statement back; the save that
    /// fails goes back whole with its transaction.
    let insertRowsSQL: String
    /// An `UPDATE <table> SET Z_OPT = ?, <columns> = ? WHERE Z_PK = ? AND Z_OPT = ? AND Z_ENT = ?`
    /// of some columns, and the statement prepared for it once a row was first updated so: a row
    /// whose version or entity is not the one the saver read is left alone (no change counted),
    /// which is how the writer finds a conflict without reading every version first.
    final class RowUpdate {
        /// The SQL.
        let sql: String
        /// The positions of the columns it sets after `Z_OPT`, in its order.
        let positions: [Int]
        /// ``sql`` prepared on the store's connection.
        var statement: SQLiteStatement?

        init(table: String, columns: [(name: String, position: Int)]) {
            sql = "UPDATE \(table) SET " + (["Z_OPT = ?"] + columns.map { "\($0.name) = ?" }).joined(separator: ", ")
                + " WHERE Z_PK = ? AND Z_OPT = ? AND Z_ENT = ?"
            positions = columns.map(\.position)
        }
    }

    /// What fills a position of a row: one of ``attributes``, one of ``toOnes`` (by index), or
    /// nothing the entity writes (NULL).
    enum Filling {
        case attribute(Int)
        case toOne(Int)
        case nothing
    }

    /// What fills each position of a row, by position: an update binds each column's value from
    /// a snapshot without a row of values built first.
    private let fillings: [Filling]

    /// What fills `position` of a row.
    func filling(_ position: Int) -> Filling {
        position < fillings.count ? fillings[position] : .nothing
    }

    /// The update of every column a save writes: all but the order columns, which belong to the
    /// to-many side, and the derived ones, which belong to the store.
    let wholeRowUpdate: RowUpdate
    /// The columns a save writes, by the name of their attribute or to-one.
    private let updatableColumns: [String: (name: String, position: Int)]
    /// The updates of fewer columns made so far, by the positions they set.
    private var partialUpdates: [[Int]: RowUpdate] = [:]
    /// ``insertSQL`` prepared on the store's connection, once a row was first inserted: later rows
    /// skip the connection's statement cache (a lookup by the whole SQL text).
    var insertStatement: SQLiteStatement?
    /// ``insertRowsSQL`` prepared on the store's connection, once rows were first inserted in
    /// one statement.
    var insertRowsStatement: SQLiteStatement?

    /// The most rows one insert statement takes: beyond a few dozen, the statement's own start
    /// and end are a small part of its time, and longer lists only leave more rows to insert one
    /// by one at the end of a run.
    static let largestRowsPerInsert = 32

    init(entity: EntityDescription, code: Int64, table: SQLiteSchema.Table, model: ManagedObjectModel) {
        var positions: [String: Int] = [:]
        for (index, column) in table.columns.enumerated() { positions[column.name] = index + Self.firstColumn }
        entityName = entity.name
        self.code = code
        self.table = table
        attributeLayout = entity.attributeLayout
        attributes = entity.attributes.compactMap { [attributeLayout] attribute in
            guard !attribute.isTransient, let column = table.attributeColumns[attribute.name],
                  let position = positions[column], let slot = attributeLayout.position(of: attribute.name) else { return nil }
            return Attribute(name: attribute.name, type: attribute.type, position: position, slot: slot)
        }
        columnReads = attributes.map { ColumnRead(type: $0.type, position: $0.position) }
        var attributeAtSlot = Array(repeating: -1, count: attributeLayout.names.count)
        for (index, attribute) in attributes.enumerated() where attribute.slot < attributeAtSlot.count {
            attributeAtSlot[attribute.slot] = index
        }
        self.attributeAtSlot = attributeAtSlot
        inexactNumberPositions = attributes.filter(\.type.storesInexactNumbersAsBlobs).map(\.position)
        toOnes = entity.relationships.compactMap { relationship in
            guard !relationship.isToMany, !relationship.isTransient, let column = table.toOneColumns[relationship.name],
                  let position = positions[column] else { return nil }
            let destination = relationship.destinationEntityName
            return ToOne(name: relationship.name, destinationEntityName: destination,
                         destinationHasSubentities: model.entity(named: destination)?.subentityNames.isEmpty == false,
                         position: position)
        }
        width = table.columns.count + Self.firstColumn
        var fillings = [Filling](repeating: .nothing, count: width)
        for (index, attribute) in attributes.enumerated() where attribute.position < width { fillings[attribute.position] = .attribute(index) }
        for (index, toOne) in toOnes.enumerated() where toOne.position < width { fillings[toOne.position] = .toOne(index) }
        self.fillings = fillings
        let filled = Set(attributes.map(\.position)).union(toOnes.map(\.position))
        unfilledPositions = (Self.firstColumn..<width).filter { !filled.contains($0) }
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name)
        let marks = "(" + names.map { _ in "?" }.joined(separator: ", ") + ")"
        insertSQL = "INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES \(marks)"
        rowsPerInsert = max(1, min(Self.largestRowsPerInsert, 999 / names.count))
        insertRowsSQL = "INSERT OR FAIL INTO \(table.name) (\(names.joined(separator: ", "))) VALUES "
            + Array(repeating: marks, count: rowsPerInsert).joined(separator: ", ")
        // Order columns belong to the to-many side, derived ones to the store: updates keep out.
        let untouched = Set(table.orderColumns.values).union(table.derivedColumns)
        let updated = table.columns.enumerated().filter { !untouched.contains($0.element.name) }
        wholeRowUpdate = RowUpdate(table: table.name, columns: updated.map { ($0.element.name, $0.offset + Self.firstColumn) })
        var updatable: [String: (name: String, position: Int)] = [:]
        let updatedNames = Set(updated.map(\.element.name))
        for attribute in attributes {
            if let column = table.attributeColumns[attribute.name], updatedNames.contains(column) { updatable[attribute.name] = (column, attribute.position) }
        }
        for toOne in toOnes {
            if let column = table.toOneColumns[toOne.name], updatedNames.contains(column) { updatable[toOne.name] = (column, toOne.position) }
        }
        updatableColumns = updatable
    }

    /// The update that writes the columns of the properties `changed` names (names without a
    /// column the update writes are left out), in the table's order.
    func update(changing changed: [String]) -> RowUpdate {
        let columns = changed.compactMap { updatableColumns[$0] }.sorted { $0.position < $1.position }
        let positions = columns.map(\.position)
        if positions.count == wholeRowUpdate.positions.count { return wholeRowUpdate }
        if let known = partialUpdates[positions] { return known }
        let update = RowUpdate(table: table.name, columns: columns)
        partialUpdates[positions] = update
        return update
    }
}
