import Foundation
@_spi(StoreImplementation) import StrataCore

/// The SQLite store: Core Data's schema in an SQLite file (see `docs/formats/sqlite.md`),
/// loading what is asked for when it is asked for.
///
/// Every save is one transaction, checked by optimistic locking on `Z_OPT`; primary keys come
/// from `Z_PRIMARYKEY`; the metadata lives in `Z_METADATA`. Several coordinators and processes
/// may open one file (WAL journal, busy timeout).
///
/// Thread safety: the connection and the metadata are touched only while `lock` is held, which
/// is what makes the class `Sendable`.
///
/// Besides the core requirements it has every optional store capability: it streams fetches
/// and reuses cached rows, lists IDs, counts, groups and reads values in SQL, reads many
/// snapshots in one query per table and runs batch requests in SQL.
public final class SQLiteStore: PersistentStore, @unchecked Sendable {
    public let type: StoreType = .sqlite
    public let url: URL?
    public let configurationName: String?
    public let model: ManagedObjectModel
    /// Whether the store was opened with `StoreOption/readOnly`.
    public let isReadOnly: Bool
    /// ``StoreOption/sqliteNewObjectsPerPart``.
    let newObjectsPerPart: Int
    let schema: SQLiteSchema
    /// The persistent-history tables, when the store was opened with
    /// ``StoreOption/persistentHistoryTracking`` (see `SQLiteStore+History.swift`).
    let historyTables: SQLiteHistoryTables?
    private let lock = NSLock()
    private var state: State

    /// What the lock guards: the connection, the row layouts and the metadata.
    struct State {
        var connection: SQLiteConnection
        var identifier: String
        var metadata: [String: PropertyListValue]
        /// Whether fetches translate predicates and sorts into SQL.
        var translatesQueries = true
        /// The row layout of each entity, made the first time a read or a write needs it and
        /// kept while the store is open (with the connection's prepared insert).
        let layouts: SQLiteRowLayouts
        /// Whether each table may hold a row of an entity code none of its entities has, kept
        /// until another connection writes to the file.
        let strayRows: SQLiteStrayRowCheck
        /// Which tables' fetches read cached-first.
        let cachedRowShare = SQLiteCachedRowShare()
        /// The compiled model the next write puts into `Z_MODELCACHE`, when the file keeps none
        /// or one of another model (see `SQLiteStore+ModelCache.swift`).
        var pendingModelCache: Data?
        /// `PRAGMA data_version` at the last check for saves made elsewhere
        /// (`SQLiteStore+RemoteChanges.swift`).
        var checkedDataVersion: Int64?

        init(connection: SQLiteConnection, identifier: String, metadata: [String: PropertyListValue], schema: SQLiteSchema) {
            self.connection = connection
            self.identifier = identifier
            self.metadata = metadata
            self.layouts = SQLiteRowLayouts(schema: schema)
            self.strayRows = SQLiteStrayRowCheck(schema: schema)
        }
    }

    /// Opens the store at `description.url`, creating the file and its schema when there is none.
    ///
    /// A store written by Apple's Core Data opens as it is: entity codes come from its
    /// `Z_PRIMARYKEY` (an entity renamed by a migration keeps its first name there), other tables
    /// (`Z_MODELCACHE`, persistent history) are left alone, and every table and column the model
    /// needs is checked to be there. With ``StoreOption/readOnly`` nothing is written to the file.
    ///
    /// - Throws: ``StoreError/corruptStore(file:offset:reason:)`` for a file that is not an SQLite
    ///   database or not a Core Data store, or that lacks a table or column the model needs,
    ///   ``StoreError/incompatibleModel(file:entities:)`` when its version hashes differ from the
    ///   model's, ``StoreError/io(file:operation:reason:)`` otherwise.
    @_spi(StoreImplementation) public init(description: StoreDescription) throws {
        guard let url = description.url else {
            throw StoreError.io(file: "", operation: "open", reason: "an SQLite store needs a file URL")
        }
        self.url = url
        self.configurationName = description.configurationName
        self.model = description.model
        self.isReadOnly = description.isReadOnly
        self.newObjectsPerPart = try Self.newObjectsPerPart(description)
        let path = url.path
        do {
            let connection = try SQLiteConnection(path: path, mode: Self.accessMode(for: description, path: path))
            try SQLQueryFunctions.register(on: connection)
            try CoreDataTriggerFunctions.register(on: connection)
            try SQLiteDerivationFunctions.register(on: connection)
            let opened = try Self.openOrCreate(connection, description: description, file: path)
            var image = StoreImage(identifier: opened.identifier, metadata: opened.metadata)
            image.stampMetadata(type: .sqlite, model: description.model)
            self.schema = opened.schema
            self.historyTables = description.tracksPersistentHistory
                ? try SQLiteHistoryTables.prepare(connection, recorder: PersistentHistoryRecorder(
                    model: description.model, recordsValues: description.recordsPersistentHistoryValues), writable: !description.isReadOnly)
                : nil
            self.state = State(connection: connection, identifier: image.identifier, metadata: image.metadata, schema: opened.schema)
            if !description.isReadOnly {
                state.pendingModelCache = try Self.modelCacheToWrite(connection, model: description.model)
            }
        } catch let error as SQLiteError {
            throw Self.storeError(error)
        }
    }

    /// How to open the file: read-write, or for ``StoreOption/readOnly`` in the way that leaves
    /// it as it was: with SQLite's read-only open while a write-ahead log holds transactions
    /// (a read-write connection closing last would copy them into the database file), else
    /// query-only, so that the `-wal` and `-shm` files SQLite needs for reading go away again.
    private static func accessMode(for description: StoreDescription, path: String) -> SQLiteConnection.AccessMode {
        description.isReadOnly ? readingMode(path: path) : .readWrite(create: true)
    }

    /// The mode that reads the file at `path` and leaves it as it was (see ``accessMode(for:path:)``).
    static func readingMode(path: String) -> SQLiteConnection.AccessMode {
        let logSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return logSize > 0 ? .readOnly : .queryOnly
    }

    /// A typed store error for an SQLite failure.
    static func storeError(_ error: SQLiteError) -> StoreError {
        if error.message.hasPrefix(SQLQueryFunctions.corruptValuePrefix) {
            return .corruptStore(file: error.file, offset: nil, reason: String(error.message.dropFirst(SQLQueryFunctions.corruptValuePrefix.count)))
        }
        return switch error.primaryCode {
        case 26, 11: .corruptStore(file: error.file, offset: nil, reason: "not a valid SQLite database: \(error.message)")
        case 8: .readOnlyStore(file: error.file)
        default: .io(file: error.file, operation: error.sql ?? "open", reason: "\(error.message) (SQLite error \(error.code))")
        }
    }

    /// What opening found: the store's UUID, metadata and schema.
    private struct OpenedStore {
        var identifier: String
        var metadata: [String: PropertyListValue]
        var schema: SQLiteSchema
    }

    /// The store UUID and the metadata in `Z_METADATA`'s first row, for a store that must have
    /// them (one being opened or migrated).
    static func storedMetadata(_ connection: SQLiteConnection, file: String) throws
        -> (identifier: String, metadata: [String: PropertyListValue]) {
        let rows = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") { ($0.text(0), $0.blob(1)) }
        guard let row = rows.first, let identifier = row.0 else {
            throw StoreError.corruptStore(file: file, offset: nil, reason: "Z_METADATA holds no store UUID")
        }
        guard let plist = row.1, !plist.isEmpty else { return (identifier, [:]) }
        do {
            return (identifier, try MetadataPropertyList.decode(plist))
        } catch {
            throw StoreError.corruptStore(file: file, offset: nil, reason: error.description)
        }
    }

    private static func openOrCreate(_ connection: SQLiteConnection, description: StoreDescription, file: String) throws -> OpenedStore {
        if let name = SQLiteSchema.unusableName(in: description.model) {
            throw StoreError.unusableName(file: file, name: name)
        }
        let tables = Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) ?? "" })
        if tables.contains("Z_METADATA") {
            let (identifier, metadata) = try storedMetadata(connection, file: file)
            try description.checkCompatibility(withStoreMetadata: metadata, file: file)
            guard tables.contains("Z_PRIMARYKEY") else {
                throw StoreError.corruptStore(file: file, offset: nil, reason: "the Z_PRIMARYKEY table is missing")
            }
            let stored = try connection.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") { ($0.int64(0), $0.text(1) ?? "") }
            let schema = SQLiteSchema(model: description.model, storedCodes: Dictionary(stored.map { ($1, $0) }) { first, _ in first })
            let absent = try SQLiteSchemaCheck(schema: schema, connection: connection, file: file).requireEveryTableAndColumn(existingTables: tables)
            return OpenedStore(identifier: identifier, metadata: metadata, schema: schema.withoutEntityColumns(absent))
        }
        guard tables.isEmpty else {
            throw StoreError.corruptStore(file: file, offset: nil, reason: "an SQLite database that is not a Core Data store (no Z_METADATA table)")
        }
        guard !description.isReadOnly else {
            throw StoreError.corruptStore(file: file, offset: nil, reason: "an empty database, not a Core Data store (opened read-only, so not created)")
        }
        let schema = SQLiteSchema(model: description.model)
        let image = StoreImage.empty(type: .sqlite, model: schema.model)
        try connection.transaction {
            for statement in schema.createStatements { try connection.execute(statement) }
            for (name, code) in schema.codes.sorted(by: { $0.value < $1.value }) {
                let parent = schema.model.entity(named: name)?.superentityName.flatMap { schema.codes[$0] } ?? 0
                try connection.run("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                   [.integer(code), .text(name), .integer(parent)])
            }
            try connection.run("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                               [.text(image.identifier), .blob(try MetadataPropertyList.encode(image.metadata))])
            if let compiled = try CompiledModelCoder.encoded(schema.model) {
                try writeModelCache(compiled, on: connection)
            }
        }
        return OpenedStore(identifier: image.identifier, metadata: image.metadata, schema: schema)
    }

    /// Reads a store file's metadata without loading its objects.
    public static func readMetadata(at url: URL) throws -> [String: PropertyListValue] {
        do {
            let connection = try SQLiteConnection(path: url.path, mode: readingMode(path: url.path))
            let rows = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") { ($0.text(0), $0.blob(1)) }
            guard let row = rows.first else {
                throw StoreError.corruptStore(file: url.path, offset: nil, reason: "Z_METADATA holds no row")
            }
            var metadata: [String: PropertyListValue] = [:]
            do {
                metadata = try row.1.map(MetadataPropertyList.decode) ?? [:]
            } catch {
                throw StoreError.corruptStore(file: url.path, offset: nil, reason: error.description)
            }
            if let identifier = row.0 { metadata[StoreMetadataKey.storeUUID] = .string(identifier) }
            return metadata
        } catch let error as SQLiteError {
            throw storeError(error)
        }
    }

    /// Throws ``StoreError/readOnlyStore(file:)`` when the store was opened read-only.
    func refuseWritingIfReadOnly() throws {
        guard !isReadOnly else { throw StoreError.readOnlyStore(file: url?.path ?? "") }
    }

    /// Runs `body` with the connection under the lock, SQLite errors turned into store errors.
    func withConnection<T>(_ body: (inout State) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try body(&state)
        } catch let error as SQLiteError {
            throw Self.storeError(error)
        } catch let problem as SQLiteDecodingProblem {
            throw StoreError.corruptStore(file: url?.path ?? "", offset: nil, reason: problem.description)
        }
    }

    public var identifier: String { lock.withLock { state.identifier } }

    public var metadata: [String: PropertyListValue] { lock.withLock { state.metadata } }

    public func setMetadata(_ metadata: [String: PropertyListValue]) throws {
        try refuseWritingIfReadOnly()
        try withConnection { state in
            var image = StoreImage(identifier: state.identifier, metadata: metadata)
            image.stampMetadata(type: type, model: model)
            try state.connection.transaction {
                try state.connection.run("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1",
                                         [.blob(try MetadataPropertyList.encode(image.metadata))])
                try Self.writePendingModelCache(state)
            }
            state.pendingModelCache = nil
            state.metadata = image.metadata
        }
    }

    @_spi(StoreImplementation) public func snapshot(for objectID: ManagedObjectID) throws -> ObjectSnapshot? {
        try withConnection { state in
            guard objectID.storeIdentifier == state.identifier else { return nil }
            return try reader(for: state).snapshot(for: objectID)
        }
    }

    @_spi(StoreImplementation) public func relatedObjectIDs(of objectID: ManagedObjectID, relationship: String) throws -> [ManagedObjectID] {
        try withConnection { state in
            try reader(for: state).relatedObjectIDs(of: objectID, relationship: relationship)
        }
    }

    @_spi(StoreImplementation) public func allocatePrimaryKeys(rootEntity: String, count: Int) throws -> [Int64] {
        try refuseWritingIfReadOnly()
        guard let code = schema.codes[rootEntity] else { throw StoreError.noStoreForEntity(rootEntity) }
        return try withConnection { state in
            try state.connection.transaction {
                let current = try state.connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(code)])
                guard case .integer(let last)? = current else {
                    throw StoreError.corruptStore(file: url?.path ?? "", offset: nil, reason: "Z_PRIMARYKEY has no row for entity '\(rootEntity)'")
                }
                let (end, overflow) = last.addingReportingOverflow(Int64(count))
                guard !overflow else {
                    throw StoreError.corruptStore(file: url?.path ?? "", offset: nil, reason: "no primary keys left for entity '\(rootEntity)'")
                }
                try state.connection.run("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [.integer(end), .integer(code)])
                return (0..<Int64(count)).map { last + 1 + $0 }
            }
        }
    }

    @_spi(StoreImplementation) public func save(_ request: StoreSaveRequest) throws {
        var whole: StoreSaveRequest? = request
        try save(inParts: {
            defer { whole = nil }
            return whole
        })
    }

    /// Applies each part `nextPart` gives in one transaction (one part: ``save(_:)``); see
    /// ``PartedSaveStore``.
    @_spi(StoreImplementation) public func save(inParts nextPart: () throws -> StoreSaveRequest?) throws {
        try refuseWritingIfReadOnly()
        try withConnection { state in
            let writer = SQLiteRowWriter(connection: state.connection, schema: schema, storeIdentifier: state.identifier, layouts: state.layouts,
                                         file: url?.path ?? "")
            try state.connection.transaction {
                while let part = try nextPart() {
                    try recordHistory(part, state)
                    try writer.apply(part)
                    try SQLiteEntityColumnWriter(connection: state.connection, schema: schema).update(after: part)
                    try SQLiteDerivedColumnWriter(connection: state.connection, schema: schema).update(after: part)
                }
                try state.connection.run("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1",
                                         [.blob(try MetadataPropertyList.encode(state.metadata))])
                try Self.writePendingModelCache(state)
            }
            state.pendingModelCache = nil
        }
    }


    @_spi(StoreImplementation) public func contentsImage() throws -> StoreImage {
        try withConnection { state in
            try reader(for: state).image(metadata: state.metadata)
        }
    }

    @_spi(StoreImplementation) public func replaceContents(with replacement: StoreImage) throws {
        try refuseWritingIfReadOnly()
        var image = replacement
        image.stampMetadata(type: type, model: model)
        try withConnection { state in
            let writer = SQLiteRowWriter(connection: state.connection, schema: schema, storeIdentifier: image.identifier, layouts: state.layouts,
                                         file: url?.path ?? "")
            try state.connection.transaction {
                try writer.replaceAll(with: image)
                try SQLiteEntityColumnWriter(connection: state.connection, schema: schema).updateAll()
                try SQLiteDerivedColumnWriter(connection: state.connection, schema: schema).update(touchedEntities: nil, saved: [:])
                try state.connection.run("UPDATE Z_METADATA SET Z_UUID = ?, Z_PLIST = ? WHERE Z_VERSION = 1",
                                         [.text(image.identifier), .blob(try MetadataPropertyList.encode(image.metadata))])
                try Self.writePendingModelCache(state)
            }
            state.pendingModelCache = nil
            state.identifier = image.identifier
            state.metadata = image.metadata
        }
    }
}

// StrataCore finds this conformance by the type's module and name (`LinkedModules`), so that
// the store type needs no registration call: a new name must be written there too.
@_spi(StoreImplementation)
extension SQLiteStore: BuiltInStoreFamily {
    /// ``StoreType/sqlite``.
    public static var storeType: StoreType { .sqlite }

    /// Opens or creates an SQLite store (``init(description:)``).
    public static func makeStore(_ description: StoreDescription) throws -> any PersistentStore {
        try SQLiteStore(description: description)
    }
}

/// Every optional store capability (see the class's summary).
@_spi(StoreImplementation)
extension SQLiteStore: StreamingFetchStore, RowCacheFetchStore, ObjectIDFetchStore, ObjectCountStore, GroupingStore,
    RowValuesStore, SnapshotBatchStore, BatchExecutingStore, PartedSaveStore {}
