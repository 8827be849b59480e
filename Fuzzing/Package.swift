// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for Strata's readers of untrusted bytes, in their own package so the
// library's package stays free of them. Build and run every target for a set time with
// `Fuzzing/run.sh [SECONDS]` (see docs/fuzzing.md): it builds with
// `-sanitize=fuzzer,address -parse-as-library`, seeds each corpus from the repository's and the
// shared fixtures' real files, and writes what crashes, hangs or runs out of memory to findings/.
let package = Package(
    name: "StrataFuzzing",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Strata", path: ".."),
    ],
    targets: [
        // What the targets share: the models the store readers and the importer read against,
        // the scratch file the store readers read, the seeds written at run time, and `main`.
        // Declares libFuzzer's driver, which each target's `main` calls (FuzzSupport/FuzzerMain.swift).
        .target(name: "CFuzzerDriver"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "StrataCore", package: "Strata"),
                .product(name: "StrataXML", package: "Strata"),
                .product(name: "StrataBinary", package: "Strata"),
                .product(name: "StrataModelFiles", package: "Strata"),
                .product(name: "StrataJSON", package: "Strata"),
            ]
        ),
        // The XML store reader (`XMLStoreFormat`): a file of Core Data's XML store layout.
        .executableTarget(name: "FuzzXMLStore", dependencies: ["FuzzSupport"]),
        // The binary store reader (`BinaryStoreFormat`): header, checksum, DEFLATE payload.
        .executableTarget(name: "FuzzBinaryStore", dependencies: ["FuzzSupport"]),
        // The model-file reader (`ModelFileReader`): an `.xcdatamodel/contents` XML document.
        .executableTarget(name: "FuzzModelFile", dependencies: ["FuzzSupport"]),
        // The compiled-model reader (`CompiledModel`): `Z_MODELCACHE` bytes and keyed archives.
        .executableTarget(name: "FuzzCompiledModel", dependencies: ["FuzzSupport"]),
        // The predicate parser (`ObjectPredicate(format:)`).
        .executableTarget(name: "FuzzPredicate", dependencies: ["FuzzSupport"]),
        // The JSON importer (`ImportDocument`): a strata-export document.
        .executableTarget(name: "FuzzJSONImport", dependencies: ["FuzzSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
