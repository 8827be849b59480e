import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore

/// Finding, opening and creating store files for the commands, with one-line errors that name
/// the file.
enum StoreFiles {
    /// The store types a file can be converted to or imported into, by command-line name.
    static let fileTypes: [String: StoreType] = ["sqlite": .sqlite, "xml": .xml, "binary": .binary]

    /// An existing regular file at `path`.
    static func existingFile(_ path: String) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw CommandFailure("\(path): is a folder, not a store file") }
        return URL(fileURLWithPath: path)
    }

    /// A store type named on the command line (`sqlite`, `xml`, `binary`).
    static func type(named name: String, option: String) throws -> StoreType {
        guard let type = fileTypes[name.lowercased()] else {
            throw CommandFailure("\(option) \(name): unknown store type (use sqlite, xml or binary)")
        }
        return type
    }

    /// The type of the store file at `url`, from `name` when given, else from its content.
    static func sourceType(of url: URL, named name: String?) throws -> StoreType {
        if let name { return try type(named: name, option: "--from-type") }
        let detected: StoreType?
        do {
            detected = try StoreType.detect(at: url)
        } catch {
            throw CommandFailure(String(describing: error))
        }
        guard let detected else {
            throw CommandFailure("\(url.path): not a store file of a known type (SQLite, XML or binary)")
        }
        return detected
    }

    /// The type of a store to create at `url`: `name` when given, else from the file extension.
    static func destinationType(of url: URL, named name: String?, option: String) throws -> StoreType {
        if let name { return try type(named: name, option: option) }
        guard let type = fileTypes[url.pathExtension.lowercased()] else {
            throw CommandFailure("\(url.path): cannot tell the store type from the extension; use \(option) sqlite|xml|binary or name the file .sqlite, .xml or .binary")
        }
        return type
    }

    /// The metadata of the existing store at `url`, read without loading its objects.
    static func metadata(of url: URL, type: StoreType) throws -> [String: PropertyListValue] {
        do {
            return try PersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)
        } catch StoreError.unknownStoreType {
            throw CommandFailure("\(url.path): \(type) stores are not supported by this build of strata")
        } catch {
            throw CommandFailure(String(describing: error))
        }
    }

    /// Opens the existing store at `url` read-only: the commands that read a store write
    /// nothing to it (no journal change, no checkpoint of an SQLite write-ahead log).
    /// `ignoringVersionHashes` for a model that is known not to hash as the store records (one
    /// read off its tables).
    static func open(_ url: URL, type: StoreType, model: ManagedObjectModel, ignoringVersionHashes: Bool = false) throws -> any PersistentStore {
        guard StoreType.registeredTypes.contains(type) else {
            throw CommandFailure("\(url.path): \(type) stores are not supported by this build of strata")
        }
        do {
            return try type.makeStore(readOnlyDescription(url, type: type, model: model, ignoringVersionHashes: ignoringVersionHashes))
        } catch {
            throw CommandFailure(String(describing: error))
        }
    }

    /// How the commands that read a store open it: read-only, and without comparing version
    /// hashes when `ignoringVersionHashes`.
    static func readOnlyDescription(_ url: URL, type: StoreType, model: ManagedObjectModel,
                                    ignoringVersionHashes: Bool) -> StoreDescription {
        var options: [String: PropertyListValue] = [StoreOption.readOnly: .bool(true)]
        if ignoringVersionHashes { options[StoreOption.ignoresVersionHashes] = .bool(true) }
        return StoreDescription(type: type, url: url, model: model, options: options)
    }

    /// Opens the existing store at `url` (named `store` in messages) read-only with the model
    /// `StoreModel/required(modelPath:url:type:store:)` finds for it.
    /// `copying` and `allowLoss` as ``StoreModel/find(modelPath:url:type:store:metadata:copying:allowLoss:)`` takes them.
    static func openForReading(_ url: URL, type: StoreType, modelPath: String?, store: String,
                               copying: Bool = false, allowLoss: Bool = false) throws
        -> (store: any PersistentStore, model: ManagedObjectModel) {
        let found = try StoreModel.required(modelPath: modelPath, url: url, type: type, store: store, copying: copying, allowLoss: allowLoss)
        return (try open(url, type: type, model: found.model, ignoringVersionHashes: found.ignoresVersionHashes), found.model)
    }

    /// Opens the existing store at `url` (named `store` in messages) to copy all of it
    /// (`convert-store`, `export`): read-only, with the model ``StoreModel`` finds for a copy, and
    /// refused when the copy would drop data unless `modelOption.allowLoss` (a model guessed from
    /// the tables, references to objects the store does not hold).
    static func openForCopying(_ url: URL, type: StoreType, modelOption: SourceModelOption, store: String) throws
        -> (store: any PersistentStore, model: ManagedObjectModel) {
        let opened = try openForReading(url, type: type, modelPath: modelOption.model, store: store,
                                        copying: true, allowLoss: modelOption.allowLoss)
        try DanglingReferenceGuard.check(opened.store, store: store, allowLoss: modelOption.allowLoss)
        return opened
    }

    /// Creates a store of `type` at `output` holding `image`: written under a temporary name in
    /// the same folder and moved into place at the end (see `OutputFile/place(_:)`), so the
    /// destination is never seen half-written and, without `--force`, never replaced. An SQLite
    /// store gets `compiledModel` (a source store's `Z_MODELCACHE` bytes) in place of the one it
    /// writes of `model`.
    static func create(_ output: OutputFile, type: StoreType, model: ManagedObjectModel, image: StoreImage,
                       compiledModel: Data? = nil) throws {
        guard StoreType.registeredTypes.contains(type) else {
            throw CommandFailure("\(output.name): \(type) stores are not supported by this build of strata")
        }
        try output.place(replacingSidecars: true) { temporary in
            do {
                let store = try type.makeStore(StoreDescription(type: type, url: temporary, model: model))
                try store.replaceContents(with: image)
                if let compiledModel, type == .sqlite {
                    try SQLiteStore.writeCompiledModelData(compiledModel, at: temporary)
                }
            } catch {
                throw CommandFailure("\(output.name): \(error)")
            }
        }
    }

    /// Refuses to read and write the same file.
    static func requireDistinct(_ source: URL, _ destination: URL) throws {
        if source.standardizedFileURL.resolvingSymlinksInPath().path == destination.standardizedFileURL.resolvingSymlinksInPath().path {
            throw CommandFailure("\(destination.path): is the source store; write to another file")
        }
    }
}
