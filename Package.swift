// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Strata",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataCore", targets: ["StrataCore"]),
        .library(name: "StrataBinary", targets: ["StrataBinary"]),
        .library(name: "StrataXML", targets: ["StrataXML"]),
        .library(name: "StrataSQLite", targets: ["StrataSQLite"]),
        .library(name: "StrataModelFiles", targets: ["StrataModelFiles"]),
        .library(name: "StrataJSON", targets: ["StrataJSON"]),
        .library(name: "StrataMigration", targets: ["StrataMigration"]),
        .library(name: "StrataCodegen", targets: ["StrataCodegen"]),
        .executable(name: "strata", targets: ["StrataCLI"]),
        .plugin(name: "StrataCodegenPlugin", targets: ["StrataCodegenPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // `swift package generate-documentation`: the DocC catalogs of every module.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The `@Managed` macro: built for the host as a compiler plug-in.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
    ],
    targets: [
        .target(
            name: "StrataCore",
            dependencies: [.product(name: "Collections", package: "swift-collections")]
        ),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(name: "StrataBinary", dependencies: ["StrataCore", "CZlib"]),
        .target(name: "StrataXML", dependencies: ["StrataCore", "CLibXML2"]),
        // SQL debug output goes through swift-log.
        .target(
            name: "StrataSQLite",
            dependencies: ["StrataCore", "CSQLite", .product(name: "Logging", package: "swift-log")]
        ),
        // Reads and writes Xcode's model files; parses XML with FoundationXML, not CLibXML2. Reads
        // the compiled models Apple's SQLite stores keep (keyed archives, raw DEFLATE: CZlib).
        .target(name: "StrataModelFiles", dependencies: ["StrataCore", "CZlib"]),
        // The `@Managed` macro's implementation: a compiler plug-in, declared in `Strata`.
        .macro(
            name: "StrataMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "Strata",
            dependencies: ["StrataCore", "StrataBinary", "StrataXML", "StrataSQLite", "StrataModelFiles", "StrataMacros"]
        ),
        // The strata-export JSON document: exact numbers, lossless metadata, checked imports.
        .target(
            name: "StrataJSON",
            dependencies: ["StrataCore", .product(name: "Collections", package: "swift-collections")]
        ),
        // Mapping models: Xcode's `.xcmappingmodel` bundles (themselves Core Data XML stores).
        .target(name: "StrataMigration", dependencies: ["StrataCore", "StrataXML", "StrataModelFiles"]),
        // Swift classes for a model's entities: `strata codegen` and the build-tool plugin.
        .target(name: "StrataCodegen", dependencies: ["StrataCore", "StrataModelFiles"]),
        // Runs `strata codegen` for every model of a target as it builds.
        .plugin(name: "StrataCodegenPlugin", capability: .buildTool(), dependencies: ["StrataCLI"],
                path: "Plugins/StrataCodegen"),
        // The `strata` tool's commands, a library so that tests import it rather than the executable.
        .target(
            name: "StrataCommands",
            dependencies: [
                "Strata", "StrataJSON", "StrataMigration", "StrataCodegen",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Collections", package: "swift-collections"),
            ]
        ),
        // The `strata` command line tool: runs StrataCommands.
        .executableTarget(name: "StrataCLI", dependencies: ["StrataCommands"]),
        // A store written from StrataCore's public and store-author API alone: the core
        // protocol, no capabilities. The conformance suite runs on it too.
        .target(name: "ExampleStore", dependencies: ["StrataCore"], path: "Tests/ExampleStore"),
        .target(
            name: "StrataTestSupport",
            dependencies: ["Strata", "ExampleStore"],
            path: "Tests/StrataTestSupport"
        ),
        .testTarget(name: "StrataCoreTests", dependencies: ["StrataCore", "StrataTestSupport"]),
        .testTarget(
            name: "StoreConformanceTests",
            dependencies: [
                "Strata", "StrataTestSupport", "StoreSaveLoop",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            // A model bundle as an app ships it, for PersistentContainer(name:bundles:).
            resources: [.copy("Resources/Moody.xcdatamodeld")]
        ),
        .testTarget(name: "StrataBinaryTests", dependencies: ["StrataBinary", "StrataTestSupport"]),
        .testTarget(name: "StrataXMLTests", dependencies: ["StrataXML", "StrataTestSupport"]),
        // What every atomic file format (XML, binary) does alike, run on each.
        .testTarget(name: "AtomicFormatTests", dependencies: ["StrataXML", "StrataBinary", "StrataTestSupport"]),
        .testTarget(
            name: "StrataModelFilesTests",
            dependencies: ["StrataModelFiles", "StrataTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "StrataMigrationTests",
            dependencies: ["StrataMigration", "StrataModelFiles", "StrataJSON", "StrataTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "StrataSQLiteTests",
            dependencies: ["StrataSQLite", "StrataTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "StrataJSONTests", dependencies: ["StrataJSON", "StrataTestSupport"]),
        // Stores written by Apple's Core Data: opened, exported, saved into.
        .testTarget(
            name: "AppleStoreTests",
            dependencies: ["Strata", "StrataJSON", "StrataTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "StrataCLITests",
            dependencies: [
                "Strata", "StrataJSON", "StrataMigration", "StrataModelFiles", "StrataTestSupport", "StrataCodegen",
                // The commands' own code (help, progress, temporary files), and the `strata` executable the other tests run.
                "StrataCommands", "StrataCLI",
                // HelpTests reads the commands' configurations.
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "StrataCodegenTests", dependencies: ["StrataCodegen", "StrataModelFiles"]),
        // What `@Managed` expands to, and its diagnostics.
        .testTarget(
            name: "StrataMacrosTests",
            dependencies: [
                "StrataMacros",
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
        // Saves in a loop until killed (checkpointing an SQLite store's log meanwhile, on request):
        // the crash-safety test kills it at random moments.
        .executableTarget(
            name: "StoreSaveLoop",
            dependencies: ["Strata", "StrataTestSupport", "CSQLite"],
            path: "Tests/StoreSaveLoop"
        ),
    ],
    swiftLanguageModes: [.v6]
)
