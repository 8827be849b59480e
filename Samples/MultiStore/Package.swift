// swift-tools-version: 6.1
import PackageDescription

// One coordinator in front of two stores: the model's "Catalog" configuration in an SQLite file
// and its "Notes" configuration in an XML file. A second coordinator on the same files resolves a
// saved object URI. Run it from the repository root with `swift run --package-path Samples/MultiStore`.
let package = Package(
    name: "MultiStore",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Strata", path: "../..")],
    targets: [
        .executableTarget(name: "MultiStore", dependencies: [.product(name: "Strata", package: "Strata")]),
    ],
    swiftLanguageModes: [.v6]
)
