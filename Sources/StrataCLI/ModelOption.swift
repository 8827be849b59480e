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
            return try ModelFile.load(at: url)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
