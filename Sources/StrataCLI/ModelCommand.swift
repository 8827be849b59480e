import ArgumentParser
import Foundation
import Strata

/// `strata model STORE [--output M.xcdatamodel|FILE|-] [--force] [--allow-loss]`: the model a
/// store keeps of itself, as an Xcode model file.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Write the model a store keeps of itself (its compiled model) as an Xcode model file."
    )

    @Argument(help: "The store to read.")
    var store: String

    @Option(name: .shortAndLong, help: "Where to write: an .xcdatamodel folder (made with its contents file), another file name for the contents XML alone, or - for standard output (the default).")
    var output: String?

    @Flag(name: .long, help: "Replace the output if it exists.")
    var force = false

    @Flag(name: .long, help: "For an SQLite store that keeps no compiled model, write the model guessed from its tables (which drops or changes what the tables do not say).")
    var allowLoss = false

    func run() throws {
        let url = try StoreFiles.existingFile(store)
        let type = try StoreFiles.sourceType(of: url, named: nil)
        let found = try StoreModel.required(modelPath: nil, url: url, type: type, store: store, copying: true, allowLoss: allowLoss)
        let xml: String
        do {
            xml = try ModelFileWriter().contents(of: found.model)
        } catch {
            throw CommandFailure("\(store): the model cannot be written as a model file: \(error)")
        }
        guard let output, output != "-" else {
            FileHandle.standardOutput.write(Data(xml.utf8))
            return
        }
        let destination = URL(fileURLWithPath: output)
        try StoreFiles.requireDistinct(url, destination)
        if FileManager.default.fileExists(atPath: destination.path), !force {
            throw CommandFailure("\(output): already exists (pass --force to replace it)")
        }
        let contentsFile = destination.pathExtension == "xcdatamodel"
            ? destination.appendingPathComponent("contents", isDirectory: false) : destination
        do {
            if destination.pathExtension == "xcdatamodel" {
                try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            }
            try AtomicFileWriter.write(Data(xml.utf8), to: contentsFile)
        } catch {
            throw CommandFailure("\(output): \(error)")
        }
        print("\(output): the model of \(store), \(found.model.entities.count) entities")
    }
}
