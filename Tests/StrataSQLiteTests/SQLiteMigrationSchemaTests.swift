import Foundation
import Strata
import StrataTestSupport
import Testing

/// An inferred migration of an SQLite store leaves the schema, `Z_PRIMARYKEY`, the version
/// hashes of `Z_METADATA` and `Z_MODELCACHE` that a store created by the new model has.
@Suite("SQLite store: in-place migration")
struct SQLiteMigrationSchemaTests {
    /// What a store's file says about its schema, read by the `sqlite3` shell.
    static func schema(of file: URL) throws -> [String] {
        var lines: [String] = []
        let tables = try SQLiteShell.rows(file, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        for table in tables {
            let columns = try SQLiteShell.rows(file, "SELECT name, type, pk FROM pragma_table_info('\(table)') ORDER BY cid")
            lines.append("table \(table): " + columns.joined(separator: ", "))
        }
        lines += try SQLiteShell.rows(file, "SELECT 'index ' || name || ': ' || sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        lines += try SQLiteShell.rows(file, "SELECT 'key ' || Z_ENT || ' ' || Z_NAME || ' ' || Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        lines += try SQLiteShell.rows(file, "SELECT 'model cache ' || hex(Z_CONTENT) FROM Z_MODELCACHE")
        let metadata = try StoreType.sqlite.readMetadata(at: file)
        lines += StoreMetadataKey.versionHashes(in: metadata).sorted { $0.key < $1.key }.map { "hash \($0.key) \($0.value.base64EncodedString())" }
        return lines
    }

    /// A store created by `model`.
    static func freshStore(_ model: ManagedObjectModel) throws -> URL {
        let url = try TemporaryFolder.make().appendingPathComponent("fresh.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.remove(try coordinator.addPersistentStore(type: .sqlite, at: url))
        return url
    }

    static let targets: [(String, @Sendable () throws -> ManagedObjectModel)] = [
        ("V2", MigrationModels.v2), ("V3", MigrationModels.v3), ("many-to-many", MigrationModels.manyToMany),
        ("new parent", MigrationModels.withParent),
    ]

    @Test("the migrated store's schema is a fresh store's", arguments: targets.map(\.0))
    func schemaOfAFreshStore(target: String) throws {
        let model = try #require(Self.targets.first { $0.0 == target }).1()
        let url = try TemporaryFolder.make().appendingPathComponent("old.sqlite")
        try MigrationModels.writeV1Store(type: .sqlite, at: url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        if target == "V3" { coordinator.migrationPlanner = MigrationPlanner(versions: try MigrationModels.chain()) }
        try coordinator.remove(try coordinator.addPersistentStore(type: .sqlite, at: url, options: [StoreOption.shouldMigrateStoreAutomatically: .bool(true)]))
        let migrated = try Self.schema(of: url)
        let fresh = try Self.schema(of: Self.freshStore(model))
        #expect(migrated == fresh)
        #expect(migrated.contains { $0.hasPrefix("model cache ") })
        #expect(try SQLiteShell.rows(url, "PRAGMA integrity_check") == ["ok"])
    }

    @Test("an added attribute is an ALTER TABLE: the rows stay where they are")
    func addedColumnInPlace() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("old.sqlite")
        try MigrationModels.writeV1Store(type: .sqlite, at: url)
        let before = try SQLiteShell.rows(url, "SELECT rootpage FROM sqlite_master WHERE name = 'ZSTUDENT'")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try MigrationModels.v2())
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [StoreOption.shouldMigrateStoreAutomatically: .bool(true)])
        #expect(try SQLiteShell.rows(url, "SELECT rootpage FROM sqlite_master WHERE name = 'ZSTUDENT'") == before)
        #expect(try SQLiteShell.rows(url, "SELECT DISTINCT ZHEIGHT FROM ZSTUDENT") == ["180.0"])
        #expect(try SQLiteShell.rows(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Student'") == ["5"])
    }
}
