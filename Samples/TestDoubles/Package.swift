// swift-tools-version: 6.1
import PackageDescription

// A small lending library service whose own tests run on the in-memory store, while the app
// would give it an SQLite store: the store type is a parameter, the behaviour is the same. Run
// its tests from the repository root with `swift test --package-path Samples/TestDoubles`.
let package = Package(
    name: "TestDoubles",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Strata", path: "../..")],
    targets: [
        .target(name: "Library", dependencies: [.product(name: "Strata", package: "Strata")]),
        .testTarget(name: "LibraryTests", dependencies: ["Library"]),
    ],
    swiftLanguageModes: [.v6]
)
