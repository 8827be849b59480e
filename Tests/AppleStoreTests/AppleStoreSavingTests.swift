import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// Saving into a store Apple's Core Data wrote keeps it a Core Data store: the same schema, the
/// `Z_PRIMARYKEY` counters, the metadata and the compiled model as Core Data expects them.
@Suite struct AppleStoreSavingTests {
    /// A working copy of the fixture store `name`, what it was before, and a context on it.
    private struct OpenedStore {
        let file: URL
        let model: ManagedObjectModel
        let context: ManagedObjectContext
        let layoutBefore: [String]
        let metadataBefore: [String: PropertyListValue]

        /// Opens the copy with the fixture's model version, or with the compiled model the
        /// store keeps when `compiledModel`.
        init(_ name: String, compiledModel: Bool = false) throws {
            let fixture = try #require(AppleStoreFixture.all.first { $0.store.hasSuffix("/" + name) })
            file = try fixture.workingCopy()
            model = compiledModel ? try #require(try ManagedObjectModel.compiledModel(inStoreAt: file)) : try fixture.model()
            layoutBefore = try AppleStoreSavingTests.layout(of: file)
            metadataBefore = try SQLiteStore.readMetadata(at: file)
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(type: .sqlite, at: file)
            context = ManagedObjectContext(coordinator: coordinator)
        }

        /// Checks the file as Core Data would find it after the saves.
        func expectValidCoreDataStore() throws {
            try AppleStoreSavingTests.expectValidCoreDataStore(file, layoutBefore: layoutBefore, metadataBefore: metadataBefore)
        }
    }

    /// What must not change when objects are saved: every table, index and their SQL, the
    /// compiled model, the store UUID.
    private static func layout(of file: URL) throws -> [String] {
        try SQLiteShell.rows(file, "SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
            + SQLiteShell.rows(file, "SELECT Z_VERSION, Z_UUID FROM Z_METADATA")
            + (try SQLiteShell.rows(file, "SELECT name FROM sqlite_master WHERE name = 'Z_MODELCACHE'").isEmpty
                ? [] : SQLiteShell.rows(file, "SELECT hex(Z_CONTENT) FROM Z_MODELCACHE"))
    }

    /// `SELECT` one value.
    private static func value(_ file: URL, _ sql: String) throws -> String {
        try SQLiteShell.rows(file, sql).first ?? ""
    }

    /// Checks what Core Data checks of a store it opens after our save.
    private static func expectValidCoreDataStore(_ file: URL, layoutBefore: [String], metadataBefore: [String: PropertyListValue]) throws {
        #expect(try value(file, "PRAGMA integrity_check") == "ok")
        #expect(try layout(of: file) == layoutBefore, "schema, UUID and compiled model unchanged")
        // Every root's counter is at least its table's highest key; sub-entities keep theirs.
        for line in try SQLiteShell.rows(file, "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY") {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 4)
            guard fields[2] == "0", let table = try SQLiteShell.rows(file, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Z\(fields[1].uppercased())'").first else { continue }
            let highest = Int(try value(file, "SELECT ifnull(max(Z_PK), 0) FROM \(table)")) ?? -1
            #expect((Int(fields[3]) ?? -1) >= highest, "Z_MAX of \(fields[1])")
        }
        let metadata = try SQLiteStore.readMetadata(at: file)
        for key in [StoreMetadataKey.modelVersionHashes, StoreMetadataKey.storeUUID, "NSStoreType", "NSStoreModelVersionHashesVersion"] {
            #expect(metadata[key] == metadataBefore[key], "\(key) unchanged")
        }
    }

    @Test("Bookmarks V5: insert into an ordered to-many, change, delete from a many-to-many; the store stays Core Data's")
    func bookmarks() throws {
        let opened = try OpenedStore("Bookmarks_V5.sqlite")
        let (file, model, context) = (opened.file, opened.model, opened.context)
        func bookmark(_ uuid: String, in context: ManagedObjectContext) throws -> ManagedObject {
            var request = FetchRequest(entityName: "BookmarkEntity")
            request.predicate = try ObjectPredicate(format: "uuid == %@", uuid)
            return try #require(try context.fetch(request).first, "bookmark \(uuid)")
        }
        let root = try bookmark("bookmarks_root", in: context)
        let childrenBefore = try #require(try root.value(forKey: "children") as? [ManagedObject])
        let added = try context.insertNewObject(forEntityName: "BookmarkEntity")
        try added.setValuesForKeys(["uuid": "added", "title": "Added", "isFolder": false, "url": "https://example.com/"])
        try added.setValue(root, forKey: "parent")
        try bookmark("4", in: context).setValue("Four", forKey: "title")
        let favoritesRoot = try bookmark("favorites_root", in: context)
        let favoritesBefore = try #require(try favoritesRoot.value(forKey: "favorites") as? [ManagedObject])
        let removed = try bookmark("33", in: context)
        #expect(favoritesBefore.contains(removed))
        try context.delete(removed)
        try context.save()

        try opened.expectValidCoreDataStore()
        let key = try #require(added.objectID.primaryKey)
        #expect(key == 11, "keys continue from Z_MAX")
        #expect(try Self.value(file, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'BookmarkEntity'") == "11")
        #expect(try Self.value(file, "SELECT Z_ENT || '|' || Z_OPT || '|' || ZPARENT || '|' || ZTITLE FROM ZBOOKMARKENTITY WHERE Z_PK = 11") == "1|1|8|Added")
        #expect(try Self.value(file, "SELECT Z_OPT || '|' || ZTITLE FROM ZBOOKMARKENTITY WHERE ZUUID = '4'") == "2|Four")
        #expect(try Self.value(file, "SELECT count(*) FROM ZBOOKMARKENTITY WHERE ZUUID = '33'") == "0")
        #expect(try Self.value(file, "SELECT count(*) FROM Z_1FAVORITES WHERE Z_1FAVORITES = \(try #require(removed.objectID.primaryKey))") == "0")

        // A new coordinator reads back what was saved, orders included.
        let reader = PersistentStoreCoordinator(managedObjectModel: model)
        try reader.addPersistentStore(type: .sqlite, at: file)
        let fresh = ManagedObjectContext(coordinator: reader)
        let children = try #require(try bookmark("bookmarks_root", in: fresh).value(forKey: "children") as? [ManagedObject])
        #expect(try children.map { try $0.value(forKey: "uuid") as? String } == (try childrenBefore.map { try $0.value(forKey: "uuid") as? String }) + ["added"])
        let favorites = try #require(try bookmark("favorites_root", in: fresh).value(forKey: "favorites") as? [ManagedObject])
        #expect(try favorites.map { try $0.value(forKey: "uuid") as? String }
                == (try favoritesBefore.filter { $0 != removed }.map { try $0.value(forKey: "uuid") as? String }))
    }

    @Test("CoreDataPlus V1: a sub-entity's row goes into the root's table with its own Z_ENT; the root's counter rises")
    func inheritance() throws {
        let opened = try OpenedStore("SampleModel_V1.sqlite")
        let (file, context) = (opened.file, opened.context)
        let car = try context.insertNewObject(forEntityName: "ExpensiveSportCar")
        try car.setValuesForKeys(["numberPlate": "STRATA-1", "maker": "Strata", "isLimitedEdition": true])
        try context.save()
        try opened.expectValidCoreDataStore()
        #expect(try Self.value(file, "SELECT Z_ENT || '|' || ZISLIMITEDEDITION FROM ZCAR WHERE ZNUMBERPLATE = 'STRATA-1'") == "3|1")
        #expect(try Self.value(file, "SELECT group_concat(Z_NAME || '=' || Z_MAX) FROM Z_PRIMARYKEY WHERE Z_ENT <= 3") == "Car=126,SportCar=0,ExpensiveSportCar=0")

        // The store's unique index still holds: a second car with the plate is a constraint conflict.
        let twin = try context.insertNewObject(forEntityName: "Car")
        try twin.setValue("STRATA-1", forKey: "numberPlate")
        #expect(throws: StoreError.self) { try context.save() }
        #expect(try Self.value(file, "SELECT count(*) FROM ZCAR WHERE ZNUMBERPLATE = 'STRATA-1'") == "1")
    }

    @Test("CoreDataStack TestModel: a many-to-many goes into Core Data's join table")
    func manyToMany() throws {
        let opened = try OpenedStore("TestModel.sqlite")
        let (file, context) = (opened.file, opened.context)
        let author = try context.insertNewObject(forEntityName: "Author")
        try author.setValue("Ada", forKey: "firstName")
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.setValue("Notes", forKey: "title")
        try book.setValue(Set([author]), forKey: "authors")
        try context.save()
        try opened.expectValidCoreDataStore()
        #expect(try SQLiteShell.rows(file, "SELECT * FROM Z_1BOOKS") == ["1|1"])
        #expect(try Self.value(file, "SELECT group_concat(Z_NAME || '=' || Z_MAX) FROM Z_PRIMARYKEY") == "Author=1,Book=1")
    }

    /// The bytes of a transformable attribute as they are: what the app's transformer made of
    /// them does not matter to the store.
    private struct StoredBytes: AttributeValueTransformer {
        func transformedValue(_ value: Any) throws -> Data { value as? Data ?? Data() }
        func reverseTransformedValue(_ data: Data) throws -> Any { data }
    }

    @Test("CoreDataPlus SampleModel2: a page of a graphic novel keeps the novel's entity code; persistent history is left alone")
    func destinationEntityAndHistory() throws {
        // The app's transformers, by the names its model gives them.
        for name in ["ContentTransformer", "CoverTransformer"] { ValueTransformerRegistry.register(StoredBytes(), forName: name) }
        let opened = try OpenedStore("SampleModel2_V2.sqlite", compiledModel: true)
        let (file, context) = (opened.file, opened.context)
        let history = try SQLiteShell.rows(file, "SELECT * FROM ATRANSACTION") + SQLiteShell.rows(file, "SELECT * FROM ACHANGE")
        var request = FetchRequest(entityName: "GraphicNovel")
        request.includesSubentities = false
        let novel = try #require(try context.fetch(request).first)
        let novelKey = try #require(novel.objectID.primaryKey)
        let pagesBefore = try #require(Int(try Self.value(file, "SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = \(novelKey)")))
        let page = try context.insertNewObject(forEntityName: "Page")
        try page.setValuesForKeys(["number": Int32(999), "isBookmarked": false, "content": Data([1, 2, 3])])
        try page.setValue(novel, forKey: "book")
        try context.save()
        try opened.expectValidCoreDataStore()
        let key = try #require(page.objectID.primaryKey)
        #expect(try Self.value(file, "SELECT ZBOOK || '|' || Z1_BOOK FROM ZPAGE WHERE Z_PK = \(key)") == "\(novelKey)|2")
        #expect(try SQLiteShell.rows(file, "SELECT * FROM ATRANSACTION") + SQLiteShell.rows(file, "SELECT * FROM ACHANGE") == history)
        // Core Data's trigger keeps the derived pagesCount = pages.@count.
        #expect(try Self.value(file, "SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = \(novelKey)") == "\(pagesBefore + 1)")
        #expect(try Self.value(file, "SELECT count(*) FROM ZPAGE WHERE ZBOOK = \(novelKey)") == "\(pagesBefore + 1)")
    }
}
