// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Strata",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataCore", targets: ["StrataCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        .target(
            name: "StrataCore",
            dependencies: [.product(name: "Collections", package: "swift-collections")]
        ),
        .target(name: "Strata", dependencies: ["StrataCore"]),
        .target(
            name: "StrataTestSupport",
            dependencies: ["Strata"],
            path: "Tests/StrataTestSupport"
        ),
        .testTarget(name: "StrataCoreTests", dependencies: ["StrataCore", "StrataTestSupport"]),
        .testTarget(name: "StoreConformanceTests", dependencies: ["Strata", "StrataTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
