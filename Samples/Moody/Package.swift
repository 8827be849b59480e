// swift-tools-version: 6.1
import PackageDescription

// The objc.io book's Moody model used through typed classes the StrataCodegen plugin writes as
// the target builds (from Moody.xcdatamodeld, whose entities are set to "Class Definition"), and
// loaded at run time from the target's resources as Core Data loads a model. Run it from the
// repository root with `swift run --package-path Samples/Moody`.
let package = Package(
    name: "Moody",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Strata", path: "../..")],
    targets: [
        .executableTarget(
            name: "Moody",
            dependencies: [.product(name: "Strata", package: "Strata")],
            // SwiftPM on Linux does not compile model bundles: the bundle is copied as it is.
            resources: [.copy("Moody.xcdatamodeld")],
            plugins: [.plugin(name: "StrataCodegenPlugin", package: "Strata")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
