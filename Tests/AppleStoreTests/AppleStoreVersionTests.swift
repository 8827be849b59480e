import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// A store is matched with the bundle version that wrote it by its recorded entity version
/// hashes, and reading it changes none of its files.
@Suite struct AppleStoreVersionTests {
    @Test(arguments: AppleStoreFixture.withModelVersion)
    func bundleVersionFoundByHash(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let bundle = try ModelBundle(at: try #require(fixture.bundleURL))
        let metadata = try SQLiteStore.readMetadata(at: file)
        let found = try #require(bundle.version(matchingStoreMetadata: metadata))
        #expect(found.name == fixture.version)
    }

    @Test("the five Bookmarks stores are five different versions of one bundle")
    func bookmarksSeries() throws {
        let fixtures = AppleStoreFixture.all.filter { $0.store.contains("Bookmarks_V") }
        #expect(fixtures.count == 5)
        var names: [String] = []
        for fixture in fixtures {
            let bundle = try ModelBundle(at: try #require(fixture.bundleURL))
            let metadata = try SQLiteStore.readMetadata(at: try fixture.workingCopy())
            names.append(try #require(bundle.version(matchingStoreMetadata: metadata)).name)
        }
        #expect(names == ["BookmarksModel", "BookmarksModel 2", "BookmarksModel 3", "BookmarksModel 4", "BookmarksModel 5"])
        // The current version (6) wrote none of them.
        let bundle = try ModelBundle(at: try #require(fixtures.first?.bundleURL))
        #expect(bundle.currentVersionName == "BookmarksModel 6")
    }

    /// SQLite needs a write-ahead log and its index to read a database in WAL mode: where they
    /// are absent, a read-only open leaves them created, empty.
    @Test("opened read-only, a store keeps its file and its write-ahead log as they were", arguments: AppleStoreFixture.withModelVersion)
    func readOnlyLeavesFiles(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        func contents() -> [Data] { ["", "-wal"].map { FileManager.default.contents(atPath: file.path + $0) ?? Data() } }
        let before = contents()
        do {
            let store = try StoreType.sqlite.makeStore(StoreDescription(
                type: .sqlite, url: file, model: try fixture.model(), options: [StoreOption.readOnly: .bool(true)]))
            _ = try store.contentsImage()
        }
        #expect(contents() == before)
    }

    @Test("a model version that did not write the store is refused, naming the entities")
    func otherVersionRefused() throws {
        let fixture = try #require(AppleStoreFixture.all.first { $0.store.hasSuffix("Bookmarks_V1.sqlite") })
        let file = try fixture.workingCopy()
        let current = try ModelBundle(at: try #require(fixture.bundleURL)).currentModel
        #expect(throws: StoreError.incompatibleModel(file: file.path, entities: ["BookmarkEntity"])) {
            try StoreType.sqlite.makeStore(StoreDescription(type: .sqlite, url: file, model: current))
        }
    }
}
