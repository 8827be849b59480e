import Foundation
import StrataJSON
import StrataTestSupport
import Testing

/// `strata` on the SQLite stores Apple's Core Data wrote (the fixtures of `AppleStoreTests`):
/// given the model bundle, each store is matched with the version that wrote it.
@Suite("strata on Apple's stores")
struct AppleStoreCommandTests {
    private static let bookmarkStores = "duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources"
    private static let bookmarksBundle = CLI.repositoryRoot
        .appendingPathComponent("Tests/StrataModelFilesTests/Fixtures/duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld").path

    @Test("inspect --model BUNDLE names the version that wrote each Bookmarks store", arguments: 1...5)
    func inspectNamesVersion(number: Int) throws {
        let scratch = try Scratch()
        let store = try scratch.copyAppleStore("\(Self.bookmarkStores)/Bookmarks_V\(number).sqlite")
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
        let store = try scratch.copyAppleStore("\(Self.bookmarkStores)/Bookmarks_V3.sqlite")
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

    /// Every fixture store, with the model bundle that wrote it where the fixtures have it.
    static let everyStore: [(store: String, bundle: String?)] = [
        ("\(bookmarkStores)/Bookmarks_V1.sqlite", bookmarksBundle), ("\(bookmarkStores)/Bookmarks_V2.sqlite", bookmarksBundle),
        ("\(bookmarkStores)/Bookmarks_V3.sqlite", bookmarksBundle), ("\(bookmarkStores)/Bookmarks_V4.sqlite", bookmarksBundle),
        ("\(bookmarkStores)/Bookmarks_V5.sqlite", bookmarksBundle),
        ("alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V1.sqlite",
         models + "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"),
        ("alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite",
         models + "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"),
        ("alemar11__CoreDataPlus/Tests/Resources/SampleModel2/Fixtures/SampleModel2_V2.sqlite", nil),
        ("alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3_V1.sqlite",
         models + "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld"),
        ("bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite",
         models + "bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld"),
        ("magicalpanda__MagicalRecord/Samples/iOS/Resources/RecipeData/Recipes.sqlite", nil),
        ("RestKit__RestKit/Examples/RKTwitterCoreData/RKSeedDatabase.sqlite", nil),
    ]
    private static let models = CLI.repositoryRoot.appendingPathComponent("Tests/StrataModelFilesTests/Fixtures").path + "/"

    @Test("every fixture store exports whole: objects per table and join rows equal SELECT COUNT(*)",
          arguments: everyStore.map(\.store))
    func everyStoreExports(path: String) throws {
        let bundle = try #require(Self.everyStore.first { $0.store == path }).bundle
        let scratch = try Scratch()
        let store = try scratch.copyAppleStore(path)
        let file = URL(fileURLWithPath: store)
        let result = try scratch.run(["export", store] + (bundle.map { ["--model", $0] } ?? ["--allow-loss"]))
        #expect(result.status == 0, "\(result)")
        guard case .object(let document) = try JSONParser.parse(result.stdoutData),
              case .array(let objects)? = document["objects"] else {
            Issue.record("no objects in \(result)")
            return
        }
        // Each entity's objects belong to the table of its inheritance root, as Z_PRIMARYKEY says.
        var parents: [String: (code: String, parent: String)] = [:]
        for line in try SQLiteShell.rows(file, "SELECT Z_NAME, Z_ENT, Z_SUPER FROM Z_PRIMARYKEY") {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            if fields.count == 3 { parents[fields[0]] = (fields[1], fields[2]) }
        }
        // CoreDataPlus's V2 renamed ExpensiveSportCar; Core Data keeps the first name in Z_PRIMARYKEY.
        let firstNames = ["LuxuryCar": "ExpensiveSportCar"]
        func table(of entity: String) -> String {
            var current = parents[entity] == nil ? firstNames[entity] ?? entity : entity
            while let row = parents[current], row.parent != "0", let parent = parents.first(where: { $0.value.code == row.parent })?.key {
                current = parent
            }
            return "Z" + current.uppercased()
        }
        var exported: [String: Int] = [:]
        for case .object(let object) in objects {
            guard case .string(let entity)? = object["entity"] else { continue }
            exported[table(of: entity), default: 0] += 1
        }
        let tables = try SQLiteShell.rows(file, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' AND name NOT LIKE 'Z\\_%' ESCAPE '\\'")
        #expect(!tables.isEmpty)
        for table in tables {
            let counted = Int(try SQLiteShell.rows(file, "SELECT COUNT(*) FROM \(table)").first ?? "") ?? -1
            #expect(exported[table, default: 0] == counted, "\(table)")
        }
        #expect(Set(exported.keys).isSubset(of: Set(tables)))

        // A join table Z_<code><RELATIONSHIP> holds one row per destination of that relationship.
        let joinTables = try SQLiteShell.rows(file, "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*'")
        for join in joinTables {
            let rest = join.dropFirst(2)
            let code = String(rest.prefix { $0.isNumber })
            let relationship = String(rest.dropFirst(code.count))
            let owner = try #require(parents.first { $0.value.code == code }?.key, "\(join)")
            var pairs = 0
            for case .object(let object) in objects {
                guard case .string(let entity)? = object["entity"], table(of: entity) == table(of: owner),
                      case .object(let relationships)? = object["relationships"],
                      let match = relationships.first(where: { $0.key.uppercased() == relationship }),
                      case .array(let destinations) = match.value else { continue }
                pairs += destinations.count
            }
            let counted = Int(try SQLiteShell.rows(file, "SELECT COUNT(*) FROM \(join)").first ?? "") ?? -1
            #expect(pairs == counted, "\(join)")
        }
    }
}
