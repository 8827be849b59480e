import ArgumentParser
import Foundation
import Strata
import StrataJSON

/// `strata query STORE [--model M] --entity E [--predicate P] [--sort K,-K2] [--limit N] [--offset N] [--count]`.
struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a fetch request and print the matching objects as the objects array of the export document."
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

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if let offset, offset < 0 { throw ValidationError("--offset must be 0 or more") }
    }

    func run() throws {
        let url = try StoreFiles.existingFile(store)
        let type = try StoreFiles.sourceType(of: url, named: nil)
        let (opened, model) = try StoreFiles.openForReading(url, type: type, modelPath: modelOption.model, store: store)
        guard model.entity(named: entity) != nil else {
            throw CommandFailure("--entity \(entity): the model has no such entity (it has \(model.entities.map(\.name).sorted().joined(separator: ", ")))")
        }
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
        do {
            try model.checkFetch(entityName: entity, predicate: request.predicate, sortDescriptors: request.sortDescriptors)
            if count {
                print(try opened.count(request))
                return
            }
            let objects = try opened.fetch(request).map { snapshot in
                try ExportDocument.object(snapshot, model: model) {
                    try opened.relatedObjectIDs(of: snapshot.objectID, relationship: $0)
                }
            }
            print(JSONWriter.objectLines(objects))
        } catch {
            throw CommandFailure(store, error)
        }
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
