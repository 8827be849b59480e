import Foundation
import StrataCore

/// The SQLite store: Core Data's schema in an SQLite file (see `docs/formats/sqlite.md`),
/// loading what is asked for when it is asked for.
///
/// Every save is one transaction, checked by optimistic locking on `Z_OPT`; primary keys come
/// from `Z_PRIMARYKEY`; the metadata lives in `Z_METADATA`. Several coordinators and processes
/// may open one file (WAL journal, busy timeout).
///
/// Thread safety: the connection and the metadata are touched only while `lock` is held, which
/// is what makes the class `Sendable`.
public final class SQLiteStore: PersistentStore, @unchecked Sendable {
    public let type: StoreType = .sqlite
    public let url: URL?
    public let configurationName: String?
    public let model: ManagedObjectModel
    let schema: SQLiteSchema
    private let lock = NSLock()
    private var state: State

    /// What the lock guards: the connection and the metadata.
    struct State {
        var connection: SQLiteConnection
        var identifier: String
        var metadata: [String: PropertyListValue]
        /// Whether fetches translate predicates and sorts into SQL.
        var translatesQueries = true
    }

    /// Opens the store at `description.url`, creating the file and its schema when there is none.
    ///
    /// - Throws: ``StoreError/corruptStore(file:offset:reason:)`` for a file that is not an SQLite
    ///   database or not a Core Data store, ``StoreError/incompatibleModel(file:entities:)`` when its
    ///   version hashes differ from the model's, ``StoreError/io(file:operation:reason:)`` otherwise.
    public init(description: StoreDescription) throws {
        guard let url = description.url else {
            throw StoreError.io(file: "", operation: "open", reason: "an SQLite store needs a file URL")
        }
        self.url = url
        self.configurationName = description.configurationName
        self.model = description.model
        self.schema = SQLiteSchema(model: description.model)
        let path = url.path
        do {
            let connection = try SQLiteConnection(path: path)
            try SQLQueryFunctions.register(on: connection)
            var (identifier, metadata) = try Self.openOrCreate(connection, schema: schema, file: path)
            var image = StoreImage(identifier: identifier, metadata: metadata)
            image.stampMetadata(type: .sqlite, model: description.model)
            identifier = image.identifier
            metadata = image.metadata
            self.state = State(connection: connection, identifier: identifier, metadata: metadata)
        } catch let error as SQLiteError {
            throw Self.storeError(error)
        }
    }

    /// A typed store error for an SQLite failure.
    static func storeError(_ error: SQLiteError) -> StoreError {
        if error.message.hasPrefix(SQLQueryFunctions.corruptValuePrefix) {
            return .corruptStore(file: error.file, offset: nil, reason: String(error.message.dropFirst(SQLQueryFunctions.corruptValuePrefix.count)))
        }
        return switch error.primaryCode {
        case 26, 11: .corruptStore(file: error.file, offset: nil, reason: "not a valid SQLite database: \(error.message)")
        default: .io(file: error.file, operation: error.sql ?? "open", reason: "\(error.message) (SQLite error \(error.code))")
        }
    }

    private static func openOrCreate(_ connection: SQLiteConnection, schema: SQLiteSchema, file: String) throws
        -> (String, [String: PropertyListValue]) {
        let tables = Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) ?? "" })
        if tables.contains("Z_METADATA") {
            let rows = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") { ($0.text(0), $0.blob(1)) }
            guard let row = rows.first, let identifier = row.0 else {
                throw StoreError.corruptStore(file: file, offset: nil, reason: "Z_METADATA holds no store UUID")
            }
            var metadata: [String: PropertyListValue] = [:]
            if let plist = row.1, !plist.isEmpty {
                do {
                    metadata = try MetadataPropertyList.decode(plist)
                } catch {
                    throw StoreError.corruptStore(file: file, offset: nil, reason: "Z_METADATA.Z_PLIST is not a property list: \(error)")
                }
            }
            try schema.model.checkCompatibility(withStoreMetadata: metadata, file: file)
            let missing = schema.tables.values.map(\.name).filter { !tables.contains($0) }.sorted()
            guard missing.isEmpty else {
                throw StoreError.corruptStore(file: file, offset: nil, reason: "tables \(missing.joined(separator: ", ")) are missing")
            }
            return (identifier, metadata)
        }
        guard tables.isEmpty else {
            throw StoreError.corruptStore(file: file, offset: nil, reason: "an SQLite database that is not a Core Data store (no Z_METADATA table)")
        }
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
        }
        return (image.identifier, image.metadata)
    }

    /// Reads a store file's metadata without loading its objects.
    public static func readMetadata(at url: URL) throws -> [String: PropertyListValue] {
        do {
            let connection = try SQLiteConnection(path: url.path, create: false, readOnly: true)
            let rows = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") { ($0.text(0), $0.blob(1)) }
            guard let row = rows.first else {
                throw StoreError.corruptStore(file: url.path, offset: nil, reason: "Z_METADATA holds no row")
            }
            var metadata = try row.1.map(MetadataPropertyList.decode) ?? [:]
            if let identifier = row.0 { metadata[StoreMetadataKey.storeUUID] = .string(identifier) }
            return metadata
        } catch let error as SQLiteError {
            throw storeError(error)
        }
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
        try withConnection { state in
            var image = StoreImage(identifier: state.identifier, metadata: metadata)
            image.stampMetadata(type: type, model: model)
            try state.connection.run("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1",
                                     [.blob(try MetadataPropertyList.encode(image.metadata))])
            state.metadata = image.metadata
        }
    }

    public func snapshot(for objectID: ManagedObjectID) throws -> ObjectSnapshot? {
        try withConnection { state in
            guard objectID.storeIdentifier == state.identifier else { return nil }
            return try SQLiteRowReader(connection: state.connection, schema: schema, storeIdentifier: state.identifier)
                .snapshot(for: objectID)
        }
    }

    public func relatedObjectIDs(of objectID: ManagedObjectID, relationship: String) throws -> [ManagedObjectID] {
        try withConnection { state in
            try SQLiteRowReader(connection: state.connection, schema: schema, storeIdentifier: state.identifier)
                .relatedObjectIDs(of: objectID, relationship: relationship)
        }
    }

    public func allocatePrimaryKeys(rootEntity: String, count: Int) throws -> [Int64] {
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

    public func save(_ request: StoreSaveRequest) throws {
        try withConnection { state in
            let writer = SQLiteRowWriter(connection: state.connection, schema: schema, storeIdentifier: state.identifier,
                                         file: url?.path ?? "")
            try state.connection.transaction {
                try writer.apply(request)
                try state.connection.run("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1",
                                         [.blob(try MetadataPropertyList.encode(state.metadata))])
            }
        }
    }

    public func contentsImage() throws -> StoreImage {
        try withConnection { state in
            let reader = SQLiteRowReader(connection: state.connection, schema: schema, storeIdentifier: state.identifier)
            return try reader.image(metadata: state.metadata)
        }
    }

    public func replaceContents(with replacement: StoreImage) throws {
        var image = replacement
        image.stampMetadata(type: type, model: model)
        try withConnection { state in
            let writer = SQLiteRowWriter(connection: state.connection, schema: schema, storeIdentifier: image.identifier,
                                         file: url?.path ?? "")
            try state.connection.transaction {
                try writer.replaceAll(with: image)
                try state.connection.run("UPDATE Z_METADATA SET Z_UUID = ?, Z_PLIST = ? WHERE Z_VERSION = 1",
                                         [.text(image.identifier), .blob(try MetadataPropertyList.encode(image.metadata))])
            }
            state.identifier = image.identifier
            state.metadata = image.metadata
        }
    }

    /// Registers ``StoreType/sqlite``.
    public static func register() {
        StoreType.register(.sqlite, factory: { try SQLiteStore(description: $0) }, metadataReader: { try readMetadata(at: $0) })
    }
}
