import Foundation
import Strata
import StrataTestSupport
import Testing

/// The SQLite stores written by Apple's Core Data, copied from public projects into this target's
/// resources (`Fixtures/SOURCES.tsv` names the repository, commit and licence of each file), and
/// the model bundles that wrote them (the copies in `StrataModelFilesTests/Fixtures`).
///
/// A test never opens a fixture in place: SQLite checkpoints a store's `-wal` into its main
/// file when the last connection closes, so every test works on a ``workingCopy(of:)``.
struct AppleStoreFixture: Sendable, CustomTestStringConvertible {
    /// The store's path below `Fixtures/`.
    let store: String
    /// The model bundle's path below `StrataModelFilesTests/Fixtures/`, when the fixtures have one.
    let bundle: String?
    /// The bundle's version that wrote the store, when one does.
    let version: String?
    /// Whether the store keeps its compiled model in `Z_MODELCACHE`.
    let hasModelCache: Bool

    var testDescription: String { (store as NSString).lastPathComponent }

    private static let bookmarks = "duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld"
    private static let bookmarkStores = "duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/"
    private static let sampleModel = "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"
    private static let sampleModel3 = "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld"

    /// Every fixture store.
    static let all: [AppleStoreFixture] = [
        .init(store: bookmarkStores + "Bookmarks_V1.sqlite", bundle: bookmarks, version: "BookmarksModel", hasModelCache: true),
        .init(store: bookmarkStores + "Bookmarks_V2.sqlite", bundle: bookmarks, version: "BookmarksModel 2", hasModelCache: true),
        .init(store: bookmarkStores + "Bookmarks_V3.sqlite", bundle: bookmarks, version: "BookmarksModel 3", hasModelCache: true),
        .init(store: bookmarkStores + "Bookmarks_V4.sqlite", bundle: bookmarks, version: "BookmarksModel 4", hasModelCache: true),
        .init(store: bookmarkStores + "Bookmarks_V5.sqlite", bundle: bookmarks, version: "BookmarksModel 5", hasModelCache: true),
        .init(store: "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V1.sqlite",
              bundle: sampleModel, version: "SampleModel", hasModelCache: true),
        .init(store: "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite",
              bundle: sampleModel, version: "SampleModel2", hasModelCache: true),
        .init(store: "alemar11__CoreDataPlus/Tests/Resources/SampleModel2/Fixtures/SampleModel2_V2.sqlite",
              bundle: sampleModel, version: nil, hasModelCache: true),
        .init(store: "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3_V1.sqlite",
              bundle: sampleModel3, version: "SampleModel3", hasModelCache: true),
        .init(store: "bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite",
              bundle: "bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld", version: "TestModel", hasModelCache: true),
        .init(store: "magicalpanda__MagicalRecord/Samples/iOS/Resources/RecipeData/Recipes.sqlite",
              bundle: "magicalpanda__MagicalRecord/Samples/iOS/Application/Models/Recipes.xcdatamodeld", version: nil, hasModelCache: false),
        .init(store: "RestKit__RestKit/Examples/RKTwitterCoreData/RKSeedDatabase.sqlite",
              bundle: nil, version: nil, hasModelCache: false),
    ]

    /// The stores with a model version in the fixtures that wrote them.
    static var withModelVersion: [AppleStoreFixture] { all.filter { $0.version != nil } }

    /// The `Fixtures` folder among the test bundle's resources.
    static func storesRoot() throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil), "the Fixtures resource folder is missing")
    }

    /// The model fixtures, in the source tree beside this target.
    static let modelsRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("StrataModelFilesTests/Fixtures")

    /// The model bundle's URL.
    var bundleURL: URL? { bundle.map { Self.modelsRoot.appendingPathComponent($0) } }

    /// The model version that wrote the store.
    func model() throws -> ManagedObjectModel {
        let url = try #require(bundleURL, "\(store) has no model bundle in the fixtures")
        let version = try #require(version, "\(store) matches no version of its bundle")
        return try #require(try ModelBundle(at: url).versions[version], "\(bundle ?? "") has no version \(version)")
    }

    /// A copy of the store, with its `-wal` and `-shm` files, in a new temporary folder.
    func workingCopy() throws -> URL {
        try SQLiteStoreCopy.copy(try Self.storesRoot().appendingPathComponent(store), into: try TemporaryFolder.make())
    }
}
