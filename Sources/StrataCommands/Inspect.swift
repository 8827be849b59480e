import ArgumentParser
import Collections
import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataJSON

/// `strata inspect STORE [--model M] [--json]`; without `--model`, an Apple-written SQLite store is
/// compared with the compiled model it keeps.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a store's type, UUID, metadata and version hashes; with a model (or the compiled model the store keeps), whether it matches and the objects per entity."
    )

    @Argument(help: "The store file.")
    var store: String

    @Option(name: .long, help: "A model to compare the store with and count objects by; for an .xcdatamodeld bundle, the version that matches the store is named (default: the store's compiled model, if it keeps one).")
    var model: String?

    @Flag(name: .long, help: "Print a JSON object instead of text.")
    var json = false

    func run() throws {
        let url = try StoreFiles.existingFile(store)
        let type = try StoreFiles.sourceType(of: url, named: nil)
        let metadata = try StoreFiles.metadata(of: url, type: type)
        let report = try report(url: url, type: type, metadata: metadata)
        print(json ? JSONWriter.pretty(report) : Self.text(of: report), terminator: json ? "\n" : "")
    }

    private func report(url: URL, type: StoreType, metadata: [String: PropertyListValue]) throws -> JSONValue {
        let hashes = StoreMetadataKey.versionHashes(in: metadata)
        var otherMetadata = metadata
        otherMetadata[StoreMetadataKey.modelVersionHashes] = nil
        otherMetadata[StoreMetadataKey.compiledModel] = nil
        var report: OrderedDictionary<String, JSONValue> = [
            "store": .string(store),
            "type": .string(type.rawValue),
            "uuid": .string(metadata[StoreMetadataKey.storeUUID]?.stringValue ?? ""),
            "metadata": PropertyListJSON.encode(.dictionary(otherMetadata)),
            "versionHashes": .object(OrderedDictionary(uniqueKeysWithValues: hashes.keys.sorted().map {
                ($0, JSONValue.string(hashes[$0]!.base64EncodedString()))
            })),
        ]
        guard let inspected = try StoreModel.find(modelPath: model, url: url, type: type, store: store, metadata: metadata) else {
            return .object(report)
        }
        let managedObjectModel = inspected.model
        let inferred = inspected.ignoresVersionHashes
        let differing = inferred ? [] : managedObjectModel.entitiesDiffering(fromVersionHashes: hashes)
        var modelReport: OrderedDictionary<String, JSONValue> = switch inspected.source {
        case .file(let path): ["path": .string(path)]
        case .store: ["source": .string("store")]
        case .tables: ["source": .string("tables")]
        }
        if let versionName = inspected.versionName { modelReport["version"] = .string(versionName) }
        if !inferred {
            modelReport["matches"] = .bool(differing.isEmpty)
            modelReport["differingEntities"] = .array(differing.map(JSONValue.string))
        }
        // Each composite attribute with the element attributes that store it (`magnitude.richter`).
        var composites = OrderedDictionary<String, JSONValue>()
        for entity in managedObjectModel.entities.sorted(by: { $0.name < $1.name }) {
            for composite in entity.compositeAttributes {
                composites["\(entity.name).\(composite.name)"] = .array(composite.storedAttributes.map { .string($0.name) })
            }
        }
        if !composites.isEmpty { modelReport["composites"] = .object(composites) }
        report["model"] = .object(modelReport)
        guard differing.isEmpty else { return .object(report) }
        let opened = try StoreFiles.open(url, type: type, model: managedObjectModel, ignoringVersionHashes: inferred)
        var counts = OrderedDictionary<String, JSONValue>()
        for entity in managedObjectModel.entities.sorted(by: { $0.name < $1.name }) where !entity.isAbstract {
            do {
                counts[entity.name] = .integer(try opened.matchingCount(StoreFetchRequest(entityNames: [entity.name])))
            } catch {
                throw CommandFailure(store, error)
            }
        }
        report["objects"] = .object(counts)
        return .object(report)
    }

    /// The report as aligned text.
    private static func text(of report: JSONValue) -> String {
        guard case .object(let members) = report else { return "" }
        var lines: [String] = []
        func scalar(_ value: JSONValue?) -> String {
            switch value {
            case .string(let text)?: text
            case let other?: JSONWriter.compact(other)
            case nil: ""
            }
        }
        lines.append("Store:    \(scalar(members["store"]))")
        lines.append("Type:     \(scalar(members["type"]))")
        lines.append("UUID:     \(scalar(members["uuid"]))")
        lines.append("Metadata:")
        if case .object(let metadata)? = members["metadata"] {
            for (key, value) in metadata { lines.append("  \(key) = \(JSONWriter.compact(value))") }
        }
        lines.append("Entity version hashes:")
        if case .object(let hashes)? = members["versionHashes"] {
            let width = hashes.keys.map(\.count).max() ?? 0
            for (name, hash) in hashes { lines.append("  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(scalar(hash))") }
        }
        if case .object(let model)? = members["model"] {
            let name = model["source"] == .string("store") ? StoreModel.compiledName : scalar(model["path"])
            let version = model["version"].map { " version '\(scalar($0))'" } ?? ""
            if model["source"] == .string("tables") {
                lines.append("Model:    \(StoreModel.inferredName) (the store keeps no compiled model)")
            } else if model["matches"] == .bool(true) {
                lines.append("Model:    \(name)\(version) matches the store")
            } else if !version.isEmpty {
                lines.append("Model:    no version of \(name) matches the store (the current\(version) differs in entities \(scalar(model["differingEntities"])))")
            } else {
                lines.append("Model:    \(name) does not match the store (entities that differ: \(scalar(model["differingEntities"])))")
            }
            if case .object(let composites)? = model["composites"] {
                lines.append("Composite attributes:")
                for (name, elements) in composites {
                    guard case .array(let paths) = elements else { continue }
                    lines.append("  \(name)  \(paths.map(scalar).joined(separator: ", "))")
                }
            }
        }
        if case .object(let counts)? = members["objects"] {
            lines.append("Objects:")
            let width = counts.keys.map(\.count).max() ?? 0
            for (name, count) in counts { lines.append("  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(scalar(count))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
