import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// A store whose model is lost is read with the model its tables describe.
@Suite struct AppleStoreInferredModelTests {
    /// Opens `file` with its inferred model, read-only.
    private static func open(_ file: URL) throws -> (any PersistentStore, SQLiteModelInference) {
        let inference = try SQLiteModelInference(storeAt: file)
        let store = try StoreType.sqlite.makeStore(StoreDescription(
            type: .sqlite, url: file, model: inference.model,
            options: [StoreOption.readOnly: .bool(true), StoreOption.ignoresVersionHashes: .bool(true)]))
        return (store, inference)
    }

    @Test("every object of every fixture store is read with the inferred model", arguments: AppleStoreFixture.all)
    func everyObject(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let (store, inference) = try Self.open(file)
        let expected = try AppleStoreReadingTests.rowCounts(in: file, model: inference.model)
        #expect(!expected.isEmpty)
        let image = try store.contentsImage()
        var read: [String: Int] = [:]
        for objectID in image.objects.keys { read[objectID.entityName, default: 0] += 1 }
        for entity in inference.model.entities {
            #expect(read[entity.name, default: 0] == expected[entity.name, default: 0], "\(entity.name)")
        }
    }

    @Test("RestKit's seed database: tweets and users with the to-one between them")
    func restKitSeed() throws {
        let fixture = try #require(AppleStoreFixture.all.first { $0.store.hasSuffix("RKSeedDatabase.sqlite") })
        let file = try fixture.workingCopy()
        let (store, inference) = try Self.open(file)
        let tweet = try #require(inference.model.entity(named: "Tweet"))
        #expect(tweet.attributesByName["text"]?.type == .string)
        #expect(tweet.attributesByName["createdat"]?.type == .date)
        #expect(tweet.attributesByName["statusid"]?.type == .integer64)
        #expect(tweet.relationship(named: "user")?.destinationEntityName == "User")
        let image = try store.contentsImage()
        let tweets = image.objects.values.filter { $0.objectID.entityName == "Tweet" }
        let users = Set(image.objects.keys.filter { $0.entityName == "User" })
        #expect(tweets.count == Int(try SQLiteShell.rows(file, "SELECT count(*) FROM ZTWEET").first ?? ""))
        #expect(users.count == Int(try SQLiteShell.rows(file, "SELECT count(*) FROM ZUSER").first ?? ""))
        let linked = tweets.compactMap { $0.toOne["user"] }
        #expect(linked.count == Int(try SQLiteShell.rows(file, "SELECT count(ZUSER) FROM ZTWEET").first ?? ""))
        #expect(linked.allSatisfy(users.contains))
    }

    @Test("a file that is not a Core Data store is a typed error")
    func notAStore() throws {
        let folder = try TemporaryFolder.make()
        let plain = folder.appendingPathComponent("plain.sqlite")
        _ = try SQLiteShell.rows(plain, "CREATE TABLE t (a INTEGER)")
        #expect(throws: StoreError.self) { try SQLiteModelInference(storeAt: plain) }
        let garbage = folder.appendingPathComponent("garbage.sqlite")
        try Data(repeating: 0x5A, count: 4096).write(to: garbage)
        #expect(throws: StoreError.self) { try SQLiteModelInference(storeAt: garbage) }
    }

    @Test("hostile Z_PRIMARYKEY rows: a loop of parents, names that are not names, a table that is missing")
    func hostilePrimaryKeyTable() throws {
        let file = try TemporaryFolder.make().appendingPathComponent("hostile.sqlite")
        _ = try SQLiteShell.rows(file, """
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, "Z'; DROP TABLE ZTHING; --" INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Thing', 0, 1), (2, 'Loop', 3, 0), (3, 'Back', 2, 0),
                (4, 'x"); DROP TABLE ZTHING; --', 0, 0), (5, 'Ghost', 0, 0);
            INSERT INTO ZTHING VALUES (1, 1, 1, 'kept', 7);
            """)
        let inference = try SQLiteModelInference(storeAt: file)
        #expect(inference.model.entities.map(\.name) == ["Thing"])
        #expect(inference.model.entity(named: "Thing")?.attributesByName.keys.sorted() == ["name"])
        #expect(inference.skippedColumns == ["ZTHING.Z'; DROP TABLE ZTHING; -- (INTEGER)"])
        #expect(try SQLiteShell.rows(file, "SELECT ZNAME FROM ZTHING") == ["kept"])
    }
}
