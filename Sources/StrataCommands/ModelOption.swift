import ArgumentParser
import Foundation
import Strata

/// The `--model` option of `import`, which makes a store with the model it is given.
struct ModelOption: ParsableArguments {
    @Option(name: .long, help: "The model: an .xcdatamodeld bundle (its current version), an .xcdatamodel folder or its contents file.")
    var model: String

    /// Loads the model, or fails naming the file and line.
    func load() throws -> ManagedObjectModel { try Self.load(model) }

    /// Loads the model at `path` for an existing store with `metadata`: for a bundle, the
    /// version whose entity version hashes match the store's (else its current version), with
    /// its name.
    static func load(_ path: String, forStoreMetadata metadata: [String: PropertyListValue]) throws
        -> (model: ManagedObjectModel, versionName: String?) {
        let url = URL(fileURLWithPath: path)
        guard (try? ModelFile.kind(of: url)) == .bundle, let bundle = try? ModelBundle(at: url) else {
            // Not a bundle, or a bundle with a version that does not read: the current version
            // alone, with its own errors.
            return (try load(path), nil)
        }
        for warning in bundle.warnings {
            Diagnostics.warning((warning.line.map { "\(warning.file):\($0)" } ?? warning.file) + ": " + warning.message)
        }
        if let matching = bundle.version(matchingStoreMetadata: metadata) { return (matching.model, matching.name) }
        return (bundle.currentModel, bundle.currentVersionName)
    }

    /// Loads the model at `path`, or fails naming the file and line.
    static func load(_ path: String) throws -> ManagedObjectModel {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: url.path) else { throw CommandFailure("\(path): no such model file or folder") }
        do {
            let loaded = try ModelFile.read(at: url)
            for warning in loaded.warnings {
                Diagnostics.warning((warning.line.map { "\(warning.file):\($0)" } ?? warning.file) + ": " + warning.message)
            }
            return loaded.model
        } catch {
            throw CommandFailure(error.description)
        }
    }
}

/// The `--model` and `--allow-loss` options of the commands that read an existing store
/// (`convert-store`, `export`, `validate`, `query`): without `--model` a store is read with the
/// compiled model it keeps (every store Strata writes keeps one, as Apple's SQLite stores do),
/// else, for an SQLite store, with the model its tables describe, which a command that copies
/// the store refuses unless `--allow-loss`.
struct SourceModelOption: ParsableArguments {
    @Option(name: .long, help: "The model: an .xcdatamodeld bundle (the version whose hashes match the store), an .xcdatamodel folder or its contents file (default: the compiled model the store keeps, else for SQLite the model its tables describe).")
    var model: String?

    @Flag(name: .long, help: "Go on although the copy drops or changes data: a model guessed from an SQLite store's tables (join tables, ordering, sub-entities' own columns, names and types), or references to objects the store does not hold; each loss is printed as a warning.")
    var allowLoss = false
}
