import ArgumentParser
import Foundation
import Strata
import StrataJSON

/// `strata export STORE [--model M] [--output F]`; without `--model`, the compiled model an
/// Apple-written SQLite store keeps.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write every object of a store as the JSON document of docs/formats/json.md."
    )

    @Argument(help: "The store to read.")
    var store: String

    @Option(name: .long, help: "The model: an .xcdatamodeld bundle (the version whose hashes match the store), an .xcdatamodel folder or its contents file (default for an SQLite store: the compiled model it keeps, else the model its tables describe).")
    var model: String?

    @Option(name: .shortAndLong, help: "The file to write (standard output when omitted).")
    var output: String?

    func run() throws {
        let url = try StoreFiles.existingFile(store)
        if let output { try StoreFiles.requireDistinct(url, URL(fileURLWithPath: output)) }
        let type = try StoreFiles.sourceType(of: url, named: nil)
        let (opened, model) = try StoreFiles.openForReading(url, type: type, modelPath: model, store: store)
        let image: StoreImage
        do {
            image = try opened.contentsImage()
        } catch {
            throw CommandFailure(store, error)
        }
        let progress = ProgressBar("exporting")
        let text = ExportDocument.text(of: image, storeType: type, model: model) { progress.update($0, of: $1) }
        progress.finish()
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        do {
            try AtomicFileWriter.write(Data(text.utf8), to: URL(fileURLWithPath: output))
        } catch {
            throw CommandFailure(String(describing: error))
        }
    }
}
