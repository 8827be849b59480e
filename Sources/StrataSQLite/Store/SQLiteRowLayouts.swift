import StrataCore

/// The row layouts of a schema's entities, each made the first time it is asked for: a reader or
/// a writer keeps one for its call, so a layout is worked out once per entity and call, not per row.
final class SQLiteRowLayouts {
    private let schema: SQLiteSchema
    private var byCode: [Int64: SQLiteRowLayout] = [:]

    init(schema: SQLiteSchema) {
        self.schema = schema
    }

    /// The layout of the entity whose code (`Z_ENT`) is `code`; nil for an unknown code.
    func layout(code: Int64) -> SQLiteRowLayout? {
        if let known = byCode[code] { return known }
        guard let name = schema.namesByCode[code], let entity = schema.model.entity(named: name),
              let table = schema.tables[entity.rootEntityName] else { return nil }
        let layout = SQLiteRowLayout(entity: entity, code: code, table: table, model: schema.model)
        byCode[code] = layout
        return layout
    }

    /// The layout of the entity called `entityName`; nil when the schema has no such entity.
    func layout(entityName: String) -> SQLiteRowLayout? {
        schema.codes[entityName].flatMap(layout(code:))
    }
}
