import ArgumentParser
import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore

/// `strata convert-store SRC DST [--model M] [--allow-loss] [--from-type T] [--to-type T] [--force]`.
struct ConvertStore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert-store",
        abstract: "Copy a store into another format, keeping its UUID, metadata and primary keys (so object URIs stay valid)."
    )

    @Argument(help: "The store to read.")
    var source: String

    @Argument(help: "The store to write (type from --to-type or the extension .sqlite, .xml, .binary).")
    var destination: String

    @OptionGroup var modelOption: SourceModelOption

    @Option(name: .customLong("from-type"), help: "The source's type (sqlite, xml, binary); detected from its content when omitted.")
    var fromType: String?

    @Option(name: .customLong("to-type"), help: "The destination's type (sqlite, xml, binary).")
    var toType: String?

    @Flag(name: .long, help: "Replace the destination if it exists.")
    var force = false

    func run() throws {
        let sourceURL = try StoreFiles.existingFile(source)
        let destinationURL = URL(fileURLWithPath: destination)
        try StoreFiles.requireDistinct(sourceURL, destinationURL)
        let sourceType = try StoreFiles.sourceType(of: sourceURL, named: fromType)
        let destinationType = try StoreFiles.destinationType(of: destinationURL, named: toType, option: "--to-type")
        let output = try OutputFile(destination, force: force)
        let progress = ProgressBar("reading")
        defer { progress.finish() }
        progress.show("opening \(source)")
        let (store, model) = try StoreFiles.openForCopying(sourceURL, type: sourceType, modelOption: modelOption, store: source)
        let image: StoreImage
        do {
            image = try progress.showingStoreProgress { try store.contentsImage() }
        } catch {
            throw CommandFailure(source, error)
        }
        // An SQLite copy read with its source's own compiled model keeps that model's very bytes.
        var compiledModel: Data?
        if modelOption.model == nil, sourceType == .sqlite, destinationType == .sqlite {
            compiledModel = try? SQLiteStore.compiledModelData(at: sourceURL)
        }
        progress.update(0, of: image.objects.count, label: "writing")
        try progress.showingStoreProgress {
            try StoreFiles.create(output, type: destinationType, model: model, image: image, compiledModel: compiledModel)
        }
        progress.finish()
        print("\(destination): \(image.objects.count) objects converted from \(sourceType) to \(destinationType), store UUID \(image.identifier)")
    }
}
