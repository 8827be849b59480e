import ArgumentParser
import Foundation
import Strata

/// The `--model` option every command that reads objects takes.
struct ModelOption: ParsableArguments {
    @Option(name: .long, help: "The model: an .xcdatamodeld bundle (its current version), an .xcdatamodel folder or its contents file.")
    var model: String

    /// Loads the model, or fails naming the file and line.
    func load() throws -> ManagedObjectModel { try Self.load(model) }

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
