// swift-tools-version: 6.0
import PackageDescription

// The first program to run: builds a stack, saves a few objects, fetches them back and prints
// them. Run it from the repository root with `swift run --package-path Samples/QuickStart`.
let package = Package(
    name: "QuickStart",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Strata", path: "../..")],
    targets: [
        .executableTarget(name: "QuickStart", dependencies: [.product(name: "Strata", package: "Strata")]),
    ],
    swiftLanguageModes: [.v6]
)
