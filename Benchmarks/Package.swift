// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so the library's package stays free of them.
// Run: swift run -c release --package-path Benchmarks --scratch-path Benchmarks/.build StoreBenchmarks [count]
//      swift run -c release --package-path Benchmarks --scratch-path Benchmarks/.build SQLiteBenchmarks [count]
//      swift run -c release --package-path Benchmarks --scratch-path Benchmarks/.build ToManyBenchmarks [students]
//      swift run -c release --package-path Benchmarks --scratch-path Benchmarks/.build MergeBenchmarks [--rounds N]
//      swift run -c release --package-path Benchmarks --scratch-path Benchmarks/.build MappingMigrationBenchmarks [count]
//      swift run -c release --package-path Benchmarks --scratch-path Benchmarks/.build MigrationBenchmarks [rows]
//      swift run -c release --package-path Benchmarks --scratch-path Benchmarks/.build UndoBenchmarks [changes] [runs]
//      swift run -c release --package-path Benchmarks --scratch-path Benchmarks/.build WorkloadBenchmarks [--runs N] [--million]
//      Benchmarks/check-footprint.sh (FootprintBenchmarks: memory per object against checked thresholds)
let package = Package(
    name: "StrataBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Strata", path: ".."),
        // SQLiteBenchmarks measures the SQLite store against GRDB records and, through GRDB's
        // GRDBSQLite module, the SQLite C API (the system's libsqlite3, as the store uses).
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // What the benchmarks share: the pseudo-random values their data is made of, the
        // process's peak memory, running each phase in a child process, timing and medians.
        .target(name: "BenchmarkSupport"),
        // What the SQLite benchmarks share: a C API connection opened with the pragmas every
        // engine uses, binding and reading values, and Strata opened as an app opens it.
        .target(
            name: "SQLiteBenchmarkSupport",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Strata", package: "Strata"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: ["BenchmarkSupport", .product(name: "Strata", package: "Strata")]
        ),
        // ToManyBenchmarks: to-many predicates through a Strata fetch against SQL written by hand
        // on the same file, through SQLite's C API.
        .executableTarget(
            name: "ToManyBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Strata", package: "Strata"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The C library's heap figures (glibc's mallinfo2 and malloc_usable_size), which Swift's
        // Glibc module does not import.
        .target(name: "CMallocInfo"),
        // FootprintBenchmarks: the memory an app's objects take, checked against thresholds
        // (Thresholds.swift); run by check-footprint.sh.
        .executableTarget(
            name: "FootprintBenchmarks",
            dependencies: ["BenchmarkSupport", "CMallocInfo", .product(name: "Strata", package: "Strata")]
        ),
        // ResultsBenchmarks: a fetched results controller following saves against a fresh fetch.
        .executableTarget(
            name: "ResultsBenchmarks",
            dependencies: ["BenchmarkSupport", "CMallocInfo", .product(name: "Strata", package: "Strata")]
        ),
        // MergeBenchmarks: merging saves of 100 changes into contexts holding 10,000 and 100,000
        // objects (the cost follows the save, not the context).
        .executableTarget(
            name: "MergeBenchmarks",
            dependencies: ["BenchmarkSupport", .product(name: "Strata", package: "Strata")]
        ),
        // MappingMigrationBenchmarks: a mapping-model migration of a large SQLite store, its
        // objects per second and peak memory.
        .executableTarget(
            name: "MappingMigrationBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Strata", package: "Strata"),
                .product(name: "StrataMigration", package: "Strata"),
            ]
        ),
        // MigrationBenchmarks: an inferred migration of a large SQLite store against the plain
        // SQL statements of the same change through SQLite's C API.
        .executableTarget(
            name: "MigrationBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Strata", package: "Strata"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // A counter of the process's heap calls (malloc, calloc, realloc), for the benchmark
        // that checks a path makes none: linking it replaces those functions with counting
        // forwarders to glibc's.
        .target(name: "CMallocCount"),
        // UndoBenchmarks: 100,000 attribute changes in a context without an undo manager and in
        // one with a manager, their time and heap calls per change.
        .executableTarget(
            name: "UndoBenchmarks",
            dependencies: ["CMallocCount", "CMallocInfo", .product(name: "Strata", package: "Strata")]
        ),
        .executableTarget(
            name: "SQLiteBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                "SQLiteBenchmarkSupport",
                .product(name: "Strata", package: "Strata"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // WorkloadBenchmarks: a workload written outside the project (validation rules, string
        // sorts, a cascade through objects, counts after writes, first fetches), Strata against
        // GRDB records and hand-written SQL through the C API, medians of several runs.
        .executableTarget(
            name: "WorkloadBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                "SQLiteBenchmarkSupport",
                "CMallocInfo",
                .product(name: "Strata", package: "Strata"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
