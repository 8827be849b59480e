// swift-tools-version: 6.0
import PackageDescription

// The benchmarks live in their own package so the library's package stays free of them.
// Run: swift run -c release --package-path Benchmarks --scratch-path Benchmarks/.build StoreBenchmarks [count]
let package = Package(
    name: "StrataBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Strata", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [.product(name: "Strata", package: "Strata")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
