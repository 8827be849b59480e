import ArgumentParser
import Foundation
import Strata
import StrataJSON

/// `strata import F DST --model M [--type T] [--force]`.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a store from a JSON document, after checking all of it against the model."
    )

    @Argument(help: "The JSON document (docs/formats/json.md).")
    var document: String

    @Argument(help: "The store to create (type from --type or the extension .sqlite, .xml, .binary).")
    var destination: String

    @OptionGroup var modelOption: ModelOption

    @Option(name: .long, help: "The new store's type (sqlite, xml, binary).")
    var type: String?

    @Flag(name: .long, help: "Replace the destination if it exists.")
    var force = false

    func run() throws {
        let documentURL = try StoreFiles.existingFile(document)
        let destinationURL = URL(fileURLWithPath: destination)
        try StoreFiles.requireDistinct(documentURL, destinationURL)
        let storeType = try StoreFiles.destinationType(of: destinationURL, named: type, option: "--type")
        let model = try modelOption.load()
        let data: Data
        do {
            data = try Data(contentsOf: documentURL)
        } catch {
            throw CommandFailure("\(document): cannot read: \(error.localizedDescription)")
        }
        let image: StoreImage
        do {
            image = try ImportDocument.read(data, model: model)
        } catch {
            throw CommandFailure(lines: error.problems.map { "\(document): \($0)" })
        }
        try StoreFiles.create(destinationURL, type: storeType, model: model, image: image, force: force)
        print("\(destination): \(image.objects.count) objects imported into a new \(storeType) store, UUID \(image.identifier)")
    }
}
