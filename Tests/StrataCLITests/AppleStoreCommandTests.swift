import Foundation
import StrataJSON
import StrataTestSupport
import Testing

/// `strata` on the SQLite stores Apple's Core Data wrote (the fixtures of `AppleStoreTests`):
/// given the model bundle, each store is matched with the version that wrote it.
@Suite("strata on Apple's stores")
struct AppleStoreCommandTests {
    private static let fixtures = CLI.repositoryRoot.appendingPathComponent("Tests/AppleStoreTests/Fixtures")
    private static let bookmarkStores = "duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources"
    private static let bookmarksBundle = CLI.repositoryRoot
        .appendingPathComponent("Tests/StrataModelFilesTests/Fixtures/duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld").path

    /// Copies the store `name` of the Bookmarks series, with its sidecars, into `scratch`.
    private func copyBookmarks(_ name: String, into scratch: Scratch) throws -> String {
        for suffix in ["", "-wal", "-shm"] {
            let source = Self.fixtures.appendingPathComponent("\(Self.bookmarkStores)/\(name)\(suffix)")
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            try FileManager.default.copyItem(atPath: source.path, toPath: scratch.path(name + suffix))
        }
        return scratch.path(name)
    }

    @Test("inspect --model BUNDLE names the version that wrote each Bookmarks store", arguments: 1...5)
    func inspectNamesVersion(number: Int) throws {
        let scratch = try Scratch()
        let store = try copyBookmarks("Bookmarks_V\(number).sqlite", into: scratch)
        let version = number == 1 ? "BookmarksModel" : "BookmarksModel \(number)"
        let result = try scratch.run(["inspect", store, "--model", Self.bookmarksBundle])
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.contains("Model:    \(Self.bookmarksBundle) version '\(version)' matches the store"), "\(result)")
        #expect(result.outputLines.contains("  BookmarkEntity  10"), "\(result)")

        let json = try scratch.run(["inspect", store, "--model", Self.bookmarksBundle, "--json"])
        let report = try JSONParser.parse(json.stdoutData)
        guard case .object(let members) = report, case .object(let model)? = members["model"] else {
            Issue.record("no model in \(json)")
            return
        }
        #expect(model["version"] == .string(version))
        #expect(model["matches"] == .bool(true))
    }

    @Test("export with the bundle writes every object; reading leaves the store's files as they were")
    func exportLeavesStore() throws {
        let scratch = try Scratch()
        let store = try copyBookmarks("Bookmarks_V3.sqlite", into: scratch)
        let before = try scratch.listing().map { ($0, try scratch.read(scratch.path($0))) }
        let result = try scratch.run(["export", store, "--model", Self.bookmarksBundle])
        #expect(result.status == 0, "\(result)")
        let document = try JSONParser.parse(result.stdoutData)
        guard case .object(let members) = document, case .array(let objects)? = members["objects"] else {
            Issue.record("no objects in \(result)")
            return
        }
        #expect(objects.count == 10)
        let after = try scratch.listing().map { ($0, try scratch.read(scratch.path($0))) }
        #expect(after.map(\.0) == before.map(\.0))
        for ((name, old), (_, new)) in zip(before, after) where !name.hasSuffix("-shm") {
            #expect(old == new, "\(name) unchanged")
        }
    }
}
