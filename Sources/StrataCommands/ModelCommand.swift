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
            try OutputFile("-", force: force).write(Data(xml.utf8))
            return
        }
        let destination = URL(fileURLWithPath: output)
        try StoreFiles.requireDistinct(url, destination)
        if destination.pathExtension == "xcdatamodel" {
            // A model folder: made here, its contents file written into it as any output is.
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory), !isDirectory.boolValue || !force {
                throw CommandFailure("\(output): already exists (pass --force to replace its contents file)")
            }
            do {
                try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure("\(output): \(error)")
            }
            let contentsFile = destination.appendingPathComponent("contents", isDirectory: false)
            try OutputFile(contentsFile.path, force: force).write(Data(xml.utf8))
        } else {
            try OutputFile(output, force: force).write(Data(xml.utf8))
        }
        print("\(output): the model of \(store), \(found.model.entities.count) entities")
    }
}
