import ArgumentParser
import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataJSON

/// `strata export STORE [--model M] [--allow-loss] [--output F] [--force]`; without `--model`,
/// the compiled model the store keeps.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write every object of a store as the JSON document of docs/formats/json.md."
    )

    @Argument(help: "The store to read.")
    var store: String

    @OptionGroup var modelOption: SourceModelOption

    @Option(name: .shortAndLong, help: "The file to write (standard output when omitted or -); a pipe or device is written to as it is, a symbolic link's target is replaced.")
    var output: String?

    @Flag(name: .long, help: "Replace the --output file if it exists.")
    var force = false

    func run() throws {
        let url = try StoreFiles.existingFile(store)
        let destination = try output.map { path in
            if path != "-" { try StoreFiles.requireDistinct(url, URL(fileURLWithPath: path)) }
            return try OutputFile(path, force: force)
        } ?? OutputFile("-", force: force)
        let type = try StoreFiles.sourceType(of: url, named: nil)
        let progress = ProgressBar("reading")
        defer { progress.finish() }
        progress.show("opening \(store)")
        let (opened, model) = try StoreFiles.openForCopying(url, type: type, modelOption: modelOption, store: store)
        let image: StoreImage
        do {
            image = try progress.showingStoreProgress { try opened.contentsImage() }
        } catch {
            throw CommandFailure(store, error)
        }
        progress.update(0, of: image.objects.count, label: "exporting")
        let text = ExportDocument.text(of: image, storeType: type, model: model) { progress.update($0, of: $1) }
        progress.finish()
        try destination.write(Data(text.utf8))
    }
}
