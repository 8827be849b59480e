import ArgumentParser
import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataJSON

/// `strata import F DST --model M [--type T] [--force] [--renumber]`; `F` may be `-` (standard
/// input).
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a store from a JSON document, after checking all of it against the model."
    )

    @Argument(help: "The JSON document (docs/formats/json.md); - reads standard input.")
    var document: String

    @Argument(help: "The store to create (type from --type or the extension .sqlite, .xml, .binary).")
    var destination: String

    @OptionGroup var modelOption: ModelOption

    @Option(name: .long, help: "The new store's type (sqlite, xml, binary).")
    var type: String?

    @Flag(name: .long, help: "Replace the destination if it exists.")
    var force = false

    @Flag(name: .long, help: "Give objects whose refs' primary keys collide new keys, and print each old -> new ref.")
    var renumber = false

    func run() throws {
        let destinationURL = URL(fileURLWithPath: destination)
        let documentURL = document == "-" ? nil : try StoreFiles.existingFile(document)
        if let documentURL { try StoreFiles.requireDistinct(documentURL, destinationURL) }
        let storeType = try StoreFiles.destinationType(of: destinationURL, named: type, option: "--type")
        let output = try OutputFile(destination, force: force)
        let model = try modelOption.load()
        let data: Data
        if let documentURL {
            do {
                data = try Data(contentsOf: documentURL)
            } catch {
                throw CommandFailure("\(document): cannot read: \(error.localizedDescription)")
            }
        } else {
            data = FileHandle.standardInput.readDataToEndOfFile()
        }
        let progress = ProgressBar("writing")
        defer { progress.finish() }
        progress.show("checking \(documentName) (\(data.count) bytes) against the model")
        let image: StoreImage
        let renumbered: [ImportRenumbering]
        do {
            (image, renumbered) = try ImportDocument.read(data, model: model, renumbering: renumber)
        } catch {
            throw CommandFailure(lines: error.problems.map { "\(documentName): \($0)" })
        }
        progress.update(0, of: image.objects.count)
        try progress.showingStoreProgress {
            try StoreFiles.create(output, type: storeType, model: model, image: image)
        }
        progress.finish()
        // The map goes to standard output, after the store exists: one `old -> new` line per
        // object given a new key.
        for change in renumbered { print("renumbered: \(change.ref) -> \(change.newRef)") }
        print("\(destination): \(image.objects.count) objects imported into a new \(storeType) store, UUID \(image.identifier)")
    }

    /// How messages name the document: its path, or `standard input` for `-`.
    private var documentName: String { document == "-" ? "standard input" : document }
}
