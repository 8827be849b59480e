import Foundation
import StrataCore
import StrataModelFiles
import Testing

/// Entity version hashes of models read from Xcode's files, checked against the hashes Apple's
/// Core Data recorded in SQLite stores saved with those very model versions.
///
/// The expected hex was read once from each store's `Z_METADATA.Z_PLIST`
/// (`sqlite3 FILE "select hex(Z_PLIST) from Z_METADATA"`, then `NSStoreModelVersionHashes` of the
/// binary property list with Python's `plistlib`). The stores themselves are in
/// `/work/shared/fixtures` and are not copied into the test resources.
@Suite struct AppleVersionHashTests {
    /// One Apple-written store and the model version saved beside it.
    struct StoreCase: Sendable, CustomTestStringConvertible {
        /// The store file the hashes come from (under `/work/shared/fixtures`).
        let store: String
        /// The model bundle, under `Fixtures/`.
        let bundle: String
        /// The version in the bundle.
        let version: String
        /// Entity name → hex of the 32-byte hash in the store's `NSStoreModelVersionHashes`.
        let hashes: [String: String]
        /// The store's `NSStoreModelVersionIdentifiers`.
        let identifiers: Set<String>

        var testDescription: String { store }
    }

    static let bookmarks = "duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld"
    static let sampleModel = "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"
    static let sampleModel3 = "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld"
    static let coreDataStack = "bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld"

    static let cases: [StoreCase] = [
        // duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V1.sqlite
        StoreCase(store: "Bookmarks_V1.sqlite", bundle: bookmarks, version: "BookmarksModel", hashes: [
            "BookmarkEntity": "c37ad9b31a1ce3faf258164444717a730317dee04efa4191d31086d2179f9c20",
        ], identifiers: [""]),
        // duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V2.sqlite
        StoreCase(store: "Bookmarks_V2.sqlite", bundle: bookmarks, version: "BookmarksModel 2", hashes: [
            "BookmarkEntity": "99d650930f7e484410207feedd129b42f5e7acff83ab6a9bf61b9a6d88bdd382",
        ], identifiers: [""]),
        // duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V3.sqlite
        StoreCase(store: "Bookmarks_V3.sqlite", bundle: bookmarks, version: "BookmarksModel 3", hashes: [
            "BookmarkEntity": "698b764beb72a2bc90217ab9a670d90d9ce1663b71c15f675ccbfb46e7ff76a5",
        ], identifiers: [""]),
        // duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V4.sqlite
        StoreCase(store: "Bookmarks_V4.sqlite", bundle: bookmarks, version: "BookmarksModel 4", hashes: [
            "BookmarkEntity": "6a086c9544c0adc6674e37b1a2cd4bc7edcd94de224c61fc603864844cb5f8f6",
        ], identifiers: [""]),
        // duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V5.sqlite
        StoreCase(store: "Bookmarks_V5.sqlite", bundle: bookmarks, version: "BookmarksModel 5", hashes: [
            "BookmarkEntity": "84f07c047d39108d666df9d08af728b3197383bda698febf3b90997db4fd5929",
        ], identifiers: [""]),
        // alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V1.sqlite
        StoreCase(store: "SampleModel_V1.sqlite", bundle: sampleModel, version: "SampleModel", hashes: [
            "Car": "9e555529072158220d1bacd2f80a3dad4919f74a32aa8be9ee22a6a7b4126c8f",
            "ExpensiveSportCar": "3dc7e32b1be45b5a4c795ac9af3e1d10aa7222d3c69ae805bbeb4408bdeba480",
            "Person": "164268551b45108ae763aa2ba61ff32d32d32323850987c3e21607c8da44b72b",
            "SportCar": "514ec1907a568299f9fb6851106516136f0755f45fa53a823a0e4d44013d5313",
        ], identifiers: ["1"]),
        // alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite
        StoreCase(store: "SampleModel_V2.sqlite", bundle: sampleModel, version: "SampleModel2", hashes: [
            "Car": "7e503efbf4b63cd93ff729e9675e21c63c65262d85a9889f59a2440af6481b93",
            "LuxuryCar": "a873c5590010e4ea3f7bdf846786dfbf5cb095526b86aa0de2c569c4bb121886",
            "Person": "067ae62e1bd1014cb6559d990803ae58f354dd1b7ba7b7722a361c0c39f2134e",
            "SportCar": "722a55b5bbcd51d74876a4dd8f8f7bbde57ddc61cb65a577ec5b0fbe978d7b8c",
        ], identifiers: ["2"]),
        // alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3_V1.sqlite
        StoreCase(store: "SampleModel3_V1.sqlite", bundle: sampleModel3, version: "SampleModel3", hashes: [
            "User": "6b31f4e97b691d16c4c820bae55f89408d47013bd42151ecfde1eac7fe4be798",
        ], identifiers: ["1"]),
        // bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite
        StoreCase(store: "TestModel.sqlite", bundle: coreDataStack, version: "TestModel", hashes: [
            "Author": "cbc1f5c274ebf414474c4e350f73b14b1dd356c22782ae7488810d597188c46d",
            "Book": "292c923e48c2cbeea5a113bb7685fbc63ab800c0bbc242ad17a0f2e2a1e08f5c",
        ], identifiers: [""]),
    ]

    @Test("every entity's version hash equals the one Apple's Core Data recorded", arguments: cases)
    func versionHashesMatchApple(_ storeCase: StoreCase) throws {
        let bundle = try ModelBundle(at: Fixtures.url(storeCase.bundle))
        let model = try #require(bundle.versions[storeCase.version], "no version \(storeCase.version)")
        #expect(Set(model.entityVersionHashesByName.keys) == Set(storeCase.hashes.keys))
        for (entity, expected) in storeCase.hashes {
            let actual = model.entityVersionHashesByName[entity].map(hex)
            #expect(actual == expected, "entity \(entity) of \(storeCase.bundle)/\(storeCase.version)")
        }
        #expect(model.versionIdentifiers == storeCase.identifiers)
    }

    @Test("the 16 recorded hashes are all checked")
    func allSixteenHashes() {
        #expect(Self.cases.reduce(0) { $0 + $1.hashes.count } == 16)
    }

    @Test("hashes survive a write and read back")
    func hashesSurviveRoundTrip() throws {
        for storeCase in Self.cases {
            let bundle = try ModelBundle(at: Fixtures.url(storeCase.bundle))
            let model = try #require(bundle.versions[storeCase.version])
            let xml = try ModelFileWriter().contents(of: model)
            let reread = try ModelFileReader().read(Data(xml.utf8), file: "written").model
            #expect(reread.entityVersionHashesByName == model.entityVersionHashesByName, "\(storeCase.store)")
        }
    }

    private func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }
}
