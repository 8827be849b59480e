import ArgumentParser
import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataJSON

/// `strata query STORE [--model M] --entity E [--predicate P] [--sort K,-K2] [--limit N] [--offset N] [--count]
/// [--format F] [--columns C,…] [--output F] [--force]`.
struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a fetch request and print the matching objects as JSON (the objects array of the export document), NDJSON, a table or CSV."
    )

    @Argument(help: "The store to query.")
    var store: String

    @OptionGroup var modelOption: SourceModelOption

    @Option(name: .long, help: "The entity to fetch (its sub-entities included).")
    var entity: String

    @Option(name: .long, help: "A predicate in Core Data's format-string language, e.g. \"age >= 18 AND name BEGINSWITH[c] 'a'\".")
    var predicate: String?

    @Option(name: .long, parsing: .unconditional,
            help: "Sort keys separated by commas; a leading '-' sorts that key descending, e.g. \"name,-age\".")
    var sort: String?

    @Option(name: .long, help: "The most objects to print.")
    var limit: Int?

    @Option(name: .long, help: "How many matching objects to skip.")
    var offset: Int?

    @Flag(name: .long, help: "Print only the number of matching objects.")
    var count = false

    @Option(name: .long, help: "How to print the objects: json (the export document's objects array), ndjson (one object a line), table (aligned columns) or csv (RFC 4180, with a header row).")
    var format: QueryFormat = .json

    @Option(name: .long, help: "The columns to print, separated by commas: attribute and relationship names, entity, ref (default: ref and every attribute and relationship).")
    var columns: String?

    @Option(name: .shortAndLong, help: "The file to write (standard output when omitted or -); a pipe or device is written to as it is, a symbolic link's target is replaced.")
    var output: String?

    @Flag(name: .long, help: "Replace the --output file if it exists.")
    var force = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if let offset, offset < 0 { throw ValidationError("--offset must be 0 or more") }
    }

    func run() throws {
        let url = try StoreFiles.existingFile(store)
        let destination = try output.map { path in
            if path != "-" { try StoreFiles.requireDistinct(url, URL(fileURLWithPath: path)) }
            return try OutputFile(path, force: force)
        } ?? OutputFile("-", force: force)
        let type = try StoreFiles.sourceType(of: url, named: nil)
        let (opened, model) = try StoreFiles.openForReading(url, type: type, modelPath: modelOption.model, store: store)
        guard model.entity(named: entity) != nil else {
            throw CommandFailure("--entity \(entity): the model has no such entity (it has \(model.entities.map(\.name).sorted().joined(separator: ", ")))")
        }
        let printed = try QueryOutput(format: format, columns: columns, entityName: entity, model: model)
        var request = StoreFetchRequest(entityNames: Set(model.entityAndDescendants(of: entity)))
        if let predicate {
            do {
                request.predicate = try ObjectPredicate(format: predicate)
            } catch {
                throw CommandFailure("--predicate: \(error)")
            }
        }
        request.sortDescriptors = try sortDescriptors()
        request.fetchLimit = limit ?? 0
        request.fetchOffset = offset ?? 0
        let text: String
        do {
            try model.checkFetch(entityName: entity, predicate: request.predicate, sortDescriptors: request.sortDescriptors)
            if count {
                text = "\(try opened.matchingCount(request))\n"
            } else {
                let progress = ProgressBar("printing")
                defer { progress.finish() }
                let snapshots = try opened.fetch(request)
                var objects: [JSONValue] = []
                objects.reserveCapacity(snapshots.count)
                for snapshot in snapshots {
                    objects.append(try ExportDocument.object(snapshot, model: model) {
                        try opened.relatedObjectIDs(of: snapshot.objectID, relationship: $0)
                    })
                    progress.update(objects.count, of: snapshots.count)
                }
                progress.finish()
                text = printed.text(of: objects)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(store, error)
        }
        try destination.write(Data(text.utf8))
    }

    /// `name,-age` as sort descriptors.
    private func sortDescriptors() throws -> [ObjectSortDescriptor] {
        guard let sort else { return [] }
        return try sort.split(separator: ",", omittingEmptySubsequences: false).map { item in
            let key = item.trimmingCharacters(in: .whitespaces)
            let descending = key.hasPrefix("-")
            let name = descending ? String(key.dropFirst()) : key
            guard !name.isEmpty else { throw CommandFailure("--sort \(sort): empty sort key") }
            return ObjectSortDescriptor(key: name, ascending: !descending)
        }
    }
}
