// swift-tools-version: 6.0
import PackageDescription

// A terminal list of employees in sections by department, kept by a fetched results controller
// while a background context inserts, moves and deletes rows. Run it from the repository root
// with `swift run --package-path Samples/LiveList`; it ends on its own after a few seconds.
let package = Package(
    name: "LiveList",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Strata", path: "../..")],
    targets: [
        .executableTarget(name: "LiveList", dependencies: [.product(name: "Strata", package: "Strata")]),
    ],
    swiftLanguageModes: [.v6]
)
