@_spi(StoreImplementation) import StrataCore

/// The row layouts of a schema's entities, each made the first time it is asked for and kept by
/// the store with its connection: a layout is worked out once per entity, not per row or call.
final class SQLiteRowLayouts {
    private let schema: SQLiteSchema
    private var byCode: [Int64: SQLiteRowLayout] = [:]
    private var selectLists: [String: String] = [:]

    init(schema: SQLiteSchema) {
        self.schema = schema
    }

    /// The layout last asked for by code: rows of one entity come in runs.
    private var lastByCode: SQLiteRowLayout?

    /// The layout of the entity whose code (`Z_ENT`) is `code`; nil for an unknown code.
    func layout(code: Int64) -> SQLiteRowLayout? {
        if let last = lastByCode, last.code == code { return last }
        if let known = byCode[code] {
            lastByCode = known
            return known
        }
        guard let name = schema.namesByCode[code], let entity = schema.model.entity(named: name),
              let table = schema.tables[entity.rootEntityName] else { return nil }
        let layout = SQLiteRowLayout(entity: entity, code: code, table: table, model: schema.model)
        byCode[code] = layout
        return layout
    }

    /// `Z_PK, Z_ENT, Z_OPT, <every column>` of `table`: the select list rows are read by.
    func selectList(_ table: SQLiteSchema.Table) -> String {
        if let known = selectLists[table.name] { return known }
        let list = (["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name)).joined(separator: ", ")
        selectLists[table.name] = list
        return list
    }

    /// The layout last asked for by name: a save asks for one entity's rows in a run.
    private var lastByName: (entityName: String, layout: SQLiteRowLayout)?

    /// The layout of the entity called `entityName`; nil when the schema has no such entity.
    func layout(entityName: String) -> SQLiteRowLayout? {
        if let last = lastByName, last.entityName == entityName { return last.layout }
        guard let layout = schema.codes[entityName].flatMap(layout(code:)) else { return nil }
        lastByName = (entityName, layout)
        return layout
    }
}
